package bigint

import (
	"math/big"
	"math/bits"
)

// MaxBytesLen is the largest VM integer in bytes (C# Integer.MaxSize = 32).
const MaxBytesLen = 32

const wordBytes = bits.UintSize / 8

// Int64FromBytes decodes b as a little-endian two's-complement integer if it
// fits in int64. ok is false when the value does not fit (the caller must use
// FromBytes). Non-minimal encodings are accepted.
func Int64FromBytes(b []byte) (v int64, ok bool) {
	n := len(b)
	if n == 0 {
		return 0, true
	}
	if n > 8 {
		// Extra bytes must all be sign extension of byte 7.
		ext := byte(0)
		if b[7]&0x80 != 0 {
			ext = 0xff
		}
		for _, c := range b[8:] {
			if c != ext {
				return 0, false
			}
		}
		n = 8
	}
	var u uint64
	for i := n - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if n < 8 && b[n-1]&0x80 != 0 {
		u |= ^uint64(0) << (8 * uint(n))
	}
	return int64(u), true
}

// FromBytes decodes b (little-endian two's complement) into a new big.Int.
func FromBytes(b []byte) *big.Int {
	return SetBytes(new(big.Int), b)
}

// SetBytes decodes b (little-endian two's complement) into z and returns z.
func SetBytes(z *big.Int, b []byte) *big.Int {
	n := len(b)
	if n == 0 {
		return z.SetInt64(0)
	}
	if v, ok := Int64FromBytes(b); ok {
		return z.SetInt64(v)
	}
	neg := b[n-1]&0x80 != 0
	words := make([]big.Word, (n+wordBytes-1)/wordBytes)
	for i := range words {
		var w big.Word
		for j := wordBytes - 1; j >= 0; j-- {
			k := i*wordBytes + j
			c := byte(0)
			if k < n {
				c = b[k]
			} else if neg {
				c = 0xff
			}
			w = w<<8 | big.Word(c)
		}
		words[i] = w
	}
	if neg {
		// Magnitude = two's complement of the words: invert and add one.
		carry := big.Word(1)
		for i := range words {
			w := ^words[i]
			words[i] = w + carry
			if carry == 1 && words[i] != 0 {
				carry = 0
			}
		}
		z.SetBits(words)
		return z.Neg(z)
	}
	return z.SetBits(words)
}

// Int64Len returns the minimal encoded length of v (0 for zero), which is the
// VM size of an Integer holding v.
func Int64Len(v int64) int {
	if v == 0 {
		return 0
	}
	var n int
	if v > 0 {
		n = (bits.Len64(uint64(v)) + 8) / 8 // one extra bit for the sign
	} else {
		n = (bits.Len64(uint64(^v)) + 8) / 8
	}
	return n
}

// AppendInt64 appends the minimal encoding of v (nothing for zero).
func AppendInt64(dst []byte, v int64) []byte {
	n := Int64Len(v)
	u := uint64(v)
	for i := 0; i < n; i++ {
		dst = append(dst, byte(u))
		u >>= 8
	}
	return dst
}

// Len returns the minimal encoded length of x (0 for zero), the VM size of an
// Integer holding x. It equals BigInteger.GetByteCount() for non-zero x.
func Len(x *big.Int) int {
	if x.IsInt64() {
		return Int64Len(x.Int64())
	}
	if x.Sign() > 0 {
		return (x.BitLen() + 8) / 8
	}
	// For negative x, the minimal two's complement length is that of ^x = -x-1.
	var t big.Int
	t.Not(x)
	return (t.BitLen() + 8) / 8
}

// ToBytes returns the minimal encoding of x (empty for zero).
func ToBytes(x *big.Int) []byte {
	return Append(nil, x)
}

// ToBytesCSharp returns what BigInteger.ToByteArray() returns: the minimal
// encoding, but one 0x00 byte for zero.
func ToBytesCSharp(x *big.Int) []byte {
	if x.Sign() == 0 {
		return []byte{0}
	}
	return ToBytes(x)
}

// Append appends the minimal encoding of x (nothing for zero).
func Append(dst []byte, x *big.Int) []byte {
	if x.IsInt64() {
		return AppendInt64(dst, x.Int64())
	}
	n := Len(x)
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	out := dst[start:]
	words := x.Bits()
	neg := x.Sign() < 0
	// Write the magnitude little-endian, then negate in place if needed.
	k := 0
	for _, w := range words {
		for j := 0; j < wordBytes && k < n; j++ {
			out[k] = byte(w)
			w >>= 8
			k++
		}
	}
	if neg {
		carry := true
		for i := range out {
			out[i] = ^out[i]
			if carry {
				out[i]++
				carry = out[i] == 0
			}
		}
	}
	return dst
}

package hash

import (
	"encoding/hex"
	"errors"
	"fmt"

	nio "github.com/n3node/n3node/pkg/io"
)

// Uint160Size and Uint256Size are the byte lengths of the hash types.
const (
	Uint160Size = 20
	Uint256Size = 32
)

// ErrHashFormat is wrapped by the decode functions on bad input.
var ErrHashFormat = errors.New("invalid hash")

// Uint160 is a 20-byte hash in serialized (little-endian) order.
type Uint160 [Uint160Size]byte

// Uint256 is a 32-byte hash in serialized (little-endian) order.
type Uint256 [Uint256Size]byte

// Uint160DecodeBytesBE takes 20 bytes in serialized order (the bytes a
// contract sees; neo-go's naming, as BytesBE).
func Uint160DecodeBytesBE(b []byte) (u Uint160, err error) {
	if len(b) != Uint160Size {
		return u, fmt.Errorf("%w: want %d bytes, got %d", ErrHashFormat, Uint160Size, len(b))
	}
	copy(u[:], b)
	return u, nil
}

// Uint160DecodeBytesLE takes 20 bytes in reversed (display) order.
func Uint160DecodeBytesLE(b []byte) (u Uint160, err error) {
	u, err = Uint160DecodeBytesBE(b)
	reverse(u[:])
	return u, err
}

// Uint256DecodeBytesBE takes 32 bytes in serialized order (the bytes a
// contract sees; neo-go's naming, as BytesBE).
func Uint256DecodeBytesBE(b []byte) (u Uint256, err error) {
	if len(b) != Uint256Size {
		return u, fmt.Errorf("%w: want %d bytes, got %d", ErrHashFormat, Uint256Size, len(b))
	}
	copy(u[:], b)
	return u, nil
}

// Uint256DecodeBytesLE takes 32 bytes in reversed (display) order.
func Uint256DecodeBytesLE(b []byte) (u Uint256, err error) {
	u, err = Uint256DecodeBytesBE(b)
	reverse(u[:])
	return u, err
}

// Uint160DecodeStringLE parses the reversed-hex display form (as printed by
// C# and RPC); a 0x prefix is accepted.
func Uint160DecodeStringLE(s string) (u Uint160, err error) {
	err = decodeHex(u[:], s, true)
	return u, err
}

// Uint160DecodeStringBE parses hex of the serialized bytes; a 0x prefix is
// accepted.
func Uint160DecodeStringBE(s string) (u Uint160, err error) {
	err = decodeHex(u[:], s, false)
	return u, err
}

// Uint256DecodeStringLE parses the reversed-hex display form; a 0x prefix is
// accepted.
func Uint256DecodeStringLE(s string) (u Uint256, err error) {
	err = decodeHex(u[:], s, true)
	return u, err
}

// Uint256DecodeStringBE parses hex of the serialized bytes; a 0x prefix is
// accepted.
func Uint256DecodeStringBE(s string) (u Uint256, err error) {
	err = decodeHex(u[:], s, false)
	return u, err
}

// decodeHex decodes s into dst without allocating, reversing if rev.
func decodeHex[S string | []byte](dst []byte, s S, rev bool) error {
	if len(s) >= 2 && s[0] == '0' && s[1] == 'x' {
		s = s[2:]
	}
	if len(s) != 2*len(dst) {
		return fmt.Errorf("%w: want %d hex characters, got %d", ErrHashFormat, 2*len(dst), len(s))
	}
	n := len(dst)
	var bad byte
	for i := 0; i < n; i++ {
		hi, lo := hexVal[s[2*i]], hexVal[s[2*i+1]]
		bad |= hi | lo
		j := i
		if rev {
			j = n - 1 - i
		}
		dst[j] = hi<<4 | lo&0xf
	}
	if bad&0xf0 != 0 {
		clear(dst)
		return fmt.Errorf("%w: bad hex character in %q", ErrHashFormat, string(s))
	}
	return nil
}

// hexVal maps an ASCII hex digit to its value and anything else to 0xff.
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
		t[c-'a'+'A'] = byte(c-'a') + 10
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendHex appends hex of b (reversed if rev).
func appendHex(dst []byte, b []byte, rev bool) []byte {
	n := len(b)
	for i := 0; i < n; i++ {
		c := b[i]
		if rev {
			c = b[n-1-i]
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&0xf])
	}
	return dst
}

func reverse(b []byte) {
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}

// StringLE returns the reversed-hex display form without 0x.
func (u Uint160) StringLE() string { return string(appendHex(make([]byte, 0, 40), u[:], true)) }

// StringBE returns hex of the serialized bytes.
func (u Uint160) StringBE() string { return hex.EncodeToString(u[:]) }

// String returns the display form with 0x, as C# prints it.
func (u Uint160) String() string { return "0x" + u.StringLE() }

// BytesBE returns a copy of the serialized bytes (the bytes a contract
// sees; neo-go's naming, as StringBE).
func (u Uint160) BytesBE() []byte {
	b := u
	return b[:]
}

// BytesLE returns the bytes in reversed (display) order.
func (u Uint160) BytesLE() []byte {
	b := u
	reverse(b[:])
	return b[:]
}

// Reverse returns u with its bytes reversed.
func (u Uint160) Reverse() Uint160 {
	reverse(u[:])
	return u
}

// Equals reports whether u and o are equal.
func (u Uint160) Equals(o Uint160) bool { return u == o }

// Less orders hashes by their serialized bytes.
func (u Uint160) Less(o Uint160) bool { return u.Compare(o) < 0 }

// Compare orders hashes by their serialized bytes.
func (u Uint160) Compare(o Uint160) int { return compareBytes(u[:], o[:]) }

// IsZero reports whether every byte is zero.
func (u Uint160) IsZero() bool { return u == Uint160{} }

// EncodeBinary writes the 20 bytes.
func (u *Uint160) EncodeBinary(w *nio.BinWriter) { w.WriteBytes(u[:]) }

// DecodeBinary reads 20 bytes.
func (u *Uint160) DecodeBinary(r *nio.BinReader) { r.ReadBytes(u[:]) }

// MarshalJSON writes "0x" + StringLE.
func (u Uint160) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 44)
	b = append(b, `"0x`...)
	b = appendHex(b, u[:], true)
	return append(b, '"'), nil
}

// UnmarshalJSON accepts the display form with or without 0x.
func (u *Uint160) UnmarshalJSON(data []byte) error {
	s, err := unquote(data)
	if err != nil {
		return err
	}
	return decodeHex(u[:], s, true)
}

// StringLE returns the reversed-hex display form without 0x.
func (u Uint256) StringLE() string { return string(appendHex(make([]byte, 0, 64), u[:], true)) }

// StringBE returns hex of the serialized bytes.
func (u Uint256) StringBE() string { return hex.EncodeToString(u[:]) }

// String returns the display form with 0x, as C# prints it.
func (u Uint256) String() string { return "0x" + u.StringLE() }

// BytesBE returns a copy of the serialized bytes (the bytes a contract
// sees; neo-go's naming, as StringBE).
func (u Uint256) BytesBE() []byte {
	b := u
	return b[:]
}

// BytesLE returns the bytes in reversed (display) order.
func (u Uint256) BytesLE() []byte {
	b := u
	reverse(b[:])
	return b[:]
}

// Reverse returns u with its bytes reversed.
func (u Uint256) Reverse() Uint256 {
	reverse(u[:])
	return u
}

// Equals reports whether u and o are equal.
func (u Uint256) Equals(o Uint256) bool { return u == o }

// Less orders hashes by their serialized bytes.
func (u Uint256) Less(o Uint256) bool { return u.Compare(o) < 0 }

// Compare orders hashes by their serialized bytes.
func (u Uint256) Compare(o Uint256) int { return compareBytes(u[:], o[:]) }

// IsZero reports whether every byte is zero.
func (u Uint256) IsZero() bool { return u == Uint256{} }

// EncodeBinary writes the 32 bytes.
func (u *Uint256) EncodeBinary(w *nio.BinWriter) { w.WriteBytes(u[:]) }

// DecodeBinary reads 32 bytes.
func (u *Uint256) DecodeBinary(r *nio.BinReader) { r.ReadBytes(u[:]) }

// MarshalJSON writes "0x" + StringLE.
func (u Uint256) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 68)
	b = append(b, `"0x`...)
	b = appendHex(b, u[:], true)
	return append(b, '"'), nil
}

// UnmarshalJSON accepts the display form with or without 0x.
func (u *Uint256) UnmarshalJSON(data []byte) error {
	s, err := unquote(data)
	if err != nil {
		return err
	}
	return decodeHex(u[:], s, true)
}

func unquote(data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return nil, fmt.Errorf("%w: not a JSON string", ErrHashFormat)
	}
	return data[1 : len(data)-1], nil
}

func compareBytes(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

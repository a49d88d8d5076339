package keys

import (
	"encoding/binary"
	"math/big"
	"math/bits"
)

// Arithmetic modulo n, the order of the P-256 group, on four 64-bit limbs.
//
// The hot-key signature check (hotkeys.go) needs e·s⁻¹ and r·s⁻¹ mod n
// for every signature. With math/big that is a Lehmer GCD and two
// reductions, 6–8 allocations per check; here it is a binary GCD on
// fixed-size values and three Montgomery products, no allocation.
//
// Every value here is public (a signature, a digest), so the code is
// variable-time: the inversion loops as long as the binary GCD of s and n
// takes. It must not be used on secrets.

// orderScalar is an integer below 2²⁵⁶, least significant limb first; the
// functions below keep it in [0, n) unless they say otherwise.
type orderScalar [4]uint64

var (
	// p256Order is n.
	p256Order = orderScalar{0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000}
	// p256OrderNegInv is -n⁻¹ mod 2⁶⁴ (Montgomery's constant).
	p256OrderNegInv = negInv64(p256Order[0])
	// p256OrderRR is 2⁵¹² mod n: montMul by it puts a value into
	// Montgomery form (multiplies it by 2²⁵⁶).
	p256OrderRR = func() orderScalar {
		rr := new(big.Int).Lsh(big.NewInt(1), 512)
		rr.Mod(rr, orderToBig(&p256Order))
		var b [32]byte
		var s orderScalar
		s.setBytes(rr.FillBytes(b[:]))
		return s
	}()
)

// negInv64 returns -x⁻¹ mod 2⁶⁴ for odd x (Newton's iteration doubles the
// correct low bits each round: 1 → 2 → 4 → … → 64, after six rounds from a
// 3-bit start).
func negInv64(x uint64) uint64 {
	inv := x // correct to 3 bits for odd x
	for range 5 {
		inv *= 2 - x*inv
	}
	return -inv
}

// orderToBig converts s (tests and initialisation only).
func orderToBig(s *orderScalar) *big.Int {
	var b [32]byte
	s.putBytes(&b)
	return new(big.Int).SetBytes(b[:])
}

// setBytes sets s to the 32-byte big-endian b (any value below 2²⁵⁶).
func (s *orderScalar) setBytes(b []byte) {
	_ = b[31]
	s[3] = binary.BigEndian.Uint64(b[0:8])
	s[2] = binary.BigEndian.Uint64(b[8:16])
	s[1] = binary.BigEndian.Uint64(b[16:24])
	s[0] = binary.BigEndian.Uint64(b[24:32])
}

// putBytes writes s to b, 32 bytes big-endian.
func (s *orderScalar) putBytes(b *[32]byte) {
	binary.BigEndian.PutUint64(b[0:8], s[3])
	binary.BigEndian.PutUint64(b[8:16], s[2])
	binary.BigEndian.PutUint64(b[16:24], s[1])
	binary.BigEndian.PutUint64(b[24:32], s[0])
}

func (s *orderScalar) isZero() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

// cmp compares s and t as integers: -1, 0 or +1.
func (s *orderScalar) cmp(t *orderScalar) int {
	for i := 3; i >= 0; i-- {
		if s[i] != t[i] {
			if s[i] < t[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// sub sets s = a - b mod 2²⁵⁶ and returns the borrow.
func (s *orderScalar) sub(a, b *orderScalar) uint64 {
	var c uint64
	s[0], c = bits.Sub64(a[0], b[0], 0)
	s[1], c = bits.Sub64(a[1], b[1], c)
	s[2], c = bits.Sub64(a[2], b[2], c)
	s[3], c = bits.Sub64(a[3], b[3], c)
	return c
}

// add sets s = a + b mod 2²⁵⁶ and returns the carry.
func (s *orderScalar) add(a, b *orderScalar) uint64 {
	var c uint64
	s[0], c = bits.Add64(a[0], b[0], 0)
	s[1], c = bits.Add64(a[1], b[1], c)
	s[2], c = bits.Add64(a[2], b[2], c)
	s[3], c = bits.Add64(a[3], b[3], c)
	return c
}

// reduceOnce sets s = s mod n for s below 2n (every 256-bit value is:
// n > 2²⁵⁵).
func (s *orderScalar) reduceOnce() {
	var d orderScalar
	if d.sub(s, &p256Order) == 0 {
		*s = d
	}
}

// montMul sets s = a·b·2⁻²⁵⁶ mod n for a, b in [0, n) (Montgomery's
// product, operand scanning: each round adds a[i]·b, then a multiple of n
// that clears the low limb, and drops that limb).
func (s *orderScalar) montMul(a, b *orderScalar) {
	var t0, t1, t2, t3, t4 uint64 // the running sum, below 2n
	for i := range 4 {
		ai := a[i]
		var c, t5 uint64
		t0, c = mulAdd(ai, b[0], t0, 0)
		t1, c = mulAdd(ai, b[1], t1, c)
		t2, c = mulAdd(ai, b[2], t2, c)
		t3, c = mulAdd(ai, b[3], t3, c)
		t4, t5 = bits.Add64(t4, c, 0)

		m := t0 * p256OrderNegInv
		_, c = mulAdd(m, p256Order[0], t0, 0) // low limb becomes 0
		t0, c = mulAdd(m, p256Order[1], t1, c)
		t1, c = mulAdd(m, p256Order[2], t2, c)
		t2, c = mulAdd(m, p256Order[3], t3, c)
		var c2 uint64
		t3, c2 = bits.Add64(t4, c, 0)
		t4 = t5 + c2
	}
	r := orderScalar{t0, t1, t2, t3}
	var d orderScalar
	if b := d.sub(&r, &p256Order); t4 != 0 || b == 0 {
		r = d
	}
	*s = r
}

// mulAdd returns the low and high limbs of x·y + z + c (never above
// 2¹²⁸ - 1).
func mulAdd(x, y, z, c uint64) (lo, hi uint64) {
	hi, lo = bits.Mul64(x, y)
	var k uint64
	lo, k = bits.Add64(lo, z, 0)
	hi += k
	lo, k = bits.Add64(lo, c, 0)
	hi += k
	return lo, hi
}

// Inversion is Pornin's optimised binary GCD ("Optimized Binary GCD for
// Modular Inversion", 2020), variable-time: with a = y, b = n, u = 1,
// v = 0, a ≡ u·y and b ≡ v·y (mod n) hold throughout. One step of the
// binary GCD subtracts b from a when a is odd (swapping them first if
// a < b) and halves a; 2·256 - 1 steps bring a to 0 and b to gcd = 1, and
// then v = y⁻¹. The steps are done 31 at a time on 64-bit stand-ins for a
// and b (their top 33 bits over a common bit length and their exact low
// 31 bits), recording how the new a, b are made from the old ones
// (new = (old a·f + old b·g) / 2³¹); that matrix is then applied once to
// the full-size a, b, u and v. The stand-ins can make a wrong choice, which
// can leave a new a or b negative; negating it (and its row of the matrix)
// keeps the bound of 2·256 - 1 steps (the paper's proof).

const (
	gcdBatch = 31
	// gcdBatches is ⌈(2·256 - 1)/31⌉.
	gcdBatches = (2*256 - 1 + gcdBatch - 1) / gcdBatch
	lowMask31  = 1<<gcdBatch - 1
)

// bitLen is the position of s's highest set bit plus one (0 for 0).
func (s *orderScalar) bitLen() int {
	for i := 3; i >= 0; i-- {
		if s[i] != 0 {
			return i*64 + bits.Len64(s[i])
		}
	}
	return 0
}

// bitsAt returns the 64 bits of s from bit position p up (0 ≤ p < 256).
func (s *orderScalar) bitsAt(p int) uint64 {
	i, k := p/64, uint(p%64)
	w := s[i] >> k
	if k != 0 && i < 3 {
		w |= s[i+1] << (64 - k)
	}
	return w
}

// wide is a signed 320-bit value in two's complement, least significant
// limb first: the linear combinations of the GCD before their division.
type wide [5]uint64

// linear returns x·f + y·g (straight-line: the signs are masks).
func linear(x, y *orderScalar, f, g int64) wide {
	sf, sg := uint64(f>>63), uint64(g>>63) // all ones if negative
	mf, mg := (uint64(f)^sf)-sf, (uint64(g)^sg)-sg
	var a, b wide
	var c uint64
	a[0], c = mulAdd(x[0], mf, 0, 0)
	a[1], c = mulAdd(x[1], mf, 0, c)
	a[2], c = mulAdd(x[2], mf, 0, c)
	a[3], c = mulAdd(x[3], mf, 0, c)
	a[4] = c
	b[0], c = mulAdd(y[0], mg, 0, 0)
	b[1], c = mulAdd(y[1], mg, 0, c)
	b[2], c = mulAdd(y[2], mg, 0, c)
	b[3], c = mulAdd(y[3], mg, 0, c)
	b[4] = c
	a.negIf(sf)
	b.negIf(sg)
	a.add(&a, &b)
	return a
}

// negIf negates w if mask is all ones (complement, +1), keeps it if 0.
func (w *wide) negIf(mask uint64) {
	var c uint64
	w[0], c = bits.Add64(w[0]^mask, mask&1, 0)
	w[1], c = bits.Add64(w[1]^mask, 0, c)
	w[2], c = bits.Add64(w[2]^mask, 0, c)
	w[3], c = bits.Add64(w[3]^mask, 0, c)
	w[4], _ = bits.Add64(w[4]^mask, 0, c)
}

func (w *wide) neg() {
	var c uint64
	w[0], c = bits.Sub64(0, w[0], 0)
	w[1], c = bits.Sub64(0, w[1], c)
	w[2], c = bits.Sub64(0, w[2], c)
	w[3], c = bits.Sub64(0, w[3], c)
	w[4], _ = bits.Sub64(0, w[4], c)
}

func (w *wide) add(a, b *wide) {
	var c uint64
	w[0], c = bits.Add64(a[0], b[0], 0)
	w[1], c = bits.Add64(a[1], b[1], c)
	w[2], c = bits.Add64(a[2], b[2], c)
	w[3], c = bits.Add64(a[3], b[3], c)
	w[4], _ = bits.Add64(a[4], b[4], c)
}

func (w *wide) negative() bool { return int64(w[4]) < 0 }

// shift31 returns w / 2³¹ for w divisible by 2³¹ (arithmetic shift).
func (w *wide) shift31() wide {
	return wide{
		w[0]>>gcdBatch | w[1]<<(64-gcdBatch),
		w[1]>>gcdBatch | w[2]<<(64-gcdBatch),
		w[2]>>gcdBatch | w[3]<<(64-gcdBatch),
		w[3]>>gcdBatch | w[4]<<(64-gcdBatch),
		uint64(int64(w[4]) >> gcdBatch),
	}
}

// combine returns |x·f + y·g| / 2³¹ and whether the sum was negative; the
// sum is divisible by 2³¹ and its quotient's magnitude below 2²⁵⁶.
func combine(x, y *orderScalar, f, g int64) (orderScalar, bool) {
	a := linear(x, y, f, g)
	q := a.shift31()
	neg := q.negative()
	if neg {
		q.neg()
	}
	return orderScalar{q[0], q[1], q[2], q[3]}, neg
}

// combineMod returns (x·f + y·g) / 2³¹ mod n for x, y in [0, n) and
// |f| + |g| ≤ 2³¹: it adds the multiple k·n (k < 2³¹) that makes the sum
// divisible by 2³¹; the quotient is in (-n, 2n).
func combineMod(x, y *orderScalar, f, g int64) orderScalar {
	a := linear(x, y, f, g)
	k := (a[0] * p256OrderNegInv) & lowMask31
	var c uint64
	a[0], c = mulAdd(k, p256Order[0], a[0], 0)
	a[1], c = mulAdd(k, p256Order[1], a[1], c)
	a[2], c = mulAdd(k, p256Order[2], a[2], c)
	a[3], c = mulAdd(k, p256Order[3], a[3], c)
	a[4] += c
	q := a.shift31()
	nw := wide{p256Order[0], p256Order[1], p256Order[2], p256Order[3], 0}
	for q.negative() {
		q.add(&q, &nw)
	}
	r := orderScalar{q[0], q[1], q[2], q[3]}
	for q[4] != 0 || r.cmp(&p256Order) >= 0 {
		var c uint64
		r[0], c = bits.Sub64(r[0], p256Order[0], 0)
		r[1], c = bits.Sub64(r[1], p256Order[1], c)
		r[2], c = bits.Sub64(r[2], p256Order[2], c)
		r[3], c = bits.Sub64(r[3], p256Order[3], c)
		q[4] -= c
	}
	return r
}

// invert sets s = y⁻¹ mod n (see the comment above gcdBatch). y is taken
// mod n; 0 has no inverse and gives 0. Variable time.
func (s *orderScalar) invert(y *orderScalar) {
	a := *y
	a.reduceOnce()
	b := p256Order
	u, v := orderScalar{1}, orderScalar{}
	for range gcdBatches {
		if a.isZero() {
			break
		}
		var ah, bh uint64 // the stand-ins
		if n := max(a.bitLen(), b.bitLen()); n <= 64 {
			ah, bh = a[0], b[0] // exact
		} else {
			ah = a.bitsAt(n-33)<<gcdBatch | a[0]&lowMask31
			bh = b.bitsAt(n-33)<<gcdBatch | b[0]&lowMask31
		}
		// new a = (a·f0 + b·g0) / 2³¹, new b = (a·f1 + b·g1) / 2³¹.
		f0, g0, f1, g1 := int64(1), int64(0), int64(0), int64(1)
		for range gcdBatch {
			// Without branches (the choices are coin flips to a
			// predictor): if a is odd, swap when a < b, then a -= b.
			odd := -(ah & 1)
			_, borrow := bits.Sub64(ah, bh, 0)
			swap := odd & -borrow
			t := swap & (ah ^ bh)
			ah, bh = ah^t, bh^t
			tf := int64(swap) & (f0 ^ f1)
			f0, f1 = f0^tf, f1^tf
			tg := int64(swap) & (g0 ^ g1)
			g0, g1 = g0^tg, g1^tg
			ah -= bh & odd
			f0 -= f1 & int64(odd)
			g0 -= g1 & int64(odd)
			ah >>= 1
			f1 <<= 1
			g1 <<= 1
		}
		na, negA := combine(&a, &b, f0, g0)
		nb, negB := combine(&a, &b, f1, g1)
		if negA {
			f0, g0 = -f0, -g0
		}
		if negB {
			f1, g1 = -f1, -g1
		}
		u, v = combineMod(&u, &v, f0, g0), combineMod(&u, &v, f1, g1)
		a, b = na, nb
	}
	if !a.isZero() || b != (orderScalar{1}) {
		*s = orderScalar{} // y was 0 (or, impossibly, the bound failed)
		return
	}
	*s = v
}

// invertMont sets s = y⁻¹·2²⁵⁶ mod n, the inverse in Montgomery form, so
// that montMul(x, s) = x·y⁻¹.
func (s *orderScalar) invertMont(y *orderScalar) {
	s.invert(y)
	s.montMul(s, &p256OrderRR)
}

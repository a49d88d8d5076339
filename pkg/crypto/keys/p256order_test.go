package keys

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// orderEdgeValues are scalars around the limb and modulus boundaries.
func orderEdgeValues() []*big.Int {
	n := p256N
	out := []*big.Int{big.NewInt(1), big.NewInt(2), big.NewInt(3)}
	for _, k := range []uint{63, 64, 65, 127, 128, 191, 192, 255} {
		p := new(big.Int).Lsh(big.NewInt(1), k)
		out = append(out, p, new(big.Int).Sub(p, big.NewInt(1)))
	}
	for _, d := range []int64{1, 2, 3} {
		out = append(out, new(big.Int).Sub(n, big.NewInt(d)))
	}
	out = append(out, new(big.Int).Rsh(n, 1), new(big.Int).Add(new(big.Int).Rsh(n, 1), big.NewInt(1)))
	return out
}

func bigToOrder(t testing.TB, x *big.Int) orderScalar {
	t.Helper()
	var b [32]byte
	var s orderScalar
	s.setBytes(x.FillBytes(b[:]))
	return s
}

func randOrder(rng *rand.Rand) *big.Int {
	var b [32]byte
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	if rng.IntN(4) == 0 { // sparse values: long runs of zero bits
		for i := range b {
			if rng.IntN(3) != 0 {
				b[i] = 0
			}
		}
	}
	x := new(big.Int).SetBytes(b[:])
	x.Mod(x, p256N)
	if x.Sign() == 0 {
		x.SetInt64(1)
	}
	return x
}

func TestOrderConstants(t *testing.T) {
	if got := orderToBig(&p256Order); got.Cmp(p256N) != 0 {
		t.Fatalf("n = %x, want %x", got, p256N)
	}
	if p256Order[0]*-p256OrderNegInv != 1 {
		t.Fatalf("-n⁻¹ mod 2⁶⁴ wrong: %x", p256OrderNegInv)
	}
	rr := new(big.Int).Lsh(big.NewInt(1), 512)
	if got := orderToBig(&p256OrderRR); got.Cmp(rr.Mod(rr, p256N)) != 0 {
		t.Fatalf("2⁵¹² mod n = %x", got)
	}
}

// checkOrderOps compares the fixed-width operations on a and b (in [1, n))
// with math/big.
func checkOrderOps(t *testing.T, a, b *big.Int) {
	t.Helper()
	n := p256N
	sa, sb := bigToOrder(t, a), bigToOrder(t, b)

	var inv orderScalar
	inv.invert(&sa)
	if want := new(big.Int).ModInverse(a, n); orderToBig(&inv).Cmp(want) != 0 {
		t.Fatalf("invert(%x) = %x, want %x", a, orderToBig(&inv), want)
	}

	// montMul(montMul(a, RR), b) = a·b mod n.
	var m orderScalar
	m.montMul(&sa, &p256OrderRR)
	m.montMul(&m, &sb)
	if want := new(big.Int).Mul(a, b); orderToBig(&m).Cmp(want.Mod(want, n)) != 0 {
		t.Fatalf("%x·%x = %x, want %x", a, b, orderToBig(&m), want)
	}

	// invertMont(b) is b⁻¹·2²⁵⁶; montMul(a, invertMont(b)) = a/b.
	var q orderScalar
	q.invertMont(&sb)
	q.montMul(&sa, &q)
	want := new(big.Int).ModInverse(b, n)
	if want.Mul(want, a).Mod(want, n); orderToBig(&q).Cmp(want) != 0 {
		t.Fatalf("%x/%x = %x, want %x", a, b, orderToBig(&q), want)
	}
}

func TestOrderArithmeticMatchesBig(t *testing.T) {
	edges := orderEdgeValues()
	for _, a := range edges {
		for _, b := range edges {
			checkOrderOps(t, a, b)
		}
	}
	rng := rand.New(rand.NewPCG(17, 1))
	for range 5000 {
		checkOrderOps(t, randOrder(rng), randOrder(rng))
	}
}

func TestOrderInvertOutOfRange(t *testing.T) {
	var z, s orderScalar
	s.invert(&z)
	if !s.isZero() {
		t.Fatal("invert(0) is not 0")
	}
	n := p256Order
	s.invert(&n)
	if !s.isZero() {
		t.Fatal("invert(n) is not 0")
	}
	np1 := bigToOrder(t, new(big.Int).Add(p256N, big.NewInt(1)))
	if s.invert(&np1); s != (orderScalar{1}) {
		t.Fatalf("invert(n+1) = %x, want 1", orderToBig(&s))
	}
	if s.invertMont(&z); !s.isZero() {
		t.Fatal("invertMont(0) is not 0")
	}
}

func TestOrderReduceOnce(t *testing.T) {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, x := range []*big.Int{big.NewInt(0), new(big.Int).Sub(p256N, big.NewInt(1)), p256N, max} {
		s := bigToOrder(t, x)
		s.reduceOnce()
		if want := new(big.Int).Mod(x, p256N); orderToBig(&s).Cmp(want) != 0 {
			t.Fatalf("%x mod n = %x, want %x", x, orderToBig(&s), want)
		}
	}
}

// FuzzOrderArithmetic compares inversion, products and quotients with
// math/big on any two 32-byte values (taken mod n, 0 as 1).
func FuzzOrderArithmetic(f *testing.F) {
	f.Add(make([]byte, 32), make([]byte, 32))
	f.Add(p256N.Bytes(), new(big.Int).Sub(p256N, big.NewInt(1)).Bytes())
	f.Add([]byte{1}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, x, y []byte) {
		if len(x) > 32 || len(y) > 32 {
			return
		}
		a := new(big.Int).SetBytes(x)
		b := new(big.Int).SetBytes(y)
		a.Mod(a, p256N)
		b.Mod(b, p256N)
		if a.Sign() == 0 {
			a.SetInt64(1)
		}
		if b.Sign() == 0 {
			b.SetInt64(1)
		}
		checkOrderOps(t, a, b)
	})
}

func BenchmarkOrderInvert(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := make([]orderScalar, 64)
	for i := range xs {
		xs[i] = bigToOrder(b, randOrder(rng))
	}
	b.ReportAllocs()
	var s orderScalar
	i := 0
	for b.Loop() {
		s.invert(&xs[i%len(xs)])
		i++
	}
}

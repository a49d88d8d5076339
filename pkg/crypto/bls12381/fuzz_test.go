package bls12381

import (
	"bytes"
	"testing"
)

// FuzzDeserialize checks that Deserialize never panics, that every accepted
// encoding is canonical (serializes back to the same bytes), and that the
// operations on accepted values do not panic.
func FuzzDeserialize(f *testing.F) {
	v := loadVectors(f)
	for _, s := range []string{v.G1, v.G2, v.GT, v.NotG1, v.NotG2, v.G2Other} {
		f.Add(unhex(f, s))
	}
	f.Add([]byte{})
	f.Add(make([]byte, G1Size))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Deserialize(data)
		if err != nil {
			if p != nil {
				t.Fatal("value with error")
			}
			return
		}
		if !bytes.Equal(p.Bytes(), data) {
			t.Fatalf("non-canonical encoding accepted: %x", data)
		}
		if _, err := Add(p, p); err != nil {
			t.Fatal(err)
		}
		if ok, err := Equal(p, p); err != nil || !ok {
			t.Fatal("not equal to itself")
		}
	})
}

// FuzzMul checks Mul on fuzzed scalars over the three groups.
func FuzzMul(f *testing.F) {
	v := loadVectors(f)
	for _, m := range v.MulCompat {
		f.Add(uint8(0), unhex(f, m.Mul), m.Neg)
	}
	f.Add(uint8(1), make([]byte, 32), true)
	f.Add(uint8(2), bytes.Repeat([]byte{0xff}, 32), false)
	f.Add(uint8(0), []byte{1}, false)
	g1 := mustPoint(f, v.G1)
	g2 := mustPoint(f, v.G2)
	gt := mustPoint(f, v.GT)
	f.Fuzz(func(t *testing.T, which uint8, mul []byte, neg bool) {
		p := []*Point{g1, g2, gt}[int(which)%3]
		r, err := Mul(p, mul, neg)
		if err != nil {
			return
		}
		// a·s + a·(−s) is the identity.
		q, err := Mul(p, mul, !neg)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Add(r, q)
		if err != nil {
			t.Fatal(err)
		}
		zero, err := Mul(p, make([]byte, 32), false)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(sum.Bytes(), zero.Bytes()) {
			t.Fatalf("s + (-s) != 0 for %x", mul)
		}
	})
}

package bigint

import (
	"bytes"
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"testing"
)

// refBytes is a slow, obviously correct encoder used to check the fast one.
func refBytes(x *big.Int) []byte {
	if x.Sign() == 0 {
		return []byte{}
	}
	for n := 1; ; n++ {
		mod := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
		half := new(big.Int).Rsh(mod, 1)
		// x must be in [-half, half).
		if x.Cmp(half) < 0 && x.Cmp(new(big.Int).Neg(half)) >= 0 {
			v := new(big.Int).Set(x)
			if v.Sign() < 0 {
				v.Add(v, mod)
			}
			be := v.FillBytes(make([]byte, n))
			for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
				be[i], be[j] = be[j], be[i]
			}
			return be
		}
	}
}

func TestVectors(t *testing.T) {
	cases := []struct {
		dec, hex string
	}{
		{"0", ""},
		{"1", "01"},
		{"-1", "ff"},
		{"127", "7f"},
		{"128", "8000"},
		{"-128", "80"},
		{"-129", "7fff"},
		{"255", "ff00"},
		{"256", "0001"},
		{"65535", "ffff00"},
		{"-65536", "0000ff"},
		{"9223372036854775807", "ffffffffffffff7f"},
		{"9223372036854775808", "000000000000008000"},
		{"-9223372036854775808", "0000000000000080"},
		{"-9223372036854775809", "ffffffffffffff7fff"},
		{"57896044618658097711785492504343953926634992332820282019728792003956564819967", "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"},
		{"-57896044618658097711785492504343953926634992332820282019728792003956564819968", "0000000000000000000000000000000000000000000000000000000000000080"},
	}
	for _, c := range cases {
		x, _ := new(big.Int).SetString(c.dec, 10)
		got := hex.EncodeToString(ToBytes(x))
		if got != c.hex {
			t.Errorf("ToBytes(%s) = %s, want %s", c.dec, got, c.hex)
		}
		b, _ := hex.DecodeString(c.hex)
		if y := FromBytes(b); y.Cmp(x) != 0 {
			t.Errorf("FromBytes(%s) = %s, want %s", c.hex, y, c.dec)
		}
		if Len(x) != len(b) {
			t.Errorf("Len(%s) = %d, want %d", c.dec, Len(x), len(b))
		}
		if x.IsInt64() {
			v, ok := Int64FromBytes(b)
			if !ok || v != x.Int64() {
				t.Errorf("Int64FromBytes(%s) = %d %v", c.hex, v, ok)
			}
			if Int64Len(x.Int64()) != len(b) {
				t.Errorf("Int64Len(%s) = %d", c.dec, Int64Len(x.Int64()))
			}
		} else if _, ok := Int64FromBytes(b); ok {
			t.Errorf("Int64FromBytes(%s) fits, must not", c.hex)
		}
	}
	if got := ToBytesCSharp(new(big.Int)); !bytes.Equal(got, []byte{0}) {
		t.Errorf("ToBytesCSharp(0) = %x", got)
	}
}

func TestNonMinimal(t *testing.T) {
	for _, c := range []struct {
		hex string
		v   int64
	}{{"0100", 1}, {"ffff", -1}, {"00", 0}, {"0000000000000000000000", 0}, {"ffffffffffffffffffff", -1}, {"01000000000000000000", 1}} {
		b, _ := hex.DecodeString(c.hex)
		if v, ok := Int64FromBytes(b); !ok || v != c.v {
			t.Errorf("Int64FromBytes(%s) = %d %v, want %d", c.hex, v, ok, c.v)
		}
		if x := FromBytes(b); x.Int64() != c.v || !x.IsInt64() {
			t.Errorf("FromBytes(%s) = %s", c.hex, x)
		}
	}
}

func TestRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		n := r.IntN(40) + 1
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		x := FromBytes(b)
		enc := ToBytes(x)
		if want := refBytes(x); !bytes.Equal(enc, want) {
			t.Fatalf("ToBytes(%s) = %x, want %x", x, enc, want)
		}
		if Len(x) != len(enc) {
			t.Fatalf("Len(%s) = %d, want %d", x, Len(x), len(enc))
		}
		if y := FromBytes(enc); y.Cmp(x) != 0 {
			t.Fatalf("round trip %x -> %s -> %x -> %s", b, x, enc, y)
		}
		if v, ok := Int64FromBytes(b); ok != x.IsInt64() || (ok && v != x.Int64()) {
			t.Fatalf("Int64FromBytes(%x) = %d %v, big %s", b, v, ok, x)
		}
		v := int64(r.Uint64()) >> r.IntN(64)
		if got, want := AppendInt64(nil, v), refBytes(big.NewInt(v)); !bytes.Equal(got, want) {
			t.Fatalf("AppendInt64(%d) = %x, want %x", v, got, want)
		}
	}
}

func FuzzFromBytes(f *testing.F) {
	for _, s := range []string{"", "00", "80", "ff", "7fff", "000000000000008000", "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		x := FromBytes(b)
		enc := ToBytes(x)
		if y := FromBytes(enc); y.Cmp(x) != 0 {
			t.Fatalf("round trip %x -> %s -> %x -> %s", b, x, enc, y)
		}
		if len(enc) > len(b) {
			t.Fatalf("minimal encoding %x longer than input %x", enc, b)
		}
		if v, ok := Int64FromBytes(b); ok != x.IsInt64() || (ok && v != x.Int64()) {
			t.Fatalf("Int64FromBytes(%x) = %d %v, big %s", b, v, ok, x)
		}
	})
}

func BenchmarkToBytes(b *testing.B) {
	small := big.NewInt(123456789)
	large, _ := new(big.Int).SetString("-57896044618658097711785492504343953926634992332820282019728792003956564819968", 10)
	buf := make([]byte, 0, 64)
	b.Run("int64", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = AppendInt64(buf[:0], 123456789)
		}
	})
	b.Run("big-small", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = Append(buf[:0], small)
		}
	})
	b.Run("big-256", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = Append(buf[:0], large)
		}
	})
}

func BenchmarkFromBytes(b *testing.B) {
	small := ToBytes(big.NewInt(123456789))
	large := bytes.Repeat([]byte{0x81}, 32)
	var z big.Int
	b.Run("int64", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = Int64FromBytes(small)
		}
	})
	b.Run("big-256", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			SetBytes(&z, large)
		}
	})
}

package bls12381

import "testing"

func BenchmarkDeserialize(b *testing.B) {
	v := loadVectors(b)
	for _, bc := range []struct{ name, hex string }{{"G1", v.G1}, {"G2", v.G2}, {"GT", v.GT}} {
		data := unhex(b, bc.hex)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Deserialize(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSerialize(b *testing.B) {
	v := loadVectors(b)
	one := make([]byte, 32)
	one[0] = 1
	g1p, _ := Mul(mustPoint(b, v.G1), one, false)
	for _, bc := range []struct {
		name string
		p    *Point
	}{{"G1Affine", mustPoint(b, v.G1)}, {"G1Projective", g1p}, {"G2Affine", mustPoint(b, v.G2)}, {"GT", mustPoint(b, v.GT)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = bc.p.Bytes()
			}
		})
	}
}

func BenchmarkAdd(b *testing.B) {
	v := loadVectors(b)
	for _, bc := range []struct{ name, hex string }{{"G1", v.G1}, {"G2", v.G2}, {"GT", v.GT}} {
		p := mustPoint(b, bc.hex)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Add(p, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMul(b *testing.B) {
	v := loadVectors(b)
	mul := unhex(b, v.MulCompat[0].Mul)
	for _, bc := range []struct{ name, hex string }{{"G1", v.G1}, {"G2", v.G2}, {"GT", v.GT}} {
		p := mustPoint(b, bc.hex)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Mul(p, mul, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPairing(b *testing.B) {
	v := loadVectors(b)
	g1, g2 := mustPoint(b, v.G1), mustPoint(b, v.G2)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Pairing(g1, g2); err != nil {
			b.Fatal(err)
		}
	}
}

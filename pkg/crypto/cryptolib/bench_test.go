package cryptolib

import "testing"

func BenchmarkVerifyWithECDsa(b *testing.B) {
	msg := make([]byte, 100) // about the size of a transaction's sign data
	for _, c := range []NamedCurveHash{Secp256r1SHA256, Secp256r1Keccak256, Secp256k1SHA256, Secp256k1Keccak256} {
		sig := sign(b, msg, c)
		pub := pubFor(b, c, true)
		b.Run(c.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ok, err := VerifyWithECDsaV2(msg, pub, sig, c); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}
		})
	}
}

func BenchmarkKeccak256(b *testing.B) {
	data := make([]byte, 100)
	b.ReportAllocs()
	for b.Loop() {
		_ = Keccak256(data)
	}
}

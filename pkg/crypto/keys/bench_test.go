package keys_test

import (
	"crypto/ecdsa"
	"crypto/sha256"
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"

	"github.com/n3node/n3node/pkg/crypto/keys"
)

func benchKey(b *testing.B) (*keys.PrivateKey, []byte, []byte) {
	k, err := keys.NewPrivateKeyFromHex("7d128a6d096f0c14c3a25a2b0c41cf79661bfcb4a8cc95aaaea28bde4d732344")
	if err != nil {
		b.Fatal(err)
	}
	d := sha256.Sum256([]byte("benchmark message"))
	return k, d[:], k.SignHash(d[:])
}

func BenchmarkVerifySecp256r1(b *testing.B) {
	k, d, sig := benchKey(b)
	pub := k.PublicKey()
	b.ReportAllocs()
	for b.Loop() {
		if !pub.Verify(sig, d) {
			b.Fatal("verify failed")
		}
	}
}

// BenchmarkVerifySecp256r1BigInt is the alternative path through
// ecdsa.Verify with big.Int r and s, kept for comparison.
func BenchmarkVerifySecp256r1BigInt(b *testing.B) {
	k, d, sig := benchKey(b)
	pub := k.PublicKey().ECDSA()
	b.ReportAllocs()
	for b.Loop() {
		r := new(big.Int).SetBytes(sig[:32])
		s := new(big.Int).SetBytes(sig[32:])
		if !ecdsa.Verify(pub, d, r, s) {
			b.Fatal("verify failed")
		}
	}
}

// BenchmarkVerifySecp256r1FromScriptKey includes the cached key lookup a
// witness check does for a 33-byte key taken from a verification script.
func BenchmarkVerifySecp256r1FromScriptKey(b *testing.B) {
	k, d, sig := benchKey(b)
	c := k.PublicKey().Compressed()
	b.ReportAllocs()
	for b.Loop() {
		pub, err := keys.DecodeCompressed(&c)
		if err != nil || !pub.Verify(sig, d) {
			b.Fatal("verify failed")
		}
	}
}

func BenchmarkSignSecp256r1(b *testing.B) {
	k, d, _ := benchKey(b)
	b.ReportAllocs()
	for b.Loop() {
		k.SignHash(d)
	}
}

func BenchmarkPublicKeyDecode(b *testing.B) {
	k, _, _ := benchKey(b)
	c := k.PublicKey().Compressed()
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := keys.DecodeCompressed(&c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := keys.DecodeCompressedNoCache(&c); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkVerifySecp256k1(b *testing.B) {
	priv, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		b.Fatal(err)
	}
	d := sha256.Sum256([]byte("benchmark message"))
	sig := k1ecdsa.SignCompact(priv, d[:], true)[1:]
	pub, err := keys.NewSecp256k1PublicKey(priv.PubKey().SerializeCompressed())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !pub.Verify(sig, d[:]) {
			b.Fatal("verify failed")
		}
	}
}

package hash_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
)

const benchUint256 = "0x5f3fbb43d1e516fe07771e2e873ebc9e2810662401acf603a775aace486220bd"

func BenchmarkUint256DecodeStringLE(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hash.Uint256DecodeStringLE(benchUint256[2:]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUint256StringLE(b *testing.B) {
	u, _ := hash.Uint256DecodeStringLE(benchUint256)
	b.ReportAllocs()
	for b.Loop() {
		_ = u.StringLE()
	}
}

func BenchmarkUint256MarshalJSON(b *testing.B) {
	u, _ := hash.Uint256DecodeStringLE(benchUint256)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := u.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

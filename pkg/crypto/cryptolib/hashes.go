package cryptolib

import (
	"golang.org/x/crypto/sha3"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/murmur"
)

// Sha256 is CryptoLib.sha256.
func Sha256(data []byte) [32]byte { return hash.Sha256(data) }

// Ripemd160 is CryptoLib.ripemd160.
func Ripemd160(data []byte) [20]byte { return hash.RipeMD160(data) }

// Keccak256 is CryptoLib.keccak256 (Cockatrice): the original Keccak-256
// (legacy padding, as Ethereum), not SHA3-256.
func Keccak256(data []byte) [32]byte {
	var out [32]byte
	h := sha3.NewLegacyKeccak256()
	h.Write(data)
	h.Sum(out[:0])
	return out
}

// Murmur32 is CryptoLib.murmur32: MurmurHash3_x86_32 as 4 little-endian
// bytes. The wrapper converts the seed argument to uint32 (C# throws
// outside [0, 2³²−1]).
func Murmur32(data []byte, seed uint32) [4]byte { return murmur.Sum32(data, seed) }

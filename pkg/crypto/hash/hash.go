package hash

import (
	"crypto/sha256"

	"github.com/decred/dcrd/crypto/ripemd160"
)

// Sha256 returns the SHA-256 digest of data.
func Sha256(data []byte) Uint256 {
	return sha256.Sum256(data)
}

// Hash256 returns SHA-256(SHA-256(data)).
func Hash256(data []byte) Uint256 {
	h := sha256.Sum256(data)
	return sha256.Sum256(h[:])
}

// RipeMD160 returns the RIPEMD-160 digest of data.
func RipeMD160(data []byte) Uint160 {
	h := ripemd160.New()
	h.Write(data)
	var u Uint160
	h.Sum(u[:0])
	return u
}

// Hash160 returns RIPEMD-160(SHA-256(data)), the script hash of a script.
func Hash160(data []byte) Uint160 {
	h := sha256.Sum256(data)
	return RipeMD160(h[:])
}

// Checksum returns the first four bytes of Hash256(data), as used by
// Base58Check and NEF files.
func Checksum(data []byte) [4]byte {
	h := Hash256(data)
	return [4]byte(h[:4])
}

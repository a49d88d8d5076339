package bintrie

import "crypto/sha256"

// HashSize is the size of a node hash, a key and a value.
const HashSize = 32

// Hash is a node hash or tree root (the raw digest bytes).
type Hash [HashSize]byte

// IsZero reports whether h is all zeros (the empty tree's root).
func (h Hash) IsZero() bool { return h == Hash{} }

// Hasher is the tree's hash function H. The EIP has not settled on one
// (SHA-256 in go-ethereum, BLAKE3 as the EIP's placeholder), so the tree and
// the key derivation take it as a parameter. H is only ever applied to 32-
// or 64-byte inputs; arguments are passed by value so that callers' scratch
// arrays never escape through the interface call.
//
// The zero rule (hash of 64 zero bytes is 32 zero bytes) is applied by the
// tree, not by the Hasher.
type Hasher interface {
	Hash32(in [32]byte) Hash
	Hash64(in [64]byte) Hash
}

// SHA256 is the hash function go-ethereum v1.17.10 uses, and the default.
var SHA256 Hasher = sha256Hasher{}

type sha256Hasher struct{}

func (sha256Hasher) Hash32(in [32]byte) Hash { return sha256.Sum256(in[:]) }
func (sha256Hasher) Hash64(in [64]byte) Hash { return sha256.Sum256(in[:]) }

// hashFn wraps a Hasher with a direct (devirtualized) path for SHA-256, the
// case that matters for speed.
type hashFn struct {
	h     Hasher
	isSHA bool
}

func newHashFn(h Hasher) hashFn {
	if h == nil {
		h = SHA256
	}
	_, isSHA := h.(sha256Hasher)
	return hashFn{h: h, isSHA: isSHA}
}

func (f hashFn) sum32(in *[32]byte) Hash {
	if f.isSHA {
		return sha256.Sum256(in[:])
	}
	return f.h.Hash32(*in)
}

func (f hashFn) sum64(in *[64]byte) Hash {
	if f.isSHA {
		return sha256.Sum256(in[:])
	}
	return f.h.Hash64(*in)
}

// pair hashes l||r.
func (f hashFn) pair(l, r *Hash) Hash {
	var buf [64]byte
	copy(buf[:32], l[:])
	copy(buf[32:], r[:])
	return f.sum64(&buf)
}

package keys

import (
	"fmt"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Secp256k1PublicKey is a parsed secp256k1 public key.
type Secp256k1PublicKey struct {
	k *secp256k1.PublicKey
}

// NewSecp256k1PublicKey parses a 33-byte compressed or 65-byte
// uncompressed secp256k1 key.
func NewSecp256k1PublicKey(b []byte) (*Secp256k1PublicKey, error) {
	k, err := secp256k1.ParsePubKey(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	return &Secp256k1PublicKey{k: k}, nil
}

// Bytes returns the compressed encoding.
func (p *Secp256k1PublicKey) Bytes() []byte { return p.k.SerializeCompressed() }

// Verify reports whether sig (64-byte r‖s, r and s in [1, n-1]) is a valid
// signature of digest. High-S signatures are accepted.
func (p *Secp256k1PublicKey) Verify(sig, digest []byte) bool {
	if len(sig) != SignatureLen {
		return false
	}
	var r, s secp256k1.ModNScalar
	if r.SetByteSlice(sig[:32]) || s.SetByteSlice(sig[32:]) || r.IsZero() || s.IsZero() {
		return false
	}
	return k1ecdsa.NewSignature(&r, &s).Verify(digest, p.k)
}

// VerifySecp256k1 parses key and verifies sig over digest.
func VerifySecp256k1(key, sig, digest []byte) bool {
	p, err := NewSecp256k1PublicKey(key)
	if err != nil {
		return false
	}
	return p.Verify(sig, digest)
}

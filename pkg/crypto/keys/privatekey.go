package keys

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
)

// PrivateKeySize is the size of a raw private key.
const PrivateKeySize = 32

// ErrInvalidPrivateKey is wrapped by private key decoding errors.
var ErrInvalidPrivateKey = errors.New("invalid private key")

// PrivateKey is a secp256r1 private key.
type PrivateKey struct {
	ec  *ecdsa.PrivateKey
	pub *PublicKey
}

// NewPrivateKey generates a random key from the system CSPRNG.
func NewPrivateKey() (*PrivateKey, error) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return wrapPrivate(ec)
}

func wrapPrivate(ec *ecdsa.PrivateKey) (*PrivateKey, error) {
	pub, err := NewPublicKeyFromECDSA(&ec.PublicKey)
	if err != nil {
		return nil, err
	}
	return &PrivateKey{ec: ec, pub: pub}, nil
}

// NewPrivateKeyFromBytes takes a 32-byte big-endian scalar in [1, n-1].
func NewPrivateKeyFromBytes(b []byte) (*PrivateKey, error) {
	if len(b) != PrivateKeySize {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrInvalidPrivateKey, len(b), PrivateKeySize)
	}
	ec, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPrivateKey, err)
	}
	return wrapPrivate(ec)
}

// NewPrivateKeyFromHex takes the hex form of NewPrivateKeyFromBytes.
func NewPrivateKeyFromHex(s string) (*PrivateKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPrivateKey, err)
	}
	defer clear(b)
	return NewPrivateKeyFromBytes(b)
}

// Bytes returns the 32-byte scalar in a fresh slice.
func (k *PrivateKey) Bytes() []byte {
	b, err := k.ec.Bytes()
	if err != nil {
		return nil
	}
	return b
}

// PublicKey returns the public key (shared, do not modify).
func (k *PrivateKey) PublicKey() *PublicKey { return k.pub }

// ECDSA returns the underlying key.
func (k *PrivateKey) ECDSA() *ecdsa.PrivateKey { return k.ec }

// ScriptHash returns the script hash of the key's verification script.
func (k *PrivateKey) ScriptHash() hash.Uint160 { return k.pub.ScriptHash() }

// Address returns the N3 address of the key.
func (k *PrivateKey) Address() string { return address.FromUint160(k.pub.ScriptHash()) }

// SignHash signs a 32-byte digest deterministically (RFC 6979) and returns
// the 64-byte r‖s signature.
func (k *PrivateKey) SignHash(digest []byte) []byte {
	der, err := k.ec.Sign(nil, digest, crypto.SHA256)
	if err != nil {
		return nil
	}
	sig, ok := derToRS(der)
	if !ok {
		return nil
	}
	return sig
}

// Sign signs SHA-256(msg), the counterpart of PublicKey.VerifyMessage.
func (k *PrivateKey) Sign(msg []byte) []byte {
	d := sha256.Sum256(msg)
	return k.SignHash(d[:])
}

// WIF returns the Wallet Import Format encoding (version 0x80, compressed).
func (k *PrivateKey) WIF() string {
	b := k.Bytes()
	defer clear(b)
	s, _ := WIFEncode(b, WIFVersion, true)
	return s
}

// Destroy zeroes the copy of the scalar this package can reach. The
// crypto/ecdsa internals keep their own copy, so this is best effort.
func (k *PrivateKey) Destroy() {
	if k.ec != nil && k.ec.D != nil {
		k.ec.D.SetInt64(0)
	}
}

package keys

import (
	"crypto/sha512"
	"errors"
	"fmt"

	"filippo.io/edwards25519"
)

// Ed25519 sizes (C# Neo.Cryptography.Ed25519).
const (
	// Ed25519PublicKeySize is Ed25519.PublicKeySize.
	Ed25519PublicKeySize = 32
	// Ed25519SignatureSize is Ed25519.SignatureSize.
	Ed25519SignatureSize = 64
)

// Ed25519 errors. CryptoLib.verifyWithEd25519 before Gorgon turns both into
// false; from Gorgon on both fault the VM.
var (
	// ErrEd25519Length is returned for a public key that is not 32 bytes or
	// a signature that is not 64 bytes (C# FormatException at Gorgon).
	ErrEd25519Length = errors.New("ed25519: invalid key or signature length")
	// ErrEd25519PublicKey is returned for a 32-byte public key that
	// BouncyCastle refuses to load (ArgumentException "invalid public key"
	// from Ed25519PublicKeyParameters).
	ErrEd25519PublicKey = errors.New("ed25519: invalid public key")
)

// Little-endian encodings (sign bit cleared) of the y coordinates of the
// two order-8 point pairs, as BouncyCastle's Order8_y1/Order8_y2.
var (
	ed25519Order8Y1 = [32]byte{
		0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
		0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a,
	}
	ed25519Order8Y2 = [32]byte{
		0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
		0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05,
	}
)

// ed25519Y returns the encoded y (sign bit cleared) and whether y ≥ limit,
// where limit is p−1 (BouncyCastle CheckPointFullVar) if pMinusOne is set
// and p (CheckPointVar) otherwise. p = 2²⁵⁵−19.
func ed25519Y(enc []byte, pMinusOne bool) (y [32]byte, tooBig bool) {
	copy(y[:], enc)
	y[31] &= 0x7f
	low := byte(0xed) // p = 0x7fff…ffed
	if pMinusOne {
		low = 0xec
	}
	if y[31] != 0x7f || y[0] < low {
		return y, false
	}
	for _, b := range y[1:31] {
		if b != 0xff {
			return y, false
		}
	}
	return y, true
}

// ParseEd25519PublicKey decodes a public key exactly as BouncyCastle 2.6
// Ed25519PublicKeyParameters does (ValidatePublicKeyPartialExport): the
// encoding must be canonical (y < p), must decode to a curve point, and
// must not be one of the eight small-order points (y ∈ {0, 1, p−1} or an
// order-8 y). Points with a small-order component ("mixed order") are
// accepted.
func ParseEd25519PublicKey(pub []byte) (*edwards25519.Point, error) {
	if len(pub) != Ed25519PublicKeySize {
		return nil, &wordedError{sentinel: ErrEd25519Length,
			text: fmt.Sprintf("invalid pubkey length: expected %d, got %d", Ed25519PublicKeySize, len(pub))}
	}
	y, tooBig := ed25519Y(pub, true)
	if tooBig {
		return nil, fmt.Errorf("%w: y not below p-1", ErrEd25519PublicKey)
	}
	var zero, one [32]byte
	one[0] = 1
	if y == zero || y == one || y == ed25519Order8Y1 || y == ed25519Order8Y2 {
		return nil, fmt.Errorf("%w: small-order point", ErrEd25519PublicKey)
	}
	a, err := new(edwards25519.Point).SetBytes(pub)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEd25519PublicKey, err)
	}
	return a, nil
}

// VerifyEd25519 verifies an Ed25519 (RFC 8032, pure) signature of msg the
// way BouncyCastle 2.6 Ed25519Signer does, as the C# node uses it:
//
//   - the key is parsed by ParseEd25519PublicKey (errors are returned);
//   - R (first half of sig) must be canonical (y < p) and decode to a
//     point, with no "negative zero" x; small-order R is allowed;
//   - S (second half) must be below the group order L;
//   - the check is cofactored: [8](S·B − k·A − R) = O with
//     k = SHA-512(R ‖ A ‖ msg) mod L.
//
// This differs from crypto/ed25519 (used by neo-go), which accepts
// small-order and non-canonical keys and checks the cofactorless equation
// (encode(S·B − k·A) == R). Wrong lengths give ErrEd25519Length (with
// neo-go's texts, the FAULT texts of verifyWithEd25519).
func VerifyEd25519(pub, msg, sig []byte) (bool, error) {
	if len(sig) != Ed25519SignatureSize {
		return false, &wordedError{sentinel: ErrEd25519Length,
			text: fmt.Sprintf("invalid signature length: expected %d, got %d", Ed25519SignatureSize, len(sig))}
	}
	a, err := ParseEd25519PublicKey(pub)
	if err != nil {
		return false, err
	}
	return verifyEd25519(a, pub, msg, sig), nil
}

func verifyEd25519(a *edwards25519.Point, pub, msg, sig []byte) bool {
	rEnc := sig[:32]
	ry, tooBig := ed25519Y(rEnc, false)
	if tooBig {
		return false
	}
	s, err := edwards25519.NewScalar().SetCanonicalBytes(sig[32:])
	if err != nil {
		return false
	}
	r, err := new(edwards25519.Point).SetBytes(rEnc)
	if err != nil {
		return false
	}
	// x = 0 only for y = ±1; a set sign bit is then invalid (BouncyCastle
	// DecodePointVar), which edwards25519 would accept.
	if rEnc[31]&0x80 != 0 {
		var one [32]byte
		one[0] = 1
		if _, isPm1 := ed25519Y(rEnc, true); ry == one || isPm1 {
			return false
		}
	}
	h := sha512.New()
	h.Write(rEnc)
	h.Write(pub)
	h.Write(msg)
	var digest [64]byte
	k, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(digest[:0]))
	if err != nil {
		return false
	}
	minusA := new(edwards25519.Point).Negate(a)
	check := new(edwards25519.Point).VarTimeDoubleScalarBaseMult(k, minusA, s)
	check.Subtract(check, r)
	check.MultByCofactor(check)
	return check.Equal(edwards25519.NewIdentityPoint()) == 1
}

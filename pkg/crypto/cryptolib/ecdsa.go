package cryptolib

import (
	"bytes"
	"crypto/elliptic"
	"errors"
	"fmt"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/n3node/n3node/pkg/crypto/keys"
)

// NamedCurveHash is the C# NamedCurveHash enum: a curve and a message hash.
// Before Cockatrice the same argument was a plain curve id and only the
// two SHA-256 values were accepted.
type NamedCurveHash byte

// The C# NamedCurveHash values.
const (
	Secp256k1SHA256    NamedCurveHash = 22
	Secp256r1SHA256    NamedCurveHash = 23
	Secp256k1Keccak256 NamedCurveHash = 122
	Secp256r1Keccak256 NamedCurveHash = 123
)

// String returns the C# enum member name.
func (c NamedCurveHash) String() string {
	switch c {
	case Secp256k1SHA256:
		return "secp256k1SHA256"
	case Secp256r1SHA256:
		return "secp256r1SHA256"
	case Secp256k1Keccak256:
		return "secp256k1Keccak256"
	case Secp256r1Keccak256:
		return "secp256r1Keccak256"
	default:
		return fmt.Sprintf("NamedCurveHash(%d)", byte(c))
	}
}

func (c NamedCurveHash) valid() bool {
	return c == Secp256k1SHA256 || c == Secp256r1SHA256 || c == Secp256k1Keccak256 || c == Secp256r1Keccak256
}

func (c NamedCurveHash) koblitz() bool { return c == Secp256k1SHA256 || c == Secp256k1Keccak256 }
func (c NamedCurveHash) keccak() bool  { return c == Secp256k1Keccak256 || c == Secp256r1Keccak256 }

// Errors of VerifyECDsa, one per C# exception class that matters for the
// hardfork rules (see VerifyWithECDsaV0/V1/V2).
var (
	// ErrUnsupportedCurve: a curve/hash value the variant does not know
	// (ArgumentOutOfRange, KeyNotFound or NotSupported in C#).
	ErrUnsupportedCurve = errors.New("cryptolib: unsupported curve/hash")
	// ErrKeyFormat: empty key, unknown prefix or wrong length for the
	// prefix (IndexOutOfRangeException / FormatException from
	// ECPoint.DecodePoint).
	ErrKeyFormat = errors.New("cryptolib: bad public key encoding")
	// ErrKeyNoSquareRoot: a compressed key whose x has no curve point
	// (ArithmeticException from ECPoint.DecompressPoint).
	ErrKeyNoSquareRoot = errors.New("cryptolib: compressed public key is not on the curve")
	// ErrKeyCoordinate: a coordinate not below the field prime
	// (ArgumentException from ECFieldElement).
	ErrKeyCoordinate = errors.New("cryptolib: public key coordinate not below p")
	// ErrSignatureLength: a signature that is not 64 bytes.
	ErrSignatureLength = errors.New("cryptolib: signature is not 64 bytes")
	// ErrKeyOffCurve: an uncompressed key whose point is not on the curve
	// (detected only when the key is loaded for verification, after the
	// signature length check; CryptographicException from .NET ECDsa, or
	// ArgumentException from BouncyCastle or from Crypto.CreateECDsa).
	ErrKeyOffCurve = errors.New("cryptolib: public key is not on the curve")
)

// Field primes, big-endian.
var (
	k1P = func() (p [32]byte) {
		secp256k1.S256().P.FillBytes(p[:])
		return
	}()
	r1P = func() (p [32]byte) {
		elliptic.P256().Params().P.FillBytes(p[:])
		return
	}()
)

// ecdsaKey is a decoded public key of either curve: exactly one field is
// set, or neither for an off-curve uncompressed key.
type ecdsaKey struct {
	r1 *keys.PublicKey
	k1 *keys.Secp256k1PublicKey
}

// decodeKey decodes pubkey as C# ECPoint.DecodePoint(pubkey, curve) and
// classifies failures; an uncompressed off-curve key decodes (as in C#)
// with no verifier.
func decodeKey(pubkey []byte, koblitz bool) (ecdsaKey, error) {
	if len(pubkey) == 0 {
		return ecdsaKey{}, fmt.Errorf("%w: empty", ErrKeyFormat)
	}
	switch pubkey[0] {
	case 0x02, 0x03:
		if len(pubkey) != keys.CompressedSize {
			return ecdsaKey{}, fmt.Errorf("%w: compressed key of %d bytes", ErrKeyFormat, len(pubkey))
		}
	case 0x04:
		if len(pubkey) != keys.UncompressedSize {
			return ecdsaKey{}, fmt.Errorf("%w: uncompressed key of %d bytes", ErrKeyFormat, len(pubkey))
		}
	default:
		return ecdsaKey{}, fmt.Errorf("%w: prefix 0x%02x", ErrKeyFormat, pubkey[0])
	}
	if koblitz {
		for i := 1; i < len(pubkey); i += 32 {
			if bytes.Compare(pubkey[i:i+32], k1P[:]) >= 0 {
				return ecdsaKey{}, ErrKeyCoordinate
			}
		}
		k, err := keys.NewSecp256k1PublicKey(pubkey)
		if err != nil {
			if pubkey[0] == 0x04 {
				return ecdsaKey{}, nil // off-curve, reported later
			}
			return ecdsaKey{}, fmt.Errorf("%w: %w", ErrKeyNoSquareRoot, err)
		}
		return ecdsaKey{k1: k}, nil
	}
	for i := 1; i < len(pubkey); i += 32 {
		if bytes.Compare(pubkey[i:i+32], r1P[:]) >= 0 {
			return ecdsaKey{}, ErrKeyCoordinate
		}
	}
	k, err := keys.NewPublicKeyFromBytes(pubkey)
	if err != nil {
		return ecdsaKey{}, fmt.Errorf("%w: %w", ErrKeyNoSquareRoot, err)
	}
	if !k.IsOnCurve() {
		return ecdsaKey{}, nil
	}
	return ecdsaKey{r1: k}, nil
}

// VerifyECDsa is the raw predicate behind every verifyWithECDsa variant:
// it hashes message with SHA-256 or Keccak-256 as curveHash says and
// verifies the 64-byte r‖s signature with the key on that curve (r and s
// must be in [1, n−1]; high S is accepted). Failures are reported in the
// order the C# code meets them: unknown curveHash, then the key decoding
// errors, then ErrSignatureLength, then ErrKeyOffCurve.
func VerifyECDsa(message, pubkey, signature []byte, curveHash NamedCurveHash) (bool, error) {
	if !curveHash.valid() {
		return false, fmt.Errorf("%w: %s", ErrUnsupportedCurve, curveHash)
	}
	k, err := decodeKey(pubkey, curveHash.koblitz())
	if err != nil {
		return false, err
	}
	if len(signature) != keys.SignatureLen {
		return false, fmt.Errorf("%w: %d bytes", ErrSignatureLength, len(signature))
	}
	if k.r1 == nil && k.k1 == nil {
		return false, ErrKeyOffCurve
	}
	var digest [32]byte
	if curveHash.keccak() {
		digest = Keccak256(message)
	} else {
		digest = Sha256(message)
	}
	if k.k1 != nil {
		return k.k1.Verify(signature, digest[:]), nil
	}
	return k.r1.Verify(signature, digest[:]), nil
}

// VerifyWithECDsaV0 is verifyWithECDsa before Cockatrice (C#
// VerifyWithECDsaV0): only curve 22 and 23 (SHA-256); a
// coordinate ≥ p or a signature that is not 64 bytes gives false; an
// unknown curve, a malformed key, a compressed x off the curve, and an
// off-curve uncompressed key with a 64-byte signature fault.
func VerifyWithECDsaV0(message, pubkey, signature []byte, curve NamedCurveHash) (bool, error) {
	if curve != Secp256k1SHA256 && curve != Secp256r1SHA256 {
		return false, fmt.Errorf("%w: %s before Cockatrice", ErrUnsupportedCurve, curve)
	}
	ok, err := VerifyECDsa(message, pubkey, signature, curve)
	if errors.Is(err, ErrKeyCoordinate) || errors.Is(err, ErrSignatureLength) {
		return false, nil
	}
	return ok, err
}

// VerifyWithECDsaV1 is verifyWithECDsa from Cockatrice to Gorgon (C#
// VerifyWithECDsaV1): all four curve/hash values; like V0, except that an
// off-curve uncompressed key with a Keccak-256 curveHash gives false (that
// path loads the key with BouncyCastle, whose ArgumentException is
// caught).
func VerifyWithECDsaV1(message, pubkey, signature []byte, curveHash NamedCurveHash) (bool, error) {
	ok, err := VerifyECDsa(message, pubkey, signature, curveHash)
	switch {
	case errors.Is(err, ErrKeyCoordinate), errors.Is(err, ErrSignatureLength):
		return false, nil
	case errors.Is(err, ErrKeyOffCurve) && curveHash.keccak():
		return false, nil
	}
	return ok, err
}

// VerifyWithECDsaV2 is verifyWithECDsa from Gorgon (C# VerifyWithECDsaV2):
// every error of VerifyECDsa faults, including a signature that is not 64
// bytes and a coordinate ≥ p; only a well-formed key and signature give a
// boolean.
func VerifyWithECDsaV2(message, pubkey, signature []byte, curveHash NamedCurveHash) (bool, error) {
	return VerifyECDsa(message, pubkey, signature, curveHash)
}

package keys

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// Sizes accepted by RecoverSecp256k1.
const (
	// RecoverHashLen is the required message hash size.
	RecoverHashLen = 32
	// RecoverSignatureLen is the r‖s‖v signature size.
	RecoverSignatureLen = 65
	// RecoverCompactSignatureLen is the EIP-2098 r‖(yParity<<255 | s) size.
	RecoverCompactSignatureLen = 64
)

// ErrRecover is wrapped by every RecoverSecp256k1 error. CryptoLib's
// recoverSecp256K1 turns any such error into a Null result.
var ErrRecover = errors.New("secp256k1 recovery failed")

var (
	k1N = secp256k1.S256().N
	k1P = secp256k1.S256().P
)

// RecoverSecp256k1 recovers the secp256k1 public key from a signature of a
// 32-byte message hash, exactly as C# Crypto.ECRecover (behind
// CryptoLib.recoverSecp256K1, Echidna) does, and returns it compressed
// (33 bytes, fresh slice).
//
// The signature is either 65 bytes r‖s‖v, with v in {0,1,2,3} or
// {27,28,29,30} (recovery id v or v−27), or 64 bytes in EIP-2098 compact
// form r‖(yParity<<255 | s) (recovery id = yParity). With recovery id i:
// the point R has x = r + (i>>1)·n, which must be below p, and y of parity
// i&1; then Q = r⁻¹·(s·R − e·G) with e = the hash as an integer, all
// scalars reduced modulo n.
//
// Like the reference (and unlike strict ECDSA recovery such as decred's
// RecoverCompact, which neo-go uses) there is no range check on r and s
// beyond what the arithmetic needs: r may be in [n, p) for ids 0 and 1, s
// may be zero or ≥ n (reduced modulo n), and v 31..34 ("compressed" codes)
// are rejected. Failures: wrong lengths, recovery id above 3, r ≡ 0 mod n,
// x ≥ p, no curve point with that x, and Q at infinity.
func RecoverSecp256k1(messageHash, signature []byte) ([]byte, error) {
	if len(messageHash) != RecoverHashLen {
		return nil, fmt.Errorf("%w: message hash of %d bytes", ErrRecover, len(messageHash))
	}
	var (
		sBytes [32]byte
		recID  byte
	)
	switch len(signature) {
	case RecoverSignatureLen:
		copy(sBytes[:], signature[32:64])
		recID = signature[64]
		if recID >= 27 {
			recID -= 27
		}
		if recID > 3 {
			return nil, fmt.Errorf("%w: recovery value %d", ErrRecover, signature[64])
		}
	case RecoverCompactSignatureLen:
		copy(sBytes[:], signature[32:64])
		recID = sBytes[0] >> 7
		sBytes[0] &= 0x7f
	default:
		return nil, fmt.Errorf("%w: signature of %d bytes", ErrRecover, len(signature))
	}
	rBytes := signature[:32]

	// r⁻¹ mod n (C# BigInteger.ModInverse throws for r ≡ 0).
	var rInv secp256k1.ModNScalar
	rInv.SetByteSlice(rBytes)
	if rInv.IsZero() {
		return nil, fmt.Errorf("%w: r is zero modulo n", ErrRecover)
	}
	rInv.InverseNonConst()

	// R = (x, y) with x = r + (recID>>1)·n < p.
	var x, y secp256k1.FieldVal
	if recID>>1 == 0 {
		if x.SetByteSlice(rBytes) {
			return nil, fmt.Errorf("%w: x coordinate not below p", ErrRecover)
		}
	} else {
		xi := new(big.Int).SetBytes(rBytes)
		xi.Add(xi, k1N)
		if xi.Cmp(k1P) >= 0 {
			return nil, fmt.Errorf("%w: x coordinate not below p", ErrRecover)
		}
		var xb [32]byte
		x.SetByteSlice(xi.FillBytes(xb[:]))
	}
	if !secp256k1.DecompressY(&x, recID&1 == 1, &y) {
		return nil, fmt.Errorf("%w: R is not on the curve", ErrRecover)
	}
	var one secp256k1.FieldVal
	one.SetInt(1)
	R := secp256k1.MakeJacobianPoint(&x, &y, &one)

	// u1 = −e·r⁻¹, u2 = s·r⁻¹ (mod n); Q = u1·G + u2·R.
	var u1, u2 secp256k1.ModNScalar
	u1.SetByteSlice(messageHash)
	u1.Negate().Mul(&rInv)
	u2.SetByteSlice(sBytes[:])
	u2.Mul(&rInv)
	var a, b, q secp256k1.JacobianPoint
	secp256k1.ScalarBaseMultNonConst(&u1, &a)
	secp256k1.ScalarMultNonConst(&u2, &R, &b)
	secp256k1.AddNonConst(&a, &b, &q)
	if (q.X.IsZero() && q.Y.IsZero()) || q.Z.IsZero() {
		return nil, fmt.Errorf("%w: recovered point at infinity", ErrRecover)
	}
	q.ToAffine()
	return secp256k1.NewPublicKey(&q.X, &q.Y).SerializeCompressed(), nil
}

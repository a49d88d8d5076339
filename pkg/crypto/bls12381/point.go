package bls12381

import (
	"errors"
	"fmt"
	"math/big"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
)

// Encoded sizes accepted by Deserialize.
const (
	// G1Size is the size of a compressed G1 point.
	G1Size = bls.SizeOfG1AffineCompressed
	// G2Size is the size of a compressed G2 point.
	G2Size = bls.SizeOfG2AffineCompressed
	// GTSize is the size of a GT (Fp12) element.
	GTSize = bls.SizeOfGT
	// ScalarSize is the size of the little-endian scalar of Mul.
	ScalarSize = fr.Bytes
)

// Errors returned by the operations. Every error means the C# contract
// throws (the VM faults).
var (
	// ErrInvalidLength is returned by Deserialize for a length other than
	// 48, 96 or 576 bytes.
	ErrInvalidLength = errors.New("bls12381: invalid point length")
	// ErrInvalidPoint is wrapped by Deserialize errors for bad encodings,
	// points off the curve or outside the subgroup, and non-canonical
	// coordinates.
	ErrInvalidPoint = errors.New("bls12381: invalid point")
	// ErrTypeMismatch is returned when the operands' kinds do not fit the
	// operation (C# "BLS12-381 type mismatch"), including nil operands.
	ErrTypeMismatch = errors.New("bls12381: type mismatch")
	// ErrInvalidScalar is returned by Mul for a scalar that is not 32 bytes
	// or not below the group order.
	ErrInvalidScalar = errors.New("bls12381: invalid scalar")
)

// Kind is the C# type of a CryptoLib BLS12-381 value.
type Kind uint8

// The kinds, named after the C# types.
const (
	G1Affine Kind = iota + 1
	G1Projective
	G2Affine
	G2Projective
	GT
)

// String returns the C# type name.
func (k Kind) String() string {
	switch k {
	case G1Affine:
		return "G1Affine"
	case G1Projective:
		return "G1Projective"
	case G2Affine:
		return "G2Affine"
	case G2Projective:
		return "G2Projective"
	case GT:
		return "Gt"
	default:
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
}

// Point is an immutable CryptoLib BLS12-381 value. Exactly one of the
// fields matching kind is set.
type Point struct {
	kind Kind
	g1a  *bls.G1Affine
	g1j  *bls.G1Jac
	g2a  *bls.G2Affine
	g2j  *bls.G2Jac
	gt   *bls.GT
}

// Kind returns the C# type of p.
func (p *Point) Kind() Kind { return p.kind }

// String returns the kind and the hex of Bytes, for debugging.
func (p *Point) String() string { return fmt.Sprintf("%s(%x)", p.kind, p.Bytes()) }

// NewG1 wraps a G1 affine point (no checks; for tests and callers that
// already hold a validated point). The point is copied.
func NewG1(a *bls.G1Affine) *Point {
	c := *a
	return &Point{kind: G1Affine, g1a: &c}
}

// NewG2 wraps a G2 affine point (no checks). The point is copied.
func NewG2(a *bls.G2Affine) *Point {
	c := *a
	return &Point{kind: G2Affine, g2a: &c}
}

// NewGT wraps an Fp12 element (no checks). The value is copied.
func NewGT(a *bls.GT) *Point {
	c := *a
	return &Point{kind: GT, gt: &c}
}

// Deserialize decodes a value the way C# CryptoLib.Bls12381Deserialize does:
// 48 bytes are a compressed G1 point, 96 a compressed G2 point, 576 a GT
// element (see the package documentation for the checks). The result's kind
// is G1Affine, G2Affine or GT.
func Deserialize(data []byte) (*Point, error) {
	switch len(data) {
	case G1Size:
		a := new(bls.G1Affine)
		if _, err := a.SetBytes(data); err != nil {
			return nil, fmt.Errorf("%w: G1: %w", ErrInvalidPoint, err)
		}
		return &Point{kind: G1Affine, g1a: a}, nil
	case G2Size:
		// C# G2Affine.FromCompressed computes sqrt(x³+b') before looking at
		// the infinity flag; for x = 0 that is sqrt(4(u+1)), which does not
		// exist, so the identity encoding always throws there.
		if data[0]&0xe0 == 0xc0 {
			return nil, fmt.Errorf("%w: G2: identity encoding is rejected by the reference", ErrInvalidPoint)
		}
		a := new(bls.G2Affine)
		if _, err := a.SetBytes(data); err != nil {
			return nil, fmt.Errorf("%w: G2: %w", ErrInvalidPoint, err)
		}
		return &Point{kind: G2Affine, g2a: a}, nil
	case GTSize:
		g := new(bls.GT)
		if err := g.SetBytes(data); err != nil {
			return nil, fmt.Errorf("%w: GT: %w", ErrInvalidPoint, err)
		}
		return &Point{kind: GT, gt: g}, nil
	default:
		return nil, fmt.Errorf("%w: %d bytes", ErrInvalidLength, len(data))
	}
}

// Bytes serializes p as C# CryptoLib.Bls12381Serialize does: compressed
// affine form for G1 (48 bytes) and G2 (96 bytes) of either kind, the 576
// coordinate bytes for GT. It returns nil for a nil or zero Point.
func (p *Point) Bytes() []byte {
	if p == nil {
		return nil
	}
	switch p.kind {
	case G1Affine:
		b := p.g1a.Bytes()
		return b[:]
	case G1Projective:
		var a bls.G1Affine
		a.FromJacobian(p.g1j)
		b := a.Bytes()
		return b[:]
	case G2Affine:
		b := p.g2a.Bytes()
		return b[:]
	case G2Projective:
		var a bls.G2Affine
		a.FromJacobian(p.g2j)
		b := a.Bytes()
		return b[:]
	case GT:
		b := p.gt.Bytes()
		return b[:]
	default:
		return nil
	}
}

// Serialize is p.Bytes with an error for a nil or empty value, matching the
// contract method (which throws on a non-BLS interop value).
func Serialize(p *Point) ([]byte, error) {
	if p == nil || p.kind == 0 {
		return nil, ErrTypeMismatch
	}
	return p.Bytes(), nil
}

// Equal implements bls12381Equal: both values must be of the same kind
// (affine and projective forms of one group do not compare), otherwise
// ErrTypeMismatch. Equality is mathematical.
func Equal(a, b *Point) (bool, error) {
	if a == nil || b == nil || a.kind == 0 || a.kind != b.kind {
		return false, typeMismatch("equal", a, b)
	}
	switch a.kind {
	case G1Affine:
		return a.g1a.Equal(b.g1a), nil
	case G1Projective:
		return a.g1j.Equal(b.g1j), nil
	case G2Affine:
		return a.g2a.Equal(b.g2a), nil
	case G2Projective:
		return a.g2j.Equal(b.g2j), nil
	default:
		return a.gt.Equal(b.gt), nil
	}
}

// Equals reports whether o is a value of the same kind equal to p; a kind
// mismatch is simply false. This is the VM's EQUAL on two interop items
// (C# object.Equals on the wrapped values).
func (p *Point) Equals(o *Point) bool {
	r, err := Equal(p, o)
	return err == nil && r
}

func typeMismatch(op string, a, b *Point) error {
	return fmt.Errorf("%w: %s of %s and %s", ErrTypeMismatch, op, kindOf(a), kindOf(b))
}

func kindOf(p *Point) Kind {
	if p == nil {
		return 0
	}
	return p.kind
}

// Add implements bls12381Add. G1 (affine or projective) plus G1 gives
// G1Projective, G2 plus G2 gives G2Projective, GT "plus" GT is the Fp12
// product. Any other combination is ErrTypeMismatch.
func Add(a, b *Point) (*Point, error) {
	ka, kb := kindOf(a), kindOf(b)
	switch {
	case isG1(ka) && isG1(kb):
		r := new(bls.G1Jac)
		if ka == G1Affine {
			r.FromAffine(a.g1a)
		} else {
			r.Set(a.g1j)
		}
		if kb == G1Affine {
			r.AddMixed(b.g1a)
		} else {
			r.AddAssign(b.g1j)
		}
		return &Point{kind: G1Projective, g1j: r}, nil
	case isG2(ka) && isG2(kb):
		r := new(bls.G2Jac)
		if ka == G2Affine {
			r.FromAffine(a.g2a)
		} else {
			r.Set(a.g2j)
		}
		if kb == G2Affine {
			r.AddMixed(b.g2a)
		} else {
			r.AddAssign(b.g2j)
		}
		return &Point{kind: G2Projective, g2j: r}, nil
	case ka == GT && kb == GT:
		r := new(bls.GT)
		r.Mul(a.gt, b.gt)
		return &Point{kind: GT, gt: r}, nil
	default:
		return nil, typeMismatch("add", a, b)
	}
}

func isG1(k Kind) bool { return k == G1Affine || k == G1Projective }
func isG2(k Kind) bool { return k == G2Affine || k == G2Projective }

// Scalar parses the Mul multiplier as C# does (Scalar.FromBytes, then
// negation modulo r when neg is set): exactly 32 bytes, little-endian,
// below the group order r. The result is in [0, r).
func Scalar(mul []byte, neg bool) (*big.Int, error) {
	if len(mul) != ScalarSize {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrInvalidScalar, len(mul), ScalarSize)
	}
	e, err := fr.LittleEndian.Element((*[ScalarSize]byte)(mul))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidScalar, err)
	}
	if neg {
		e.Neg(&e)
	}
	return e.BigInt(new(big.Int)), nil
}

// Mul implements bls12381Mul: p multiplied by the scalar (see Scalar). G1
// values give G1Projective, G2 values G2Projective, and GT is raised to the
// scalar's power (the C# double-and-add over Gt squares), giving GT.
func Mul(p *Point, mul []byte, neg bool) (*Point, error) {
	k := kindOf(p)
	if k == 0 {
		return nil, fmt.Errorf("%w: mul of %s", ErrTypeMismatch, k)
	}
	s, err := Scalar(mul, neg)
	if err != nil {
		return nil, err
	}
	return mulScalar(p, s), nil
}

// mulScalar multiplies a valid point by s in [0, r).
func mulScalar(p *Point, s *big.Int) *Point {
	switch p.kind {
	case G1Affine, G1Projective:
		r := new(bls.G1Jac)
		if p.kind == G1Affine {
			r.FromAffine(p.g1a)
		} else {
			r.Set(p.g1j)
		}
		r.ScalarMultiplication(r, s)
		return &Point{kind: G1Projective, g1j: r}
	case G2Affine, G2Projective:
		r := new(bls.G2Jac)
		if p.kind == G2Affine {
			r.FromAffine(p.g2a)
		} else {
			r.Set(p.g2j)
		}
		r.ScalarMultiplication(r, s)
		return &Point{kind: G2Projective, g2j: r}
	default:
		// Plain exponentiation: GT values need not be in the cyclotomic
		// subgroup, so no cyclotomic shortcuts.
		r := new(bls.GT)
		r.Exp(*p.gt, s)
		return &Point{kind: GT, gt: r}
	}
}

// Pairing implements bls12381Pairing: g1 must be a G1 value and g2 a G2
// value (either form), otherwise ErrTypeMismatch. The result is the
// optimal ate pairing e(g1, g2) as a GT value; a pairing with an identity
// point gives the GT identity (one).
func Pairing(g1, g2 *Point) (*Point, error) {
	k1, k2 := kindOf(g1), kindOf(g2)
	if !isG1(k1) || !isG2(k2) {
		return nil, typeMismatch("pairing", g1, g2)
	}
	var a bls.G1Affine
	if k1 == G1Affine {
		a = *g1.g1a
	} else {
		a.FromJacobian(g1.g1j)
	}
	var b bls.G2Affine
	if k2 == G2Affine {
		b = *g2.g2a
	} else {
		b.FromJacobian(g2.g2j)
	}
	gt, err := bls.Pair([]bls.G1Affine{a}, []bls.G2Affine{b})
	if err != nil {
		return nil, fmt.Errorf("bls12381: pairing: %w", err)
	}
	return &Point{kind: GT, gt: &gt}, nil
}

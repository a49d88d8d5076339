package bls12381

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"

	bls "github.com/consensys/gnark-crypto/ecc/bls12-381"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/stretchr/testify/require"
)

type mulVector struct {
	Name     string `json:"name"`
	Point    string `json:"point"`
	Mul      string `json:"mul"`
	Neg      bool   `json:"neg"`
	Type     string `json:"type"`
	Expected string `json:"expected"`
}

type vectors struct {
	G1          string      `json:"g1"`
	G2          string      `json:"g2"`
	GT          string      `json:"gt"`
	NotG1       string      `json:"not_g1"`
	NotG2       string      `json:"not_g2"`
	AddGTGT     string      `json:"add_gt_gt"`
	MulGT3      []string    `json:"mul_gt_3"`
	PairingG1G2 string      `json:"pairing_g1_g2"`
	MulCompat   []mulVector `json:"mul_compat"`
	G2Other     string      `json:"g2_other"`
}

func loadVectors(t testing.TB) *vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	require.NoError(t, err)
	v := new(vectors)
	require.NoError(t, json.Unmarshal(b, v))
	require.NotEmpty(t, v.MulCompat)
	return v
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func mustPoint(t testing.TB, s string) *Point {
	t.Helper()
	p, err := Deserialize(unhex(t, s))
	require.NoError(t, err)
	return p
}

func TestDeserializeRoundTrip(t *testing.T) {
	v := loadVectors(t)
	for _, tc := range []struct {
		hex  string
		kind Kind
	}{{v.G1, G1Affine}, {v.G2, G2Affine}, {v.GT, GT}, {v.G2Other, G2Affine}} {
		p := mustPoint(t, tc.hex)
		require.Equal(t, tc.kind, p.Kind())
		require.Equal(t, tc.hex, hex.EncodeToString(p.Bytes()))
		b, err := Serialize(p)
		require.NoError(t, err)
		require.Equal(t, tc.hex, hex.EncodeToString(b))
	}
}

func TestDeserializeRejects(t *testing.T) {
	v := loadVectors(t)
	// The reference's notG1/notG2: valid x, wrong subgroup.
	for _, s := range []string{v.NotG1, v.NotG2} {
		_, err := Deserialize(unhex(t, s))
		require.ErrorIs(t, err, ErrInvalidPoint)
	}
	for _, n := range []int{0, 1, 42, 47, 49, 95, 97, 192, 575, 577} {
		_, err := Deserialize(make([]byte, n))
		require.ErrorIs(t, err, ErrInvalidLength, n)
	}
	g1 := unhex(t, v.G1)
	g2 := unhex(t, v.G2)
	// Compression flag cleared: the uncompressed form is not accepted at 48/96 bytes.
	b := append([]byte(nil), g1...)
	b[0] &^= 0x80
	_, err := Deserialize(b)
	require.ErrorIs(t, err, ErrInvalidPoint)
	b = append([]byte(nil), g2...)
	b[0] &^= 0x80
	_, err = Deserialize(b)
	require.ErrorIs(t, err, ErrInvalidPoint)
	// Infinity flag with non-zero x, and infinity plus sort flag.
	b = append([]byte(nil), g1...)
	b[0] |= 0x40
	_, err = Deserialize(b)
	require.ErrorIs(t, err, ErrInvalidPoint)
	inf := make([]byte, G1Size)
	inf[0] = 0xe0
	_, err = Deserialize(inf)
	require.ErrorIs(t, err, ErrInvalidPoint)
	// x >= p (all ones under the flags).
	b = make([]byte, G1Size)
	for i := range b {
		b[i] = 0xff
	}
	b[0] = 0x9f
	_, err = Deserialize(b)
	require.ErrorIs(t, err, ErrInvalidPoint)
	// GT with a non-canonical coordinate.
	gt := unhex(t, v.GT)
	gt[0] = 0xff
	_, err = Deserialize(gt)
	require.ErrorIs(t, err, ErrInvalidPoint)
}

func TestDeserializeIdentity(t *testing.T) {
	// G1 identity: accepted (C# computes sqrt(4), which exists).
	inf := make([]byte, G1Size)
	inf[0] = 0xc0
	p, err := Deserialize(inf)
	require.NoError(t, err)
	require.Equal(t, inf, p.Bytes())

	// G2 identity: rejected, as C# throws on sqrt(4(u+1)). Check the
	// premise: x = 0 without the infinity flag has no square root either.
	inf2 := make([]byte, G2Size)
	inf2[0] = 0xc0
	_, err = Deserialize(inf2)
	require.ErrorIs(t, err, ErrInvalidPoint)
	var a bls.G2Affine
	x0 := make([]byte, G2Size)
	x0[0] = 0x80
	_, err = a.SetBytes(x0)
	require.ErrorContains(t, err, "square root")
	_, err = a.SetBytes(inf2) // gnark alone would accept it
	require.NoError(t, err)

	// Yet the G2 identity is a value: it serializes as 0xc0 00...
	g2 := mustPoint(t, loadVectors(t).G2)
	z, err := Mul(g2, make([]byte, 32), false)
	require.NoError(t, err)
	require.Equal(t, inf2, z.Bytes())

	// GT zero element is a valid GT value (no subgroup check).
	zero, err := Deserialize(make([]byte, GTSize))
	require.NoError(t, err)
	require.Equal(t, GT, zero.Kind())
}

func TestAddGT(t *testing.T) {
	v := loadVectors(t)
	gt := mustPoint(t, v.GT)
	r, err := Add(gt, gt)
	require.NoError(t, err)
	require.Equal(t, GT, r.Kind())
	require.Equal(t, v.AddGTGT, hex.EncodeToString(r.Bytes()))
}

func TestMulGT(t *testing.T) {
	v := loadVectors(t)
	gt := mustPoint(t, v.GT)
	three := make([]byte, 32)
	three[0] = 3
	for i, neg := range []bool{false, true} {
		r, err := Mul(gt, three, neg)
		require.NoError(t, err)
		require.Equal(t, v.MulGT3[i], hex.EncodeToString(r.Bytes()))
	}
}

func TestPairing(t *testing.T) {
	v := loadVectors(t)
	g1, g2 := mustPoint(t, v.G1), mustPoint(t, v.G2)
	r, err := Pairing(g1, g2)
	require.NoError(t, err)
	require.Equal(t, GT, r.Kind())
	require.Equal(t, v.PairingG1G2, hex.EncodeToString(r.Bytes()))
	// The reference's gt is exactly e(g1, g2).
	require.Equal(t, v.GT, v.PairingG1G2)

	// Projective inputs give the same result.
	two := make([]byte, 32)
	two[0] = 2
	g1p, err := Mul(g1, two, false)
	require.NoError(t, err)
	r2, err := Pairing(g1p, g2)
	require.NoError(t, err)
	sq, err := Add(r, r)
	require.NoError(t, err)
	require.True(t, r2.Equals(sq))
	g2p, err := Add(g2, g2)
	require.NoError(t, err)
	r3, err := Pairing(g1, g2p)
	require.NoError(t, err)
	require.True(t, r3.Equals(sq))

	// Identity in either argument gives one.
	inf := make([]byte, G1Size)
	inf[0] = 0xc0
	r4, err := Pairing(mustPoint(t, hex.EncodeToString(inf)), g2)
	require.NoError(t, err)
	var one bls.GT
	one.SetOne()
	require.True(t, r4.Equals(NewGT(&one)))
	zero := make([]byte, 32)
	g2z, err := Mul(g2, zero, false)
	require.NoError(t, err)
	r5, err := Pairing(g1, g2z)
	require.NoError(t, err)
	require.True(t, r5.Equals(NewGT(&one)))
}

func TestMulCompat(t *testing.T) {
	v := loadVectors(t)
	kinds := map[string]Kind{"gtP": GT, "g1JacP": G1Projective, "g2JacP": G2Projective}
	n := 0
	for _, tc := range v.MulCompat {
		t.Run(tc.Name, func(t *testing.T) {
			p := mustPoint(t, tc.Point)
			r, err := Mul(p, unhex(t, tc.Mul), tc.Neg)
			require.NoError(t, err)
			want, ok := kinds[tc.Type]
			require.True(t, ok, tc.Type)
			require.Equal(t, want, r.Kind())
			require.Equal(t, tc.Expected, hex.EncodeToString(r.Bytes()))
			n++
		})
	}
	require.Equal(t, 11, n)
}

func TestEqualAndTypes(t *testing.T) {
	v := loadVectors(t)
	g1, g2, gt := mustPoint(t, v.G1), mustPoint(t, v.G2), mustPoint(t, v.GT)
	g1b, g2b := mustPoint(t, v.G1), mustPoint(t, v.G2Other)

	ok, err := Equal(g1, g1b)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = Equal(g2, g2b)
	require.NoError(t, err)
	require.False(t, ok)
	ok, err = Equal(gt, mustPoint(t, v.GT))
	require.NoError(t, err)
	require.True(t, ok)

	// Affine vs projective of the same point: type mismatch, like C#.
	one := make([]byte, 32)
	one[0] = 1
	g1p, err := Mul(g1, one, false)
	require.NoError(t, err)
	require.Equal(t, G1Projective, g1p.Kind())
	_, err = Equal(g1, g1p)
	require.ErrorIs(t, err, ErrTypeMismatch)
	require.False(t, g1.Equals(g1p))
	require.Equal(t, g1.Bytes(), g1p.Bytes())
	g1p2, err := Add(g1, mustPoint(t, "c0"+strings.Repeat("00", 47)))
	require.NoError(t, err)
	ok, err = Equal(g1p, g1p2)
	require.NoError(t, err)
	require.True(t, ok)

	for _, pair := range [][2]*Point{{g1, g2}, {g2, gt}, {gt, g1}, {nil, g1}, {g1, nil}, {g1p, g2}} {
		_, err = Equal(pair[0], pair[1])
		require.ErrorIs(t, err, ErrTypeMismatch)
		_, err = Add(pair[0], pair[1])
		require.ErrorIs(t, err, ErrTypeMismatch)
	}
	_, err = Pairing(g2, g1)
	require.ErrorIs(t, err, ErrTypeMismatch)
	_, err = Pairing(g1, gt)
	require.ErrorIs(t, err, ErrTypeMismatch)
	_, err = Mul(nil, one, false)
	require.ErrorIs(t, err, ErrTypeMismatch)
	_, err = Serialize(nil)
	require.ErrorIs(t, err, ErrTypeMismatch)
	_, err = Serialize(&Point{})
	require.ErrorIs(t, err, ErrTypeMismatch)
}

func TestAddMixedForms(t *testing.T) {
	v := loadVectors(t)
	g1 := mustPoint(t, v.G1)
	two := make([]byte, 32)
	two[0] = 2
	want, err := Mul(g1, two, false)
	require.NoError(t, err)
	g1p, err := Mul(g1, two[:1:1], false)
	require.ErrorIs(t, err, ErrInvalidScalar)
	require.Nil(t, g1p)
	one := make([]byte, 32)
	one[0] = 1
	g1p, err = Mul(g1, one, false)
	require.NoError(t, err)
	for _, pair := range [][2]*Point{{g1, g1}, {g1, g1p}, {g1p, g1}, {g1p, g1p}} {
		r, err := Add(pair[0], pair[1])
		require.NoError(t, err)
		require.Equal(t, G1Projective, r.Kind())
		require.True(t, r.Equals(want))
	}
	g2 := mustPoint(t, v.G2)
	want2, err := Mul(g2, two, false)
	require.NoError(t, err)
	g2p, err := Mul(g2, one, false)
	require.NoError(t, err)
	for _, pair := range [][2]*Point{{g2, g2}, {g2, g2p}, {g2p, g2}, {g2p, g2p}} {
		r, err := Add(pair[0], pair[1])
		require.NoError(t, err)
		require.Equal(t, G2Projective, r.Kind())
		require.True(t, r.Equals(want2))
	}
	// Operands are not modified.
	require.Equal(t, v.G1, hex.EncodeToString(g1.Bytes()))
	require.Equal(t, v.G1, hex.EncodeToString(g1p.Bytes()))
}

func TestScalar(t *testing.T) {
	for _, n := range []int{0, 31, 33} {
		_, err := Scalar(make([]byte, n), false)
		require.ErrorIs(t, err, ErrInvalidScalar)
	}
	// r itself (little-endian) is rejected; r-1 is accepted; -0 = 0.
	rBytes := fr.Modulus().FillBytes(make([]byte, 32))
	le := func(be []byte) []byte {
		out := make([]byte, len(be))
		for i := range be {
			out[i] = be[len(be)-1-i]
		}
		return out
	}
	_, err := Scalar(le(rBytes), false)
	require.ErrorIs(t, err, ErrInvalidScalar)
	rMinus1 := new(big.Int).Sub(fr.Modulus(), big.NewInt(1))
	s, err := Scalar(le(rMinus1.FillBytes(make([]byte, 32))), false)
	require.NoError(t, err)
	require.Equal(t, 0, s.Cmp(rMinus1))
	s, err = Scalar(make([]byte, 32), true)
	require.NoError(t, err)
	require.Zero(t, s.Sign())
	one := make([]byte, 32)
	one[0] = 1
	s, err = Scalar(one, true)
	require.NoError(t, err)
	require.Equal(t, 0, s.Cmp(rMinus1))
}

func TestErrorsAreDistinct(t *testing.T) {
	errs := []error{ErrInvalidLength, ErrInvalidPoint, ErrTypeMismatch, ErrInvalidScalar}
	for i := range errs {
		for j := range errs {
			require.Equal(t, i == j, errors.Is(errs[i], errs[j]))
		}
	}
}

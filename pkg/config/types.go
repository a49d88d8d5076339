package config

import (
	"crypto/elliptic"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"go.yaml.in/yaml/v3"
)

// Fixed8 is a GAS amount with 8 decimals (1 GAS = 1_0000_0000). YAML
// accepts "15", "0.5" or 15 in GAS units, as neo-go's fixedn.Fixed8 does.
type Fixed8 int64

const fixed8Decimals = 100_000_000

// ParseFixed8 parses a decimal number with at most 8 fractional digits.
func ParseFixed8(s string) (Fixed8, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	ip, fp, hasDot := strings.Cut(body, ".")
	if ip == "" || (hasDot && (fp == "" || len(fp) > 8)) || !allDigits(ip) || !allDigits(fp) {
		return 0, fmt.Errorf("invalid fixed-point number %q", s)
	}
	i, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || i > math.MaxInt64/fixed8Decimals {
		return 0, fmt.Errorf("fixed-point number %q out of range", s)
	}
	var f int64
	if fp != "" {
		f, _ = strconv.ParseInt(fp+strings.Repeat("0", 8-len(fp)), 10, 64)
	}
	v := i*fixed8Decimals + f
	if neg {
		v = -v
	}
	return Fixed8(v), nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// String prints the value in GAS units without trailing zeros.
func (f Fixed8) String() string {
	v := int64(f)
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	s := sign + strconv.FormatInt(v/fixed8Decimals, 10)
	if frac := v % fixed8Decimals; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%08d", frac), "0")
	}
	return s
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (f *Fixed8) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: expected a number", node.Line)
	}
	v, err := ParseFixed8(node.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", node.Line, err)
	}
	*f = v
	return nil
}

// MarshalYAML implements yaml.Marshaler.
func (f Fixed8) MarshalYAML() (any, error) { return f.String(), nil }

// PublicKey is a secp256r1 public key in compressed form (33 bytes). YAML
// accepts the compressed or uncompressed hex form, as neo-go does.
type PublicKey [33]byte

// ErrInvalidPublicKey is returned (wrapped) for a key that is not a point on
// secp256r1.
var ErrInvalidPublicKey = errors.New("invalid public key")

// ParsePublicKey decodes a hex key (33-byte compressed or 65-byte
// uncompressed) and checks that it is on the curve.
func ParsePublicKey(s string) (PublicKey, error) {
	var pk PublicKey
	b, err := hex.DecodeString(s)
	if err != nil {
		return pk, fmt.Errorf("%w %q: %w", ErrInvalidPublicKey, s, err)
	}
	curve := elliptic.P256()
	switch {
	case len(b) == 33 && (b[0] == 2 || b[0] == 3):
		if x, _ := elliptic.UnmarshalCompressed(curve, b); x == nil {
			return pk, fmt.Errorf("%w %q: not on the curve", ErrInvalidPublicKey, s)
		}
		copy(pk[:], b)
	case len(b) == 65 && b[0] == 4:
		x, y := elliptic.Unmarshal(curve, b) //nolint:staticcheck // only used to check the point
		if x == nil {
			return pk, fmt.Errorf("%w %q: not on the curve", ErrInvalidPublicKey, s)
		}
		copy(pk[:], elliptic.MarshalCompressed(curve, x, y))
	default:
		return pk, fmt.Errorf("%w %q: bad length or prefix", ErrInvalidPublicKey, s)
	}
	return pk, nil
}

// String returns the compressed hex form.
func (pk PublicKey) String() string { return hex.EncodeToString(pk[:]) }

// Bytes returns a copy of the compressed form.
func (pk PublicKey) Bytes() []byte { return append([]byte(nil), pk[:]...) }

// UnmarshalYAML implements yaml.Unmarshaler.
func (pk *PublicKey) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: expected a hex public key", node.Line)
	}
	v, err := ParsePublicKey(node.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", node.Line, err)
	}
	*pk = v
	return nil
}

// MarshalYAML implements yaml.Marshaler.
func (pk PublicKey) MarshalYAML() (any, error) { return pk.String(), nil }

// HashIndex is a block index and hash (Ledger.TrustedHeader). In YAML it is
// a map with at most one "index: hash" entry; the hash is in the reversed
// (RPC) hex form, with or without 0x.
type HashIndex struct {
	Hash  hash.Uint256
	Index uint32
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (h *HashIndex) UnmarshalYAML(node *yaml.Node) error {
	var aux map[uint32]string
	if err := node.Decode(&aux); err != nil {
		return err
	}
	if len(aux) > 1 {
		return fmt.Errorf("line %d: only one trusted height is supported, got %d entries", node.Line, len(aux))
	}
	*h = HashIndex{}
	for i, s := range aux {
		u, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(s, "0x"))
		if err != nil {
			return fmt.Errorf("line %d: trusted header hash: %w", node.Line, err)
		}
		*h = HashIndex{Hash: u, Index: i}
	}
	return nil
}

// MarshalYAML implements yaml.Marshaler.
func (h HashIndex) MarshalYAML() (any, error) {
	m := map[uint32]string{}
	if h.Index != 0 {
		m[h.Index] = h.Hash.StringLE()
	}
	return m, nil
}

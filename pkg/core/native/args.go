package native

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrArgument is returned (wrapped) for native method arguments of the
// wrong type or range.
var ErrArgument = errors.New("invalid argument")

// ErrInvalidCommittee is returned when a committee-only method lacks the
// committee's witness.
var ErrInvalidCommittee = errors.New("invalid committee signature")

// ToBigInt converts an argument with GetInteger.
func ToBigInt(it stackitem.Item) (*big.Int, error) {
	n, err := it.TryInteger()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArgument, err)
	}
	return n, nil
}

// ToInt64 converts an integer argument that fits int64.
func ToInt64(it stackitem.Item) (int64, error) {
	n, err := ToBigInt(it)
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() {
		return 0, fmt.Errorf("%w: integer %s does not fit int64", ErrArgument, n)
	}
	return n.Int64(), nil
}

func toRange(it stackitem.Item, lo, hi int64, what string) (int64, error) {
	n, err := ToBigInt(it)
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() || n.Int64() < lo || n.Int64() > hi {
		return 0, fmt.Errorf("%w: %s out of range: %s", ErrArgument, what, n)
	}
	return n.Int64(), nil
}

// ToUint32 converts an integer argument in [0, 2^32).
func ToUint32(it stackitem.Item) (uint32, error) {
	n, err := toRange(it, 0, math.MaxUint32, "uint32")
	return uint32(n), err
}

// ToUint8 converts an integer argument in [0, 255].
func ToUint8(it stackitem.Item) (uint8, error) {
	n, err := toRange(it, 0, math.MaxUint8, "uint8")
	return uint8(n), err
}

// ToInt32 converts an integer argument that fits int32.
func ToInt32(it stackitem.Item) (int32, error) {
	n, err := toRange(it, math.MinInt32, math.MaxInt32, "int32")
	return int32(n), err
}

// ToBytes returns the bytes of a primitive or Buffer argument. Other
// items fail with neo-go's text (a native method's error is the FAULT
// text), "invalid conversion: Array/ByteString".
func ToBytes(it stackitem.Item) ([]byte, error) {
	b, err := it.TryBytes()
	if err != nil {
		return nil, &conversionError{from: neoGoItemName(it), to: "ByteString"}
	}
	return b, nil
}

// conversionError is an argument of a type that does not convert, worded
// as neo-go's stackitem conversion errors. It is ErrArgument and
// stackitem.ErrInvalidCast for errors.Is.
type conversionError struct{ from, to string }

func (e *conversionError) Error() string { return "invalid conversion: " + e.from + "/" + e.to }

func (e *conversionError) Unwrap() []error { return []error{ErrArgument, stackitem.ErrInvalidCast} }

// neoGoItemName is an item's name in neo-go's texts (its String form).
func neoGoItemName(it stackitem.Item) string {
	switch it.(type) {
	case stackitem.Null:
		return "Null"
	case *stackitem.Integer:
		return "BigInteger"
	}
	return it.Type().String()
}

// ToString converts an argument to a strict UTF-8 string (Null fails).
func ToString(it stackitem.Item) (string, error) {
	if _, ok := it.(stackitem.Null); ok {
		return "", fmt.Errorf("%w: null string", ErrArgument)
	}
	s, _, err := stackitem.ToString(it)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrArgument, err)
	}
	return s, nil
}

// ToUint160 converts a 20-byte argument.
func ToUint160(it stackitem.Item) (hash.Uint160, error) {
	b, err := ToBytes(it)
	if err != nil {
		return hash.Uint160{}, err
	}
	if len(b) != hash.Uint160Size {
		return hash.Uint160{}, fmt.Errorf("%w: %d bytes for a Uint160", ErrArgument, len(b))
	}
	return hash.Uint160(b), nil
}

// ToUint256 converts a 32-byte argument.
func ToUint256(it stackitem.Item) (hash.Uint256, error) {
	b, err := ToBytes(it)
	if err != nil {
		return hash.Uint256{}, err
	}
	if len(b) != hash.Uint256Size {
		return hash.Uint256{}, fmt.Errorf("%w: %d bytes for a Uint256", ErrArgument, len(b))
	}
	return hash.Uint256(b), nil
}

// HashItem returns a ByteString of the hash bytes.
func HashItem(h hash.Uint160) stackitem.Item {
	b := make([]byte, hash.Uint160Size)
	copy(b, h[:])
	return stackitem.NewByteString(b)
}

// makeUint160Key returns prefix + h.
func makeUint160Key(prefix byte, h hash.Uint160) []byte {
	k := make([]byte, 1+hash.Uint160Size)
	k[0] = prefix
	copy(k[1:], h[:])
	return k
}

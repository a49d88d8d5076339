package native

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrArgument is returned (wrapped) for native method arguments of the
// wrong type or range: it is interop.ErrInvalidArgument. The errors carry
// neo-go's texts (a native method's error is the FAULT text clients see).
var ErrArgument = interop.ErrInvalidArgument

// ErrInvalidCommittee is returned when a committee-only method lacks the
// committee's witness.
var ErrInvalidCommittee = errors.New("invalid committee signature")

// ToBigInt converts an argument with GetInteger.
func ToBigInt(it stackitem.Item) (*big.Int, error) { return interop.ItemInteger(it) }

// rangeError is neo-go's error for an integer argument out of the range of
// the Go type it is converted to.
func rangeError(goType string) error {
	return interop.Worded(ErrArgument, fmt.Errorf("invalid value: bigint is not in %s range", goType))
}

// ToInt64 converts an integer argument that fits int64.
func ToInt64(it stackitem.Item) (int64, error) {
	n, err := ToBigInt(it)
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() {
		return 0, rangeError("int64")
	}
	return n.Int64(), nil
}

// toRange converts an integer argument in [lo, hi] (goType's range): as
// neo-go, through int64 first.
func toRange(it stackitem.Item, lo, hi int64, goType string) (int64, error) {
	n, err := ToInt64(it)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		return 0, rangeError(goType)
	}
	return n, nil
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
// items fail with neo-go's text, "invalid conversion: Array/ByteString".
func ToBytes(it stackitem.Item) ([]byte, error) { return interop.ItemBytes(it) }

// ToString converts an argument to a strict UTF-8 string (Null fails).
func ToString(it stackitem.Item) (string, error) { return interop.ItemString(it) }

// ToUint160 converts a 20-byte argument (neo-go's stackitem.ToUint160:
// "invalid value: expected byte size of 20 got N").
func ToUint160(it stackitem.Item) (hash.Uint160, error) {
	return uint160Arg(it, func(err error) error {
		return interop.Worded(err, fmt.Errorf("invalid value: %w", err))
	})
}

// toHash160 converts a 20-byte argument of Management's methods, whose
// wrong length neo-go reports bare ("expected byte size of 20 got N").
func toHash160(it stackitem.Item) (hash.Uint160, error) {
	return uint160Arg(it, func(err error) error { return err })
}

func uint160Arg(it stackitem.Item, wordSize func(error) error) (hash.Uint160, error) {
	b, err := ToBytes(it)
	if err != nil {
		return hash.Uint160{}, err
	}
	if len(b) != hash.Uint160Size {
		return hash.Uint160{}, wordSize(interop.HashSizeError(hash.Uint160Size, len(b)))
	}
	return hash.Uint160(b), nil
}

// ToUint256 converts a 32-byte argument (a hash of Ledger's methods, with
// neo-go's texts).
func ToUint256(it stackitem.Item) (hash.Uint256, error) {
	b, err := ToBytes(it)
	if err != nil {
		return hash.Uint256{}, interop.Worded(err, fmt.Errorf("failed to get hash bytes: %w", err))
	}
	if len(b) != hash.Uint256Size {
		err := interop.HashSizeError(hash.Uint256Size, len(b))
		return hash.Uint256{}, interop.Worded(err, fmt.Errorf("failed to decode hash: %w", err))
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

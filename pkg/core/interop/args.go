package interop

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Argument errors (the VM faults with them).
var (
	ErrInvalidArgument = errors.New("invalid argument")
)

// popItem pops the top item of the executing script's stack.
func (ic *Context) popItem() (stackitem.Item, error) {
	return ic.VM.Pop()
}

// popBytes pops an item and returns its bytes (a primitive or Buffer; Null
// and compound items fail). The slice belongs to the item.
func (ic *Context) popBytes() ([]byte, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	b, err := it.TryBytes()
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a byte string: %w", ErrInvalidArgument, it.Type(), err)
	}
	return b, nil
}

// popString pops an item and decodes it as strict UTF-8.
func (ic *Context) popString() (string, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return "", err
	}
	return itemString(it)
}

// itemString is neo-go's stackitem.ToString: Null is an error.
func itemString(it stackitem.Item) (string, error) {
	if _, ok := it.(stackitem.Null); ok {
		return "", fmt.Errorf("%w: null string", ErrInvalidArgument)
	}
	s, _, err := stackitem.ToString(it)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return s, nil
}

// popBigInt pops an integer (GetInteger conversion).
func (ic *Context) popBigInt() (*big.Int, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	n, err := it.TryInteger()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return n, nil
}

// popInt32Flags pops an integer converted as neo-go converts call flags and
// find options: the low 64 bits truncated to int32.
func (ic *Context) popInt32Flags() (int64, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return 0, err
	}
	if i, ok := it.(*stackitem.Integer); ok {
		if v, ok := i.Int64(); ok {
			return int64(int32(v)), nil
		}
	}
	n, err := it.TryInteger()
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return int64(int32(n.Int64())), nil
}

// popIsZero pops an integer and reports whether it is zero.
func (ic *Context) popIsZero() (bool, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return false, err
	}
	if i, ok := it.(*stackitem.Integer); ok {
		return i.Sign() == 0, nil
	}
	n, err := it.TryInteger()
	if err != nil {
		return false, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return n.Sign() == 0, nil
}

// popArray pops an Array or Struct and returns its items.
func (ic *Context) popArray() ([]stackitem.Item, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	a, ok := it.(*stackitem.Array)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not an array", ErrInvalidArgument, it.Type())
	}
	return a.Items(), nil
}

// popInterop pops an InteropInterface and returns its value.
func (ic *Context) popInterop() (any, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	i, ok := it.(*stackitem.Interop)
	if !ok {
		return nil, fmt.Errorf("%w: %s is not an interop interface", ErrInvalidArgument, it.Type())
	}
	return i.Value(), nil
}

// popInteropAs pops an InteropInterface whose value is a T; what names a T
// in the error.
func popInteropAs[T any](ic *Context, what string) (T, error) {
	var zero T
	v, err := ic.popInterop()
	if err != nil {
		return zero, err
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("%w: %T is not %s", ErrInvalidArgument, v, what)
	}
	return t, nil
}

// popUint160 pops 20 bytes.
func (ic *Context) popUint160() (hash.Uint160, error) {
	b, err := ic.popBytes()
	if err != nil {
		return hash.Uint160{}, err
	}
	if len(b) != hash.Uint160Size {
		return hash.Uint160{}, fmt.Errorf("%w: %d bytes for a Uint160", ErrInvalidArgument, len(b))
	}
	return hash.Uint160(b), nil
}

func hashItem(h hash.Uint160) stackitem.Item {
	b := make([]byte, hash.Uint160Size)
	copy(b, h[:])
	return stackitem.NewByteString(b)
}

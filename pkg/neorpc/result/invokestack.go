package result

import (
	"errors"
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// VM states as the RPC prints them.
const (
	StateHalt  = "HALT"
	StateFault = "FAULT"
)

// Errors of the stack helpers below (what clients read from an Invoke).
var (
	// ErrFault is returned (wrapped with the exception) when a test
	// invocation ended in FAULT and the caller asked for a HALT.
	ErrFault      = errors.New("script FAULTed")
	ErrStackIndex = errors.New("no such stack item")
	ErrItemType   = errors.New("unexpected stack item type")
)

// CheckHalt returns nil if the invocation ended in HALT, otherwise an error
// wrapping ErrFault with the state and exception.
func (r *Invoke) CheckHalt() error {
	if r.State == StateHalt {
		return nil
	}
	return fmt.Errorf("%w: %s state: %s", ErrFault, r.State, r.FaultException)
}

// Item returns stack item i. Iterators (Interop items wrapping an
// Iterator) are not stack values; use Iterator for them.
func (r *Invoke) Item(i int) (stackitem.Item, error) {
	if i < 0 || i >= len(r.Stack) {
		return nil, fmt.Errorf("%w: %d of %d", ErrStackIndex, i, len(r.Stack))
	}
	if r.Stack[i].Type() == stackitem.InteropT {
		return nil, fmt.Errorf("%w: item %d is %s", ErrItemType, i, stackitem.InteropT)
	}
	return r.Stack[i], nil
}

// Int returns stack item i as an integer (Integer, Boolean or a
// ByteString of at most 32 bytes, converted as the VM does).
func (r *Invoke) Int(i int) (*big.Int, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	return it.TryInteger()
}

// Bool returns stack item i converted to a boolean as the VM does.
func (r *Invoke) Bool(i int) (bool, error) {
	it, err := r.Item(i)
	if err != nil {
		return false, err
	}
	return it.TryBool()
}

// Bytes returns the bytes of stack item i (a primitive item or Buffer).
func (r *Invoke) Bytes(i int) ([]byte, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	return it.TryBytes()
}

// String returns stack item i as a UTF-8 string.
func (r *Invoke) String(i int) (string, error) {
	b, err := r.Bytes(i)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: item %d is not UTF-8", ErrItemType, i)
	}
	return string(b), nil
}

// Array returns the elements of an Array or Struct stack item i.
func (r *Invoke) Array(i int) ([]stackitem.Item, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	if it.Type() != stackitem.ArrayT && it.Type() != stackitem.StructT {
		return nil, fmt.Errorf("%w: item %d is %s, not Array", ErrItemType, i, it.Type())
	}
	return it.Value().([]stackitem.Item), nil
}

// Iterator returns stack item i as an iterator (a session iterator with
// its ID, or the values expanded in place).
func (r *Invoke) Iterator(i int) (*Iterator, error) {
	if i < 0 || i >= len(r.Stack) {
		return nil, fmt.Errorf("%w: %d of %d", ErrStackIndex, i, len(r.Stack))
	}
	if it, ok := r.Stack[i].Value().(Iterator); ok {
		return &it, nil
	}
	return nil, fmt.Errorf("%w: item %d is %s, not an iterator", ErrItemType, i, r.Stack[i].Type())
}

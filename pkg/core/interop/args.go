package interop

import (
	"errors"
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Argument errors (the VM faults with them).
var (
	ErrInvalidArgument = errors.New("invalid argument")
)

// Argument errors carry neo-go's texts, since the FAULT exception is what
// clients compare. neo-go converts most syscall arguments with stack
// accessors that panic (Estack().Pop().Bytes(), .String(), .Array(),
// .Interop(), .BigInt()), so those texts come without the
// "<syscall> failed: " prefix: they are PanicErrors. All of them still
// match ErrInvalidArgument with errors.Is.

// PanicError marks an error neo-go raises as a Go panic (an argument
// conversion of a syscall, any error of a native contract method): the
// FAULT text is the error's own, without the "<syscall> failed: " prefix.
type PanicError struct{ Err error }

func (e *PanicError) Error() string { return errorText(e.Err) }
func (e *PanicError) Unwrap() error { return e.Err }

// worded is an error with neo-go's text (err) that errors.Is also matches
// to a sentinel of ours.
type worded struct{ sentinel, err error }

func (e *worded) Error() string   { return e.err.Error() }
func (e *worded) Unwrap() []error { return []error{e.sentinel, e.err} }

// Worded returns an error whose text is err's and which is both err and
// sentinel for errors.Is.
func Worded(sentinel, err error) error { return &worded{sentinel: sentinel, err: err} }

// argError is an argument error of a syscall, worded as neo-go words it
// (fmt.Errorf's format and arguments) and reported after the syscall name.
func argError(format string, a ...any) error {
	return Worded(ErrInvalidArgument, fmt.Errorf(format, a...))
}

// NeoGoItemName is an item's name in neo-go's texts (its String form:
// "Null", "BigInteger", otherwise the type's name).
func NeoGoItemName(it stackitem.Item) string {
	switch it.(type) {
	case stackitem.Null:
		return "Null"
	case *stackitem.Integer:
		return "BigInteger"
	}
	return it.Type().String()
}

// ConversionError is neo-go's error for an item that does not convert to
// type to ("invalid conversion: Array/ByteString"). It is ErrInvalidArgument
// and stackitem.ErrInvalidCast for errors.Is.
func ConversionError(it stackitem.Item, to string) error {
	return &conversionError{from: NeoGoItemName(it), to: to}
}

type conversionError struct{ from, to string }

func (e *conversionError) Error() string { return "invalid conversion: " + e.from + "/" + e.to }

func (e *conversionError) Unwrap() []error {
	return []error{ErrInvalidArgument, stackitem.ErrInvalidCast}
}

// ItemBytes converts an item as neo-go's TryBytes does, with its texts.
func ItemBytes(it stackitem.Item) ([]byte, error) {
	b, err := it.TryBytes()
	if err != nil {
		return nil, ConversionError(it, "ByteString")
	}
	return b, nil
}

// ItemInteger converts an item as neo-go's TryInteger does, with its texts:
// a byte string longer than an integer is "too big: integer".
func ItemInteger(it stackitem.Item) (*big.Int, error) {
	n, err := it.TryInteger()
	if err == nil {
		return n, nil
	}

	switch it.(type) {
	case *stackitem.ByteString, *stackitem.Buffer:
		return nil, errTooBigInteger
	}
	return nil, ConversionError(it, "Integer")
}

// errTooBigInteger is neo-go's error for a byte string longer than an
// integer converted to an integer or a boolean.
var errTooBigInteger = Worded(ErrInvalidArgument, errors.New("too big: integer"))

// ItemBool converts an item as neo-go's TryBool does, with its texts.
func ItemBool(it stackitem.Item) (bool, error) {
	b, err := it.TryBool()
	if err != nil {
		return false, errTooBigInteger // only a too long ByteString fails
	}
	return b, nil
}

// ItemString converts an item as neo-go's stackitem.ToString does (Null
// fails as a conversion), with its texts.
func ItemString(it stackitem.Item) (string, error) {
	b, err := ItemBytes(it)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", errNotUTF8
	}
	return string(b), nil
}

// errNotUTF8 is neo-go's stackitem.ToString error.
var errNotUTF8 = Worded(ErrInvalidArgument, errors.New("invalid value: not UTF-8"))

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
	b, err := ItemBytes(it)
	if err != nil {
		return nil, &PanicError{Err: err}
	}
	return b, nil
}

// popString pops an item and decodes it as strict UTF-8.
func (ic *Context) popString() (string, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return "", err
	}
	s, err := ItemString(it)
	if err != nil {
		return "", &PanicError{Err: err}
	}
	return s, nil
}

// popBigInt pops an integer (GetInteger conversion).
func (ic *Context) popBigInt() (*big.Int, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	n, err := ItemInteger(it)
	if err != nil {
		return nil, &PanicError{Err: err}
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
	n, err := ItemInteger(it)
	if err != nil {
		return 0, &PanicError{Err: err}
	}
	return int64(int32(n.Int64())), nil
}

// popArray pops an Array or Struct and returns its items.
func (ic *Context) popArray() ([]stackitem.Item, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	a, ok := it.(*stackitem.Array) // a Struct is an Array too
	if !ok {
		return nil, errNotArray
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
		return nil, errNotInterop
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
		return zero, argError("%T is not %s", v, what)
	}
	return t, nil
}

// HashSizeError is neo-go's error for a hash of the wrong length
// (util.Uint160DecodeBytesBE and its Uint256 twin).
func HashSizeError(want, got int) error {
	return argError("expected byte size of %d got %d", want, got)
}

// Errors of neo-go's stack accessors Array and Interop (panics).
var (
	errNotArray   = &PanicError{Err: argError("element is not an array")}
	errNotInterop = &PanicError{Err: argError("element is not an interop")}
)

func hashItem(h hash.Uint160) stackitem.Item {
	b := make([]byte, hash.Uint160Size)
	copy(b, h[:])
	return stackitem.NewByteString(b)
}

package stackitem

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/encoding/bigint"
)

// Convert is the CONVERT opcode (C# StackItem.ConvertTo). Converting to the
// item's own type returns the item itself; Array and Struct convert into each
// other as shallow copies; Null converts to every defined type but Any and
// stays Null.
func Convert(item Item, t Type) (Item, error) {
	switch x := item.(type) {
	case Null:
		if t == AnyT || !t.IsValid() {
			return nil, fmt.Errorf("%w: Type Null can't be converted to StackItemType: %s", ErrInvalidCast, t)
		}
		return x, nil
	case Bool, *Integer, *ByteString:
		return convertPrimitive(item, t)
	case *Buffer:
		switch t {
		case BufferT:
			return x, nil
		case IntegerT:
			if len(x.b) > MaxIntegerSize {
				return nil, fmt.Errorf("%w: Buffer of %d bytes to Integer", ErrInvalidCast, len(x.b))
			}
			return intFromBytes(x.b), nil
		case ByteStringT:
			return NewByteString(slices.Clone(x.b)), nil
		case BooleanT:
			return Bool(true), nil
		}
	case *Array:
		if item.Type() == t {
			return x, nil
		}
		switch t {
		case StructT:
			return NewStruct(slices.Clone(x.items)), nil
		case ArrayT:
			return NewArray(slices.Clone(x.items)), nil
		case BooleanT:
			return Bool(true), nil
		}
	default:
		if item.Type() == t {
			return item, nil
		}
		if t == BooleanT {
			return Bool(true), nil
		}
	}
	return nil, fmt.Errorf("%w: %s to %s", ErrInvalidCast, item.Type(), t)
}

func convertPrimitive(item Item, t Type) (Item, error) {
	if item.Type() == t {
		return item, nil
	}
	switch t {
	case IntegerT:
		return ToInteger(item)
	case ByteStringT:
		b, _ := item.TryBytes()
		return NewByteString(b), nil
	case BufferT:
		b, _ := item.TryBytes()
		return NewBuffer(slices.Clone(b)), nil
	case BooleanT:
		v, err := item.TryBool()
		if err != nil {
			return nil, err
		}
		return Bool(v), nil
	}
	return nil, fmt.Errorf("%w: %s to %s", ErrInvalidCast, item.Type(), t)
}

// intFromBytes decodes at most MaxIntegerSize bytes into an Integer.
func intFromBytes(b []byte) *Integer {
	if v, ok := bigint.Int64FromBytes(b); ok {
		return NewInt(v)
	}
	return &Integer{big: bigint.FromBytes(b)}
}

// ToInteger is C# GetInteger returning an Integer item: the item itself for
// an Integer, 0/1 for a Boolean, the decoded value of a ByteString of at
// most MaxIntegerSize bytes; ErrInvalidCast otherwise (Buffer included).
func ToInteger(item Item) (*Integer, error) {
	switch x := item.(type) {
	case *Integer:
		return x, nil
	case Bool:
		if x {
			return NewInt(1), nil
		}
		return NewInt(0), nil
	case *ByteString:
		if len(x.b) > MaxIntegerSize {
			return nil, x.tooBigForInt()
		}
		return intFromBytes(x.b), nil
	}
	return nil, fmt.Errorf("%w: %s to Integer", ErrInvalidCast, item.Type())
}

// ToString is C# GetString: the bytes of a primitive item or Buffer decoded
// as strict UTF-8. Null gives "" and false (C# returns null).
func ToString(item Item) (string, bool, error) {
	if _, ok := item.(Null); ok {
		return "", false, nil
	}
	b, err := item.TryBytes()
	if err != nil {
		return "", false, err
	}
	if !utf8.Valid(b) {
		return "", false, fmt.Errorf("%w: invalid UTF-8", ErrInvalidCast)
	}
	return string(b), true, nil
}

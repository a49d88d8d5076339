package stackitem

import (
	"fmt"
	"strings"
)

// Type is a stack item type, with the byte values of C# StackItemType.
type Type byte

// The stack item types.
const (
	AnyT        Type = 0x00
	PointerT    Type = 0x10
	BooleanT    Type = 0x20
	IntegerT    Type = 0x21
	ByteStringT Type = 0x28
	BufferT     Type = 0x30
	ArrayT      Type = 0x40
	StructT     Type = 0x41
	MapT        Type = 0x48
	InteropT    Type = 0x60
)

// String returns the C# enum name ("ByteString", "InteropInterface", ...).
func (t Type) String() string {
	switch t {
	case AnyT:
		return "Any"
	case PointerT:
		return "Pointer"
	case BooleanT:
		return "Boolean"
	case IntegerT:
		return "Integer"
	case ByteStringT:
		return "ByteString"
	case BufferT:
		return "Buffer"
	case ArrayT:
		return "Array"
	case StructT:
		return "Struct"
	case MapT:
		return "Map"
	case InteropT:
		return "InteropInterface"
	default:
		return fmt.Sprintf("%d", byte(t))
	}
}

// IsValid reports whether t is a defined StackItemType (Enum.IsDefined).
func (t Type) IsValid() bool {
	switch t {
	case AnyT, PointerT, BooleanT, IntegerT, ByteStringT, BufferT, ArrayT, StructT, MapT, InteropT:
		return true
	}
	return false
}

// IsPrimitive reports whether items of type t are PrimitiveType in C#
// (Boolean, Integer, ByteString).
func (t Type) IsPrimitive() bool {
	return t == BooleanT || t == IntegerT || t == ByteStringT
}

// FromString parses a type name case-insensitively. "Interop" is accepted for
// InteropInterface and "Null" for Any, as in the VM JSON tests and RPC.
func FromString(s string) (Type, error) {
	switch strings.ToLower(s) {
	case "any", "null":
		return AnyT, nil
	case "pointer":
		return PointerT, nil
	case "boolean":
		return BooleanT, nil
	case "integer":
		return IntegerT, nil
	case "bytestring", "bytearray":
		return ByteStringT, nil
	case "buffer":
		return BufferT, nil
	case "array":
		return ArrayT, nil
	case "struct":
		return StructT, nil
	case "map":
		return MapT, nil
	case "interopinterface", "interop":
		return InteropT, nil
	}
	return 0, fmt.Errorf("unknown stack item type %q", s)
}

package smartcontract

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ParamType is a contract parameter type (C# ContractParameterType), as used
// in manifests (method parameters and return types, event parameters) and
// in RPC contract parameters. The numeric values are the protocol's: they
// are stored in contract states.
type ParamType int

// Parameter types. UnknownType is neo-go's marker for "no valid type"; it is
// not a C# value but neo-go accepts it where it converts integers (see
// ConvertToParamType).
const (
	UnknownType          ParamType = -1
	AnyType              ParamType = 0x00
	BoolType             ParamType = 0x10
	IntegerType          ParamType = 0x11
	ByteArrayType        ParamType = 0x12
	StringType           ParamType = 0x13
	Hash160Type          ParamType = 0x14
	Hash256Type          ParamType = 0x15
	PublicKeyType        ParamType = 0x16
	SignatureType        ParamType = 0x17
	ArrayType            ParamType = 0x20
	MapType              ParamType = 0x22
	InteropInterfaceType ParamType = 0x30
	VoidType             ParamType = 0xff
)

// ErrUnknownParamType is returned for a name or value that is not a
// parameter type.
var ErrUnknownParamType = errors.New("unknown parameter type")

// String returns the C# name of the type ("Boolean", "ByteArray", ...), or ""
// for a value that is not a type (neo-go prints it that way too).
func (pt ParamType) String() string {
	switch pt {
	case SignatureType:
		return "Signature"
	case BoolType:
		return "Boolean"
	case IntegerType:
		return "Integer"
	case Hash160Type:
		return "Hash160"
	case Hash256Type:
		return "Hash256"
	case ByteArrayType:
		return "ByteArray"
	case PublicKeyType:
		return "PublicKey"
	case StringType:
		return "String"
	case ArrayType:
		return "Array"
	case MapType:
		return "Map"
	case InteropInterfaceType:
		return "InteropInterface"
	case VoidType:
		return "Void"
	case AnyType:
		return "Any"
	default:
		return ""
	}
}

// ParseParamType parses a type name as neo-go 0.120.0 does: case-insensitive,
// with the aliases bool, int, bytes, bytestring, filebytes, key and struct.
// Manifest JSON goes through it, so these aliases are accepted in deployed
// manifests exactly as neo-go accepts them.
func ParseParamType(typ string) (ParamType, error) {
	switch strings.ToLower(typ) {
	case "signature":
		return SignatureType, nil
	case "bool", "boolean":
		return BoolType, nil
	case "int", "integer":
		return IntegerType, nil
	case "hash160":
		return Hash160Type, nil
	case "hash256":
		return Hash256Type, nil
	case "bytes", "bytearray", "bytestring", "filebytes":
		return ByteArrayType, nil
	case "key", "publickey":
		return PublicKeyType, nil
	case "string":
		return StringType, nil
	case "array", "struct":
		return ArrayType, nil
	case "map":
		return MapType, nil
	case "interopinterface":
		return InteropInterfaceType, nil
	case "void":
		return VoidType, nil
	case "any":
		return AnyType, nil
	default:
		return UnknownType, fmt.Errorf("bad parameter type: %s", typ)
	}
}

// ConvertToParamType checks an integer read from a stored manifest. As in
// neo-go, UnknownType (-1) is accepted.
func ConvertToParamType(val int64) (ParamType, error) {
	switch pt := ParamType(val); pt {
	case UnknownType, AnyType, BoolType, IntegerType, ByteArrayType, StringType,
		Hash160Type, Hash256Type, PublicKeyType, SignatureType, ArrayType,
		MapType, InteropInterfaceType, VoidType:
		if int64(pt) == val {
			return pt, nil
		}
	}
	return UnknownType, ErrUnknownParamType
}

// MarshalJSON writes the type name.
func (pt ParamType) MarshalJSON() ([]byte, error) {
	return []byte(`"` + pt.String() + `"`), nil
}

// UnmarshalJSON parses a type name with ParseParamType.
func (pt *ParamType) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	p, err := ParseParamType(s)
	if err != nil {
		return err
	}
	*pt = p
	return nil
}

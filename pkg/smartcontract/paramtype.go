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

// Parameter types, grouped by what a value of the type holds. The numbers
// are C#'s ContractParameterType values.
const (
	// Anything at all, and nothing (a method's return type only).
	AnyType  ParamType = 0x00
	VoidType ParamType = 0xff

	// Containers and host objects.
	ArrayType            ParamType = 0x20
	MapType              ParamType = 0x22
	InteropInterfaceType ParamType = 0x30

	// Byte strings of a fixed length.
	Hash160Type   ParamType = 0x14
	Hash256Type   ParamType = 0x15
	PublicKeyType ParamType = 0x16
	SignatureType ParamType = 0x17

	// Plain values.
	BoolType      ParamType = 0x10
	IntegerType   ParamType = 0x11
	ByteArrayType ParamType = 0x12
	StringType    ParamType = 0x13
)

// UnknownType is neo-go's marker for "no valid type". It is not a C# value,
// but neo-go accepts it where it converts integers (see ConvertToParamType),
// and it prints as an empty name.
const UnknownType ParamType = -1

// ErrUnknownParamType is returned for a name or value that is not a
// parameter type.
var ErrUnknownParamType = errors.New("unknown parameter type")

// paramTypeInfo describes one type: its C# name (String, JSON) and the
// extra lower-case spellings ParseParamType accepts for it.
type paramTypeInfo struct {
	typ     ParamType
	name    string
	aliases []string
}

// paramTypeTable is the one list of parameter types and their names.
var paramTypeTable = [...]paramTypeInfo{
	{AnyType, "Any", nil},
	{BoolType, "Boolean", []string{"bool"}},
	{IntegerType, "Integer", []string{"int"}},
	{ByteArrayType, "ByteArray", []string{"bytes", "bytestring", "filebytes"}},
	{StringType, "String", nil},
	{Hash160Type, "Hash160", nil},
	{Hash256Type, "Hash256", nil},
	{PublicKeyType, "PublicKey", []string{"key"}},
	{SignatureType, "Signature", nil},
	{ArrayType, "Array", []string{"struct"}},
	{MapType, "Map", nil},
	{InteropInterfaceType, "InteropInterface", nil},
	{VoidType, "Void", nil},
}

// paramTypeNames maps ParamType to its name; paramTypeSpellings maps every
// accepted lower-case spelling to its type. Both are derived from
// paramTypeTable.
var paramTypeNames, paramTypeSpellings = indexParamTypes()

func indexParamTypes() (map[ParamType]string, map[string]ParamType) {
	names := make(map[ParamType]string, len(paramTypeTable))
	spellings := make(map[string]ParamType, 2*len(paramTypeTable))
	for _, info := range paramTypeTable {
		names[info.typ] = info.name
		spellings[strings.ToLower(info.name)] = info.typ
		for _, a := range info.aliases {
			spellings[a] = info.typ
		}
	}
	return names, spellings
}

// String returns the C# name of the type ("Boolean", "ByteArray", ...), or ""
// for a value that is not a type (neo-go prints it that way too).
func (pt ParamType) String() string { return paramTypeNames[pt] }

// ParseParamType parses a type name as neo-go 0.120.0 does: case-insensitive,
// with the aliases bool, int, bytes, bytestring, filebytes, key and struct.
// Manifest JSON goes through it, so these aliases are accepted in deployed
// manifests exactly as neo-go accepts them. The error text is neo-go's.
func ParseParamType(name string) (ParamType, error) {
	if pt, ok := paramTypeSpellings[strings.ToLower(name)]; ok {
		return pt, nil
	}
	return UnknownType, fmt.Errorf("bad parameter type: %s", name)
}

// ConvertToParamType checks an integer read from a stored manifest. As in
// neo-go, UnknownType (-1) is accepted.
func ConvertToParamType(val int64) (ParamType, error) {
	pt := ParamType(val)
	if int64(pt) == val {
		if _, named := paramTypeNames[pt]; named || pt == UnknownType {
			return pt, nil
		}
	}
	return UnknownType, ErrUnknownParamType
}

// MarshalJSON writes the type name as a JSON string.
func (pt ParamType) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "%q", pt.String()), nil
}

// UnmarshalJSON reads a JSON string and parses it with ParseParamType.
func (pt *ParamType) UnmarshalJSON(data []byte) error {
	var name string
	if err := json.Unmarshal(data, &name); err != nil {
		return err
	}
	parsed, err := ParseParamType(name)
	if err == nil {
		*pt = parsed
	}
	return err
}

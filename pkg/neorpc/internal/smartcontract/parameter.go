// Package smartcontract decodes contract parameters from JSON exactly as
// neo-go 0.120.0's smartcontract.Parameter does, with the same error texts.
// encoding/json names Go types in its errors ("[]smartcontract.Parameter"),
// hence this package's name. It is only used to decode subscription filters;
// the real contract parameter type lives elsewhere.
package smartcontract

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc/internal/util"
)

// ParamType is a contract parameter type (C# ContractParameterType).
type ParamType int

// Parameter types.
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

// String returns the C# name of the type, or "" for an unknown one.
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

// ParseParamType accepts neo-go's names and aliases, case-insensitively.
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

// MarshalJSON writes the type name.
func (pt ParamType) MarshalJSON() ([]byte, error) { return []byte(`"` + pt.String() + `"`), nil }

// UnmarshalJSON parses a type name.
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

// Parameter is a decoded parameter. Value is nil, bool, *big.Int, []byte
// (ByteArray, PublicKey, Signature), string, hash.Uint160, hash.Uint256,
// []Parameter or []ParameterPair.
type Parameter struct {
	Type  ParamType `json:"type"`
	Value any       `json:"value"`
}

// ParameterPair is a Map element.
type ParameterPair struct {
	Key   Parameter `json:"key"`
	Value Parameter `json:"value"`
}

type rawParameter struct {
	Type  ParamType       `json:"type"`
	Value json.RawMessage `json:"value,omitzero"`
}

// maxIntegerBits is the VM integer size limit (C# Integer.MaxSize, 32 bytes).
const maxIntegerBits = 32 * 8

// errTooBigInteger is neo-go's stackitem size error text.
var errTooBigInteger = fmt.Errorf("too big: integer")

// CheckIntegerSize reports whether v fits a 32-byte two's complement VM
// integer.
func CheckIntegerSize(v *big.Int) error {
	sz := v.BitLen()
	if sz < maxIntegerBits {
		return nil
	}
	if sz > maxIntegerBits || v.Sign() == 1 || v.TrailingZeroBits() != maxIntegerBits-1 {
		return errTooBigInteger
	}
	return nil
}

// UnmarshalJSON follows neo-go's smartcontract.Parameter.UnmarshalJSON.
func (p *Parameter) UnmarshalJSON(data []byte) (err error) {
	var (
		r       rawParameter
		i       int64
		s       string
		b       []byte
		boolean bool
	)
	if err = json.Unmarshal(data, &r); err != nil {
		return
	}
	p.Type = r.Type
	p.Value = nil
	if len(r.Value) == 0 || bytes.Equal(r.Value, []byte("null")) {
		return
	}
	switch r.Type {
	case BoolType:
		if err = json.Unmarshal(r.Value, &boolean); err != nil {
			return
		}
		p.Value = boolean
	case ByteArrayType, PublicKeyType, SignatureType:
		if err = json.Unmarshal(r.Value, &s); err != nil {
			return
		}
		if r.Type == PublicKeyType {
			b, err = hex.DecodeString(s)
		} else {
			b, err = base64.StdEncoding.DecodeString(s)
		}
		if err != nil {
			return
		}
		p.Value = b
	case StringType:
		if err = json.Unmarshal(r.Value, &s); err != nil {
			return
		}
		p.Value = s
	case IntegerType:
		if err = json.Unmarshal(r.Value, &i); err == nil {
			p.Value = big.NewInt(i)
			return
		}
		if jErr := json.Unmarshal(r.Value, &s); jErr != nil {
			return jErr
		}
		bi, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return err
		}
		err = CheckIntegerSize(bi)
		if err == nil {
			p.Value = bi
		}
	case ArrayType:
		var rs []Parameter
		if err = json.Unmarshal(r.Value, &rs); err != nil {
			return
		}
		p.Value = rs
	case MapType:
		var pp []ParameterPair
		if err = json.Unmarshal(r.Value, &pp); err != nil {
			return
		}
		p.Value = pp
	case Hash160Type:
		var h util.Uint160
		if err = json.Unmarshal(r.Value, &h); err != nil {
			return
		}
		p.Value = hash.Uint160(h)
	case Hash256Type:
		var h util.Uint256
		if err = json.Unmarshal(r.Value, &h); err != nil {
			return
		}
		p.Value = hash.Uint256(h)
	case InteropInterfaceType, AnyType:
		p.Value = nil
	default:
		return fmt.Errorf("can't unmarshal %s", p.Type)
	}
	return
}

package smartcontract

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/internal/neogotext/util"
)

// Parameter is a contract parameter (C# ContractParameter): a type and a
// value. It is the one parameter type of the node: RPC clients send it
// (invokefunction arguments), the server reads it (subscription filters),
// parameter contexts store it and the CLI parses it from "type:value"
// words (ParseParameter). Its JSON form is {"type": ..., "value": ...}.
//
// Value holds, by Type: bool (Boolean), *big.Int (Integer), []byte
// (ByteArray, Signature, PublicKey), string (String), hash.Uint160,
// hash.Uint256, []Parameter (Array), []ParameterPair (Map); nil is a
// parameter without a value (Any, or any type not set yet).
type Parameter struct {
	Type  ParamType
	Value any
}

// ParameterPair is one Map element.
type ParameterPair struct {
	Key   Parameter `json:"key"`
	Value Parameter `json:"value"`
}

// Constructors of the common parameters.
func NewIntParameter(v int64) Parameter            { return Parameter{IntegerType, big.NewInt(v)} }
func NewBigIntParameter(v *big.Int) Parameter      { return Parameter{IntegerType, v} }
func NewBoolParameter(v bool) Parameter            { return Parameter{BoolType, v} }
func NewStringParameter(v string) Parameter        { return Parameter{StringType, v} }
func NewBytesParameter(v []byte) Parameter         { return Parameter{ByteArrayType, v} }
func NewHash160Parameter(v hash.Uint160) Parameter { return Parameter{Hash160Type, v} }
func NewHash256Parameter(v hash.Uint256) Parameter { return Parameter{Hash256Type, v} }
func NewPublicKeyParameter(v []byte) Parameter     { return Parameter{PublicKeyType, v} }
func NewArrayParameter(v ...Parameter) Parameter   { return Parameter{ArrayType, v} }
func NewAnyParameter() Parameter                   { return Parameter{AnyType, nil} }
func NewSignatureParameter(v []byte) Parameter     { return Parameter{SignatureType, v} }
func NewMapParameter(v ...ParameterPair) Parameter { return Parameter{MapType, v} }

// ErrInvalidParameter is returned for a Parameter whose Value does not fit
// its Type.
var ErrInvalidParameter = errors.New("invalid contract parameter")

// rawParameter is the JSON object. Its name shows in encoding/json's
// error texts, which reach RPC clients (neo-go's type has the same name).
type rawParameter struct {
	Type  ParamType       `json:"type"`
	Value json.RawMessage `json:"value,omitzero"`
}

// MarshalJSON writes neo-go's form: Integer as a decimal string,
// ByteArray and Signature in base64, PublicKey in hex, hashes as "0x..."
// (reversed hex), Array and Map as lists; a nil Value omits "value".
func (p Parameter) MarshalJSON() ([]byte, error) {
	if p.Type.String() == "" {
		return nil, fmt.Errorf("%w: type %d", ErrInvalidParameter, int(p.Type))
	}
	if p.Value == nil {
		return json.Marshal(rawParameter{Type: p.Type})
	}
	v, err := p.jsonValue()
	if err != nil {
		return nil, err
	}
	return json.Marshal(rawParameter{Type: p.Type, Value: v})
}

// jsonValue is the JSON of a non-nil Value.
func (p Parameter) jsonValue() (json.RawMessage, error) {
	bad := fmt.Errorf("%w: %s with a %T value", ErrInvalidParameter, p.Type, p.Value)
	switch p.Type {
	case AnyType, InteropInterfaceType:
		return nil, nil
	case IntegerType:
		if n, ok := p.Value.(*big.Int); ok && n != nil {
			return json.RawMessage(`"` + n.String() + `"`), nil
		}
		return nil, bad
	case ByteArrayType, SignatureType, PublicKeyType:
		b, ok := p.Value.([]byte)
		if !ok {
			return nil, bad
		}
		if p.Type == PublicKeyType {
			return json.Marshal(hex.EncodeToString(b))
		}
		return json.Marshal(base64.StdEncoding.EncodeToString(b))
	case ArrayType:
		a, ok := p.Value.([]Parameter)
		if !ok {
			return nil, bad
		}
		return json.Marshal(append([]Parameter{}, a...))
	case MapType:
		m, ok := p.Value.([]ParameterPair)
		if !ok {
			return nil, bad
		}
		return json.Marshal(append([]ParameterPair{}, m...))
	}
	var ok bool
	switch p.Type {
	case BoolType:
		_, ok = p.Value.(bool)
	case StringType:
		_, ok = p.Value.(string)
	case Hash160Type:
		_, ok = p.Value.(hash.Uint160)
	case Hash256Type:
		_, ok = p.Value.(hash.Uint256)
	}
	if !ok {
		return nil, bad
	}
	return json.Marshal(p.Value)
}

// UnmarshalJSON reads the form neo-go 0.120.0 reads, with its error texts
// (RPC clients see them in subscription errors): the type is kept even
// when the value fails to decode, an absent or null value is nil for
// every type, and the value's form depends on the type (valueDecoders).
func (p *Parameter) UnmarshalJSON(data []byte) error {
	var r rawParameter
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	p.Type, p.Value = r.Type, nil
	if len(r.Value) == 0 || string(r.Value) == "null" {
		return nil
	}
	decode, ok := valueDecoders[r.Type]
	if !ok {
		return fmt.Errorf("can't unmarshal %s", r.Type)
	}
	v, err := decode(r.Value)
	if err == nil {
		p.Value = v
	}
	return err
}

// valueDecoder turns the raw JSON value of a parameter into its Go value.
type valueDecoder func(json.RawMessage) (any, error)

// valueDecoders has one entry per type with a JSON value.
var valueDecoders map[ParamType]valueDecoder

func init() {
	valueDecoders = map[ParamType]valueDecoder{
		AnyType:              ignoredValue,
		InteropInterfaceType: ignoredValue,
		BoolType:             plainValue[bool],
		StringType:           plainValue[string],
		IntegerType:          integerValue,
		ByteArrayType:        encodedBytes(base64.StdEncoding.DecodeString),
		SignatureType:        encodedBytes(base64.StdEncoding.DecodeString),
		PublicKeyType:        encodedBytes(hex.DecodeString),
		// util's hashes word their errors as neo-go's do.
		Hash160Type: convertedValue(func(u util.Uint160) hash.Uint160 { return hash.Uint160(u) }),
		Hash256Type: convertedValue(func(u util.Uint256) hash.Uint256 { return hash.Uint256(u) }),
		ArrayType:   plainValue[[]Parameter],
		MapType:     plainValue[[]ParameterPair],
	}
}

// ignoredValue drops the value (Any and InteropInterface decode to nil).
func ignoredValue(json.RawMessage) (any, error) { return nil, nil }

// plainValue decodes the value as a T.
func plainValue[T any](raw json.RawMessage) (any, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// convertedValue decodes the value as a T and converts it with conv.
func convertedValue[T, V any](conv func(T) V) valueDecoder {
	return func(raw json.RawMessage) (any, error) {
		var v T
		err := json.Unmarshal(raw, &v)
		return conv(v), err
	}
}

// encodedBytes decodes a JSON string with dec (base64 or hex).
func encodedBytes(dec func(string) ([]byte, error)) valueDecoder {
	return func(raw json.RawMessage) (any, error) {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return dec(s)
	}
}

// integerValue accepts a JSON number that fits int64 or a decimal string
// within the VM integer size. For a string that is not a decimal number,
// the error is the one from reading the value as a number (neo-go's
// quirk).
func integerValue(raw json.RawMessage) (any, error) {
	var i int64
	numErr := json.Unmarshal(raw, &i)
	if numErr == nil {
		return big.NewInt(i), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	bi, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, numErr
	}
	if err := CheckIntegerSize(bi); err != nil {
		return nil, err
	}
	return bi, nil
}

// maxIntegerBits is the VM integer size limit (C# Integer.MaxSize, 32 bytes).
const maxIntegerBits = 32 * 8

// errTooBigInteger is neo-go's stackitem size error text.
var errTooBigInteger = errors.New("too big: integer")

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

// Emitable returns the value in the form emit.Any pushes: arrays become
// []any, everything else is Value itself. Maps, interop interfaces and
// void cannot be pushed.
func (p Parameter) Emitable() (any, error) {
	switch p.Type {
	case ArrayType:
		a, ok := p.Value.([]Parameter)
		if !ok && p.Value != nil {
			return nil, fmt.Errorf("%w: Array with a %T value", ErrInvalidParameter, p.Value)
		}
		out := make([]any, len(a))
		for i := range a {
			var err error
			if out[i], err = a[i].Emitable(); err != nil {
				return nil, err
			}
		}
		return out, nil
	case MapType, InteropInterfaceType, VoidType, UnknownType:
		return nil, fmt.Errorf("%w: %s cannot be pushed", ErrInvalidParameter, p.Type)
	}
	return p.Value, nil
}

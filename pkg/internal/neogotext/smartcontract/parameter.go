// Package smartcontract decodes contract parameters from JSON exactly as
// neo-go 0.120.0's smartcontract.Parameter does, with the same error texts.
// encoding/json names Go types in its errors ("[]smartcontract.Parameter"),
// hence this package's name. It is only used to decode subscription filters;
// the real contract parameter type lives elsewhere.
package smartcontract

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/internal/neogotext/util"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// ParamType is pkg/smartcontract's type (the same package name, so
// encoding/json's messages read the same).
type ParamType = smartcontract.ParamType

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

// UnmarshalJSON follows neo-go's smartcontract.Parameter.UnmarshalJSON: the
// type is kept even when the value fails to decode, an absent or null value
// is nil for every type, and the value's form depends on the type (see
// valueDecoders).
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

// valueDecoders has one entry per type neo-go decodes.
var valueDecoders map[ParamType]valueDecoder

func init() {
	valueDecoders = map[ParamType]valueDecoder{
		smartcontract.AnyType:              nothing,
		smartcontract.InteropInterfaceType: nothing,
		smartcontract.BoolType:             plain[bool],
		smartcontract.StringType:           plain[string],
		smartcontract.IntegerType:          integer,
		smartcontract.ByteArrayType:        encodedBytes(base64.StdEncoding.DecodeString),
		smartcontract.SignatureType:        encodedBytes(base64.StdEncoding.DecodeString),
		smartcontract.PublicKeyType:        encodedBytes(hex.DecodeString),
		smartcontract.Hash160Type:          converted(func(u util.Uint160) hash.Uint160 { return hash.Uint160(u) }),
		smartcontract.Hash256Type:          converted(func(u util.Uint256) hash.Uint256 { return hash.Uint256(u) }),
		smartcontract.ArrayType:            plain[[]Parameter],
		smartcontract.MapType:              plain[[]ParameterPair],
	}
}

// nothing ignores the value (Any and InteropInterface decode to nil).
func nothing(json.RawMessage) (any, error) { return nil, nil }

// plain decodes the value as a T.
func plain[T any](raw json.RawMessage) (any, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// converted decodes the value as a T and converts it with conv.
func converted[T, V any](conv func(T) V) valueDecoder {
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

// integer accepts a JSON number that fits int64 or a decimal string within
// the VM integer size. For a string that is not a decimal number, the error
// is the one from reading the value as a number (neo-go's quirk).
func integer(raw json.RawMessage) (any, error) {
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

package rpcclient

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Param is a contract parameter for invokefunction, in neo-go's
// smartcontract.Parameter JSON form {"type": ..., "value": ...}.
//
// Value holds, by Type: bool (Boolean), *big.Int (Integer), []byte
// (ByteArray, Signature, PublicKey), string (String), hash.Uint160,
// hash.Uint256, []Param (Array), []ParamPair (Map), nil (Any, or any type
// without a value).
type Param struct {
	Type  smartcontract.ParamType
	Value any
}

// ParamPair is one Map element.
type ParamPair struct {
	Key   Param `json:"key"`
	Value Param `json:"value"`
}

// Constructors of common parameters.
func ParamInt(v int64) Param            { return Param{smartcontract.IntegerType, big.NewInt(v)} }
func ParamBigInt(v *big.Int) Param      { return Param{smartcontract.IntegerType, v} }
func ParamBool(v bool) Param            { return Param{smartcontract.BoolType, v} }
func ParamString(v string) Param        { return Param{smartcontract.StringType, v} }
func ParamBytes(v []byte) Param         { return Param{smartcontract.ByteArrayType, v} }
func ParamHash160(v hash.Uint160) Param { return Param{smartcontract.Hash160Type, v} }
func ParamHash256(v hash.Uint256) Param { return Param{smartcontract.Hash256Type, v} }
func ParamPublicKey(v []byte) Param     { return Param{smartcontract.PublicKeyType, v} }
func ParamArray(v ...Param) Param       { return Param{smartcontract.ArrayType, v} }
func ParamAny() Param                   { return Param{smartcontract.AnyType, nil} }

// ErrParam is returned for a Param whose Value does not fit its Type.
var ErrParam = errors.New("invalid contract parameter")

// MarshalJSON writes neo-go's form: Integer as a decimal string,
// ByteArray and Signature in base64, PublicKey in hex, hashes as "0x..."
// (reversed hex), Array and Map as lists; a nil Value omits "value".
func (p Param) MarshalJSON() ([]byte, error) {
	type raw struct {
		Type  smartcontract.ParamType `json:"type"`
		Value json.RawMessage         `json:"value,omitempty"`
	}
	if p.Type.String() == "" {
		return nil, fmt.Errorf("%w: type %d", ErrParam, int(p.Type))
	}
	if p.Value == nil {
		return json.Marshal(raw{Type: p.Type})
	}
	var (
		v   []byte
		err error
		bad bool
	)
	switch p.Type {
	case smartcontract.BoolType:
		b, ok := p.Value.(bool)
		bad = !ok
		v, err = json.Marshal(b)
	case smartcontract.StringType:
		s, ok := p.Value.(string)
		bad = !ok
		v, err = json.Marshal(s)
	case smartcontract.Hash160Type:
		u, ok := p.Value.(hash.Uint160)
		bad = !ok
		v, err = u.MarshalJSON()
	case smartcontract.Hash256Type:
		u, ok := p.Value.(hash.Uint256)
		bad = !ok
		v, err = u.MarshalJSON()
	case smartcontract.IntegerType:
		n, ok := p.Value.(*big.Int)
		bad = !ok
		if ok {
			v = []byte(`"` + n.String() + `"`)
		}
	case smartcontract.ByteArrayType, smartcontract.SignatureType:
		b, ok := p.Value.([]byte)
		bad = !ok
		v, err = json.Marshal(base64.StdEncoding.EncodeToString(b))
	case smartcontract.PublicKeyType:
		b, ok := p.Value.([]byte)
		bad = !ok
		v, err = json.Marshal(hex.EncodeToString(b))
	case smartcontract.ArrayType:
		a, ok := p.Value.([]Param)
		bad = !ok
		if a == nil {
			a = []Param{}
		}
		v, err = json.Marshal(a)
	case smartcontract.MapType:
		m, ok := p.Value.([]ParamPair)
		bad = !ok
		if m == nil {
			m = []ParamPair{}
		}
		v, err = json.Marshal(m)
	case smartcontract.AnyType, smartcontract.InteropInterfaceType:
		v = nil
	default:
		bad = true
	}
	if bad {
		return nil, fmt.Errorf("%w: %s with a %T value", ErrParam, p.Type, p.Value)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(raw{Type: p.Type, Value: v})
}

// Emitable returns the value in the form emit.Any pushes: arrays become
// []any, everything else is Value itself. Maps, interop interfaces and
// void cannot be pushed.
func (p Param) Emitable() (any, error) {
	switch p.Type {
	case smartcontract.ArrayType:
		a, ok := p.Value.([]Param)
		if !ok && p.Value != nil {
			return nil, fmt.Errorf("%w: Array with a %T value", ErrParam, p.Value)
		}
		out := make([]any, len(a))
		for i := range a {
			var err error
			if out[i], err = a[i].Emitable(); err != nil {
				return nil, err
			}
		}
		return out, nil
	case smartcontract.MapType, smartcontract.InteropInterfaceType, smartcontract.VoidType, smartcontract.UnknownType:
		return nil, fmt.Errorf("%w: %s cannot be pushed", ErrParam, p.Type)
	}
	return p.Value, nil
}

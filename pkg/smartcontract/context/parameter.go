package context

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// MaxIntegerSize is the largest integer parameter in bytes (C# Integer.MaxSize).
const MaxIntegerSize = 32

// maxParameterDepth bounds nested Array and Map parameters in untrusted
// files.
const maxParameterDepth = 16

// ErrInvalidParameter is returned for a parameter whose value does not
// match its type.
var ErrInvalidParameter = errors.New("invalid contract parameter")

// Parameter is one contract parameter of a context item.
type Parameter struct {
	Type smartcontract.ParamType
	// Value is the value of a Signature, ByteArray or PublicKey
	// parameter; nil while unset.
	Value []byte
	// Raw is the JSON value of a parameter of any other type, kept
	// verbatim (compacted); nil while unset.
	Raw json.RawMessage
}

// IsSet reports whether the parameter has a value.
func (p *Parameter) IsSet() bool { return p.Value != nil || p.Raw != nil }

type parameterJSON struct {
	Type  smartcontract.ParamType `json:"type"`
	Value json.RawMessage         `json:"value,omitempty"`
}

// MarshalJSON writes {"type": ..., "value": ...}, without "value" when
// unset (as C# and neo-go do).
func (p Parameter) MarshalJSON() ([]byte, error) {
	if p.Type.String() == "" {
		return nil, fmt.Errorf("%w: type %d", ErrInvalidParameter, p.Type)
	}
	j := parameterJSON{Type: p.Type}
	switch {
	case p.Value != nil && p.Type == smartcontract.PublicKeyType:
		j.Value, _ = json.Marshal(hex.EncodeToString(p.Value))
	case p.Value != nil:
		j.Value, _ = json.Marshal(base64.StdEncoding.EncodeToString(p.Value))
	case p.Raw != nil:
		j.Value = p.Raw
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads and validates a parameter.
func (p *Parameter) UnmarshalJSON(data []byte) error { return p.decode(data, 0) }

func (p *Parameter) decode(data []byte, depth int) error {
	if depth > maxParameterDepth {
		return fmt.Errorf("%w: nested too deep", ErrInvalidParameter)
	}
	var j parameterJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*p = Parameter{Type: j.Type}
	if len(j.Value) == 0 || bytes.Equal(j.Value, []byte("null")) {
		return nil
	}
	bad := func(err error) error {
		return fmt.Errorf("%w: %s value: %w", ErrInvalidParameter, j.Type, err)
	}
	switch j.Type {
	case smartcontract.SignatureType, smartcontract.ByteArrayType, smartcontract.PublicKeyType:
		var s string
		if err := json.Unmarshal(j.Value, &s); err != nil {
			return bad(err)
		}
		var b []byte
		var err error
		if j.Type == smartcontract.PublicKeyType {
			b, err = hex.DecodeString(s)
		} else {
			b, err = base64.StdEncoding.DecodeString(s)
		}
		if err != nil {
			return bad(err)
		}
		if b == nil {
			b = []byte{}
		}
		p.Value = b
		return nil
	case smartcontract.BoolType:
		var v bool
		if err := json.Unmarshal(j.Value, &v); err != nil {
			return bad(err)
		}
	case smartcontract.StringType:
		var v string
		if err := json.Unmarshal(j.Value, &v); err != nil {
			return bad(err)
		}
	case smartcontract.IntegerType:
		if _, err := parseInteger(j.Value); err != nil {
			return bad(err)
		}
	case smartcontract.Hash160Type:
		var v hash.Uint160
		if err := json.Unmarshal(j.Value, &v); err != nil {
			return bad(err)
		}
	case smartcontract.Hash256Type:
		var v hash.Uint256
		if err := json.Unmarshal(j.Value, &v); err != nil {
			return bad(err)
		}
	case smartcontract.ArrayType:
		var items []json.RawMessage
		if err := json.Unmarshal(j.Value, &items); err != nil {
			return bad(err)
		}
		for _, it := range items {
			var sub Parameter
			if err := sub.decode(it, depth+1); err != nil {
				return err
			}
		}
	case smartcontract.MapType:
		var pairs []struct {
			Key   json.RawMessage `json:"key"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(j.Value, &pairs); err != nil {
			return bad(err)
		}
		for _, kv := range pairs {
			var k, v Parameter
			if err := k.decode(kv.Key, depth+1); err != nil {
				return err
			}
			if err := v.decode(kv.Value, depth+1); err != nil {
				return err
			}
		}
	case smartcontract.AnyType, smartcontract.InteropInterfaceType:
		// neo-go ignores their values (they can only be null).
		return nil
	default:
		return fmt.Errorf("%w: can't unmarshal %s", ErrInvalidParameter, j.Type)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, j.Value); err != nil {
		return bad(err)
	}
	p.Raw = buf.Bytes()
	return nil
}

// parseInteger reads an Integer value: a JSON number or a decimal string
// of at most MaxIntegerSize bytes.
func parseInteger(raw json.RawMessage) (*big.Int, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, err
		}
		s = n.String()
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("not an integer: %q", s)
	}
	if len(twosComplementLE(v)) > MaxIntegerSize {
		return nil, fmt.Errorf("integer too big")
	}
	return v, nil
}

// VM opcodes used for pushing parameters.
const (
	opPushInt8  = 0x00
	opPushT     = 0x08
	opPushF     = 0x09
	opPushData1 = 0x0c
	opPushData2 = 0x0d
	opPushData4 = 0x0e
	opPushM1    = 0x0f
	opPush0     = 0x10
)

// appendPush appends the instruction that pushes p, as C#
// ScriptBuilder.EmitPush(ContractParameter) does for the scalar types.
func appendPush(s []byte, p *Parameter) ([]byte, error) {
	if p.Value != nil {
		return appendPushBytes(s, p.Value), nil
	}
	switch p.Type {
	case smartcontract.BoolType:
		var v bool
		_ = json.Unmarshal(p.Raw, &v)
		if v {
			return append(s, opPushT), nil
		}
		return append(s, opPushF), nil
	case smartcontract.IntegerType:
		v, err := parseInteger(p.Raw)
		if err != nil {
			return nil, err
		}
		return appendPushInt(s, v), nil
	case smartcontract.StringType:
		var v string
		_ = json.Unmarshal(p.Raw, &v)
		if !utf8.ValidString(v) {
			return nil, fmt.Errorf("%w: invalid UTF-8", ErrInvalidParameter)
		}
		return appendPushBytes(s, []byte(v)), nil
	case smartcontract.Hash160Type:
		var v hash.Uint160
		_ = json.Unmarshal(p.Raw, &v)
		return appendPushBytes(s, v[:]), nil
	case smartcontract.Hash256Type:
		var v hash.Uint256
		_ = json.Unmarshal(p.Raw, &v)
		return appendPushBytes(s, v[:]), nil
	}
	return nil, fmt.Errorf("%w: can't push a %s parameter", ErrInvalidParameter, p.Type)
}

func appendPushBytes(s, b []byte) []byte {
	n := len(b)
	switch {
	case n < 0x100:
		s = append(s, opPushData1, byte(n))
	case n < 0x10000:
		s = append(s, opPushData2, byte(n), byte(n>>8))
	default:
		s = append(s, opPushData4, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
	return append(s, b...)
}

// appendPushInt follows C# ScriptBuilder.EmitPush(BigInteger).
func appendPushInt(s []byte, v *big.Int) []byte {
	if v.IsInt64() && v.Int64() >= -1 && v.Int64() <= 16 {
		return append(s, byte(opPush0+v.Int64()))
	}
	b := twosComplementLE(v)
	op, size := byte(opPushInt8), 1
	for size < len(b) {
		op++
		size *= 2
	}
	pad := byte(0)
	if v.Sign() < 0 {
		pad = 0xff
	}
	s = append(s, op)
	s = append(s, b...)
	for range size - len(b) {
		s = append(s, pad)
	}
	return s
}

// twosComplementLE returns v's minimal two's complement little-endian
// bytes (C# BigInteger.ToByteArray).
func twosComplementLE(v *big.Int) []byte {
	if v.Sign() == 0 {
		return []byte{0}
	}
	var b []byte
	if v.Sign() > 0 {
		be := v.Bytes()
		b = make([]byte, len(be), len(be)+1)
		for i := range be {
			b[i] = be[len(be)-1-i]
		}
		if b[len(b)-1]&0x80 != 0 {
			b = append(b, 0)
		}
		return b
	}
	// -v - 1, complemented.
	m := new(big.Int).Neg(v)
	m.Sub(m, big.NewInt(1))
	be := m.Bytes()
	b = make([]byte, len(be), len(be)+1)
	for i := range be {
		b[i] = ^be[len(be)-1-i]
	}
	if len(b) == 0 || b[len(b)-1]&0x80 == 0 {
		b = append(b, 0xff)
	}
	return b
}

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

	nio "github.com/n3node/n3node/pkg/io"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
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
	if len(bigint.ToBytes(v)) > MaxIntegerSize {
		return nil, fmt.Errorf("integer too big")
	}
	return v, nil
}

// emitPush emits the instruction that pushes p, as C#
// ScriptBuilder.EmitPush(ContractParameter) does for the scalar types.
func emitPush(w *nio.BinWriter, p *Parameter) error {
	if p.Value != nil {
		emit.Bytes(w, p.Value)
		return nil
	}
	switch p.Type {
	case smartcontract.BoolType:
		var v bool
		_ = json.Unmarshal(p.Raw, &v)
		emit.Bool(w, v)
	case smartcontract.IntegerType:
		v, err := parseInteger(p.Raw)
		if err != nil {
			return err
		}
		emit.BigInt(w, v)
	case smartcontract.StringType:
		var v string
		_ = json.Unmarshal(p.Raw, &v)
		if !utf8.ValidString(v) {
			return fmt.Errorf("%w: invalid UTF-8", ErrInvalidParameter)
		}
		emit.String(w, v)
	case smartcontract.Hash160Type:
		var v hash.Uint160
		_ = json.Unmarshal(p.Raw, &v)
		emit.Bytes(w, v[:])
	case smartcontract.Hash256Type:
		var v hash.Uint256
		_ = json.Unmarshal(p.Raw, &v)
		emit.Bytes(w, v[:])
	default:
		return fmt.Errorf("%w: can't push a %s parameter", ErrInvalidParameter, p.Type)
	}
	return nil
}

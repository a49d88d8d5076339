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
	case smartcontract.BoolType:
		if err = json.Unmarshal(r.Value, &boolean); err != nil {
			return
		}
		p.Value = boolean
	case smartcontract.ByteArrayType, smartcontract.PublicKeyType, smartcontract.SignatureType:
		if err = json.Unmarshal(r.Value, &s); err != nil {
			return
		}
		if r.Type == smartcontract.PublicKeyType {
			b, err = hex.DecodeString(s)
		} else {
			b, err = base64.StdEncoding.DecodeString(s)
		}
		if err != nil {
			return
		}
		p.Value = b
	case smartcontract.StringType:
		if err = json.Unmarshal(r.Value, &s); err != nil {
			return
		}
		p.Value = s
	case smartcontract.IntegerType:
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
	case smartcontract.ArrayType:
		var rs []Parameter
		if err = json.Unmarshal(r.Value, &rs); err != nil {
			return
		}
		p.Value = rs
	case smartcontract.MapType:
		var pp []ParameterPair
		if err = json.Unmarshal(r.Value, &pp); err != nil {
			return
		}
		p.Value = pp
	case smartcontract.Hash160Type:
		var h util.Uint160
		if err = json.Unmarshal(r.Value, &h); err != nil {
			return
		}
		p.Value = hash.Uint160(h)
	case smartcontract.Hash256Type:
		var h util.Uint256
		if err = json.Unmarshal(r.Value, &h); err != nil {
			return
		}
		p.Value = hash.Uint256(h)
	case smartcontract.InteropInterfaceType, smartcontract.AnyType:
		p.Value = nil
	default:
		return fmt.Errorf("can't unmarshal %s", p.Type)
	}
	return
}

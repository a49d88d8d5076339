package smartcontract

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/encoding/bigint"
)

// fileBytesType is the pseudo-type of a ByteArray read from a file.
const fileBytesType = "filebytes"

// ParseParameter reads a parameter in the command line's form: one
// "type:value" or untyped word (neo-go's syntax, described in the CLI's
// help; internal/neogodiff/cli compares it with neo-go's parser). The
// type "filebytes" reads a ByteArray from the file named by the value.
func ParseParameter(in string) (Parameter, error) {
	if !utf8.ValidString(in) {
		return Parameter{}, errors.New("bad UTF-8 string")
	}
	var (
		buf     strings.Builder
		escaped bool
		hadType bool
		typStr  string
		typ     ParamType
	)
	for _, ch := range in {
		if ch == '\\' && !escaped {
			escaped = true
			continue
		}
		if ch == ':' && !escaped && !hadType {
			typStr = buf.String()
			var err error
			if typ, err = ParseParamType(typStr); err != nil {
				return Parameter{}, err
			}
			switch typ {
			case ArrayType, MapType, InteropInterfaceType, VoidType:
				return Parameter{}, fmt.Errorf("unsupported parameter type %s", typ)
			}
			buf.Reset()
			hadType = true
			continue
		}
		escaped = false
		buf.WriteRune(ch)
	}
	val := buf.String()
	if !hadType {
		typ = inferParamType(val)
	}
	if typ == ByteArrayType && strings.EqualFold(typStr, fileBytesType) {
		b, err := os.ReadFile(val)
		if err != nil {
			return Parameter{}, fmt.Errorf("failed to read '%s' parameter from file '%s': %w", fileBytesType, val, err)
		}
		return NewBytesParameter(b), nil
	}
	v, err := wordValue(typ, val)
	if err != nil {
		return Parameter{}, err
	}
	return Parameter{Type: typ, Value: v}, nil
}

// vmInteger reads a decimal integer that fits a VM integer.
func vmInteger(s string) (*big.Int, bool) {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || bigint.Len(n) > bigint.MaxBytesLen {
		return nil, false
	}
	return n, true
}

// wordValues read the value of a word of each type the command line
// takes.
var wordValues = map[ParamType]func(string) (any, error){
	AnyType:    func(string) (any, error) { return nil, nil },
	StringType: func(s string) (any, error) { return s, nil },
	BoolType: func(s string) (any, error) {
		if b, ok := map[string]bool{"true": true, "false": false}[s]; ok {
			return b, nil
		}
		return nil, errors.New("invalid boolean value")
	},
	IntegerType: func(s string) (any, error) {
		if n, ok := vmInteger(s); ok {
			return n, nil
		}
		return nil, errors.New("invalid integer value")
	},
	ByteArrayType: func(s string) (any, error) { return hex.DecodeString(s) },
	SignatureType: func(s string) (any, error) {
		sig, err := hex.DecodeString(s)
		if err == nil && len(sig) != 64 {
			err = errors.New("not a signature")
		}
		if err != nil {
			return nil, err
		}
		return sig, nil
	},
	// An address or a script hash (LE hex).
	Hash160Type: func(s string) (any, error) {
		u, err := address.ToUint160(s)
		if err != nil {
			return hash.Uint160DecodeStringLE(s)
		}
		return u, nil
	},
	Hash256Type: func(s string) (any, error) { return hash.Uint256DecodeStringLE(s) },
	// Any key form; the value is the compressed key.
	PublicKeyType: func(s string) (any, error) {
		k, err := keys.NewPublicKeyFromString(s)
		if err != nil {
			return nil, err
		}
		return k.Bytes(), nil
	},
}

// wordValue reads the value of a word of type typ.
func wordValue(typ ParamType, val string) (any, error) {
	read, ok := wordValues[typ]
	if !ok {
		return nil, errors.New("unsupported parameter type")
	}
	return read(val)
}

func inferParamType(val string) ParamType {
	if _, ok := vmInteger(val); ok {
		return IntegerType
	}
	switch val {
	case "nil":
		return AnyType
	case "true", "false":
		return BoolType
	}
	if _, err := address.ToUint160(val); err == nil {
		return Hash160Type
	}
	if _, err := keys.NewPublicKeyFromString(val); err == nil {
		return PublicKeyType
	}
	if b, err := hex.DecodeString(val); err == nil {
		switch len(b) {
		case hash.Uint160Size:
			return Hash160Type
		case hash.Uint256Size:
			return Hash256Type
		case 64:
			return SignatureType
		}
		return ByteArrayType
	}
	return StringType
}

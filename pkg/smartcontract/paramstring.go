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
	v, err := paramValue(typ, val)
	if err != nil {
		return Parameter{}, err
	}
	return Parameter{Type: typ, Value: v}, nil
}

func vmInteger(s string) (*big.Int, bool) {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || bigint.Len(n) > bigint.MaxBytesLen {
		return nil, false
	}
	return n, true
}

func paramValue(typ ParamType, val string) (any, error) {
	switch typ {
	case SignatureType:
		b, err := hex.DecodeString(val)
		if err != nil {
			return nil, err
		}
		if len(b) != 64 {
			return nil, errors.New("not a signature")
		}
		return b, nil
	case BoolType:
		switch val {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, errors.New("invalid boolean value")
	case IntegerType:
		n, ok := vmInteger(val)
		if !ok {
			return nil, errors.New("invalid integer value")
		}
		return n, nil
	case Hash160Type:
		if u, err := address.ToUint160(val); err == nil {
			return u, nil
		}
		return hash.Uint160DecodeStringLE(val)
	case Hash256Type:
		return hash.Uint256DecodeStringLE(val)
	case ByteArrayType:
		return hex.DecodeString(val)
	case PublicKeyType:
		pub, err := keys.NewPublicKeyFromString(val)
		if err != nil {
			return nil, err
		}
		return pub.Bytes(), nil
	case StringType:
		return val, nil
	case AnyType:
		return nil, nil
	}
	return nil, errors.New("unsupported parameter type")
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

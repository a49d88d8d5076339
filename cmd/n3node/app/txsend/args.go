package txsend

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Command-line contract arguments and signers, in neo-go's CLI syntax
// (cli/cmdargs, smartcontract.NewParameterFromString).

const (
	CosignersSeparator = "--"
	arrayStart         = "["
	arrayEnd           = "]"
	fileBytesType      = "filebytes"
)

const ParamsDoc = `Arguments are contract parameters, typed explicitly as "type:value" or
   inferred from the value. Types: signature, bool, int, hash160, hash256,
   bytes (hex), filebytes (bytes read from a file), key (public key hex),
   string, any. "nil" is a null (Any) parameter; '[' and ']' (separate words)
   enclose arrays, which nest. Untyped values: decimal integers are int,
   true/false bool, addresses and 20-byte hex hash160, public keys key,
   32-byte hex hash256, 64-byte hex signature, other hex bytes, anything else
   string. A backslash escapes the next character ('string\:x' is the
   string "string:x").
   Examples: int:42 42 nil bad dead string:dead NSiVJYZej4XsxG5CUpdwn7VRQk8iiiDMPM [ a b [ c ] ]`

const SignersDoc = `Signers follow '--' as address[:scopes], where the address is an N3
   address or a 20-byte hash (LE hex, optional 0x) and scopes a comma-separated
   list of None, CalledByEntry, Global, CustomContracts:<hash>[:<hash>...],
   CustomGroups:<key>[:<key>...] (default CalledByEntry). The first signer is
   the sender.`

// ParseAddress reads an N3 address or a script hash in LE hex (with or
// without 0x), as neo-go's flags.ParseAddress.
func ParseAddress(s string) (hash.Uint160, error) {
	switch len(s) {
	case 2 * hash.Uint160Size, 2*hash.Uint160Size + 2:
		return hash.Uint160DecodeStringLE(strings.TrimPrefix(s, "0x"))
	}
	u, err := address.ToUint160(s)
	if err != nil {
		return hash.Uint160{}, fmt.Errorf("%q is neither an address nor a script hash: %w", s, err)
	}
	return u, nil
}

// parseCosigner reads address[:scopes].
func parseCosigner(s string) (transaction.Signer, error) {
	res := transaction.Signer{Scopes: transaction.CalledByEntry}
	addr, scopes, _ := strings.Cut(s, ":")
	var err error
	if res.Account, err = ParseAddress(addr); err != nil {
		return res, err
	}
	if scopes == "" {
		return res, nil
	}
	res.Scopes = 0
	for _, part := range strings.Split(scopes, ",") {
		sub := strings.Split(part, ":")
		scope, err := transaction.ScopesFromString(sub[0])
		if err != nil {
			return transaction.Signer{}, err
		}
		if scope == transaction.Global && res.Scopes&^transaction.Global != 0 ||
			scope != transaction.Global && res.Scopes&transaction.Global != 0 {
			return transaction.Signer{}, errors.New("'Global' scope can not be combined with other scopes")
		}
		res.Scopes |= scope
		switch scope {
		case transaction.CustomContracts:
			if len(sub) == 1 {
				return transaction.Signer{}, errors.New("CustomContracts scope must refer to at least one contract")
			}
			for _, c := range sub[1:] {
				h, err := ParseAddress(c)
				if err != nil {
					return transaction.Signer{}, err
				}
				res.AllowedContracts = append(res.AllowedContracts, h)
			}
		case transaction.CustomGroups:
			if len(sub) == 1 {
				return transaction.Signer{}, errors.New("CustomGroups scope must refer to at least one group")
			}
			for _, g := range sub[1:] {
				pub, err := keys.NewPublicKeyFromString(g)
				if err != nil {
					return transaction.Signer{}, err
				}
				res.AllowedGroups = append(res.AllowedGroups, pub)
			}
		}
	}
	return res, nil
}

// ParseSigners reads a list of signers.
func ParseSigners(args []string) ([]transaction.Signer, error) {
	var out []transaction.Signer
	for i, a := range args {
		s, err := parseCosigner(a)
		if err != nil {
			return nil, fmt.Errorf("failed to parse signer #%d: %w", i, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// ParseParams reads parameters up to a "--" (top level only) and returns
// how many words it used (including the "--"). A leading signer-like word
// that is no parameter stops parsing with nothing read: the command line
// library drops a "--" that comes before any other argument, so
// "-- addr:Global" arrives as "addr:Global".
func ParseParams(args []string, top bool) (int, []rpcclient.Param, error) {
	res := []rpcclient.Param{}
	for k := 0; k < len(args); {
		switch s := args[k]; s {
		case CosignersSeparator:
			if top {
				return k + 1, res, nil
			}
			return 0, nil, errors.New("invalid array syntax: missing closing bracket")
		case arrayStart:
			n, arr, err := ParseParams(args[k+1:], false)
			if err != nil {
				return 0, nil, fmt.Errorf("failed to parse array: %w", err)
			}
			res = append(res, rpcclient.ParamArray(arr...))
			k += 1 + n
		case arrayEnd:
			if top {
				return 0, nil, errors.New("invalid array syntax: missing opening bracket")
			}
			return k + 1, res, nil
		default:
			p, err := NewParamFromString(s)
			if err != nil {
				if k == 0 && top {
					if _, serr := parseCosigner(s); serr == nil {
						return 0, nil, nil
					}
				}
				return 0, nil, fmt.Errorf("failed to parse argument #%d: %w", k+1, err)
			}
			res = append(res, p)
			k++
		}
	}
	if top {
		return len(args), res, nil
	}
	return 0, nil, errors.New("invalid array syntax: missing closing bracket")
}

// NewParamFromString reads one "type:value" or untyped word (neo-go's
// syntax; internal/neogodiff/cli compares it with neo-go's parser).
func NewParamFromString(in string) (rpcclient.Param, error) {
	if !utf8.ValidString(in) {
		return rpcclient.Param{}, errors.New("bad UTF-8 string")
	}
	var (
		buf     strings.Builder
		escaped bool
		hadType bool
		typStr  string
		typ     smartcontract.ParamType
	)
	for _, ch := range in {
		if ch == '\\' && !escaped {
			escaped = true
			continue
		}
		if ch == ':' && !escaped && !hadType {
			typStr = buf.String()
			var err error
			if typ, err = smartcontract.ParseParamType(typStr); err != nil {
				return rpcclient.Param{}, err
			}
			switch typ {
			case smartcontract.ArrayType, smartcontract.MapType, smartcontract.InteropInterfaceType, smartcontract.VoidType:
				return rpcclient.Param{}, fmt.Errorf("unsupported parameter type %s", typ)
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
	if typ == smartcontract.ByteArrayType && strings.EqualFold(typStr, fileBytesType) {
		b, err := os.ReadFile(val)
		if err != nil {
			return rpcclient.Param{}, fmt.Errorf("failed to read '%s' parameter from file '%s': %w", fileBytesType, val, err)
		}
		return rpcclient.ParamBytes(b), nil
	}
	v, err := paramValue(typ, val)
	if err != nil {
		return rpcclient.Param{}, err
	}
	return rpcclient.Param{Type: typ, Value: v}, nil
}

func vmInteger(s string) (*big.Int, bool) {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || bigint.Len(n) > bigint.MaxBytesLen {
		return nil, false
	}
	return n, true
}

func paramValue(typ smartcontract.ParamType, val string) (any, error) {
	switch typ {
	case smartcontract.SignatureType:
		b, err := hex.DecodeString(val)
		if err != nil {
			return nil, err
		}
		if len(b) != 64 {
			return nil, errors.New("not a signature")
		}
		return b, nil
	case smartcontract.BoolType:
		switch val {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, errors.New("invalid boolean value")
	case smartcontract.IntegerType:
		n, ok := vmInteger(val)
		if !ok {
			return nil, errors.New("invalid integer value")
		}
		return n, nil
	case smartcontract.Hash160Type:
		if u, err := address.ToUint160(val); err == nil {
			return u, nil
		}
		return hash.Uint160DecodeStringLE(val)
	case smartcontract.Hash256Type:
		return hash.Uint256DecodeStringLE(val)
	case smartcontract.ByteArrayType:
		return hex.DecodeString(val)
	case smartcontract.PublicKeyType:
		pub, err := keys.NewPublicKeyFromString(val)
		if err != nil {
			return nil, err
		}
		return pub.Bytes(), nil
	case smartcontract.StringType:
		return val, nil
	case smartcontract.AnyType:
		return nil, nil
	}
	return nil, errors.New("unsupported parameter type")
}

func inferParamType(val string) smartcontract.ParamType {
	if _, ok := vmInteger(val); ok {
		return smartcontract.IntegerType
	}
	switch val {
	case "nil":
		return smartcontract.AnyType
	case "true", "false":
		return smartcontract.BoolType
	}
	if _, err := address.ToUint160(val); err == nil {
		return smartcontract.Hash160Type
	}
	if _, err := keys.NewPublicKeyFromString(val); err == nil {
		return smartcontract.PublicKeyType
	}
	if b, err := hex.DecodeString(val); err == nil {
		switch len(b) {
		case hash.Uint160Size:
			return smartcontract.Hash160Type
		case hash.Uint256Size:
			return smartcontract.Hash256Type
		case 64:
			return smartcontract.SignatureType
		}
		return smartcontract.ByteArrayType
	}
	return smartcontract.StringType
}

// CLIArgs returns the command's positional arguments with the "--"
// separator where the user typed it. urfave/cli v3 drops the first "--"
// of a command line (and keeps every later word verbatim), so the words
// after it are found again in the parent's copy of the command line: the
// last k positional arguments are the k words that followed the first
// "--".
func CLIArgs(c *cli.Command) []string {
	args := c.Args().Slice()
	lineage := c.Lineage()
	if len(lineage) < 2 {
		return args
	}
	raw := lineage[1].Args().Slice()
	idx := slices.Index(raw, CosignersSeparator)
	if idx < 0 {
		return args
	}
	pos := len(args) - (len(raw) - idx - 1)
	if pos < 0 || (pos > 0 && args[pos-1] == CosignersSeparator) {
		return args
	}
	return slices.Concat(args[:pos], []string{CosignersSeparator}, args[pos:])
}

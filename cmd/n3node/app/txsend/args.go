package txsend

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Command-line contract arguments and signers, in neo-go's CLI syntax
// (cli/cmdargs); one word is a smartcontract.ParseParameter.

const (
	CosignersSeparator = "--"
	arrayStart         = "["
	arrayEnd           = "]"
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

// ContractHash reads a script hash, an address or a native contract name
// (full or short, any case) as neo-go does.
func ContractHash(s string) (hash.Uint160, error) {
	if h, err := ParseAddress(s); err == nil {
		return h, nil
	}
	short := map[string]string{
		"management": nativenames.Management, "ledger": nativenames.Ledger, "neo": nativenames.Neo,
		"gas": nativenames.Gas, "policy": nativenames.Policy, "oracle": nativenames.Oracle,
		"designation": nativenames.Designation, "crypto": nativenames.CryptoLib, "std": nativenames.StdLib,
	}
	name := strings.ToLower(s)
	if full, ok := short[name]; ok {
		name = strings.ToLower(full)
	}
	for i, n := range nativenames.All {
		if strings.ToLower(n) == name {
			return nativenames.Hash(nativenames.ID(nativenames.All[i])), nil
		}
	}
	return hash.Uint160{}, fmt.Errorf("incorrect script hash or invalid native contract name: %q", s)
}

// parseCosigner reads address[:scopes]: scopes is a comma-separated list
// of scope words, each a scope name optionally followed by ":item:item"
// (the items of the Custom* scopes; other scopes ignore them). No scopes
// is CalledByEntry.
func parseCosigner(s string) (transaction.Signer, error) {
	addr, words, hasScopes := strings.Cut(s, ":")
	acct, err := ParseAddress(addr)
	if err != nil {
		return transaction.Signer{Scopes: transaction.CalledByEntry}, err
	}
	sg := transaction.Signer{Account: acct, Scopes: transaction.CalledByEntry}
	if !hasScopes || words == "" {
		return sg, nil
	}
	sg.Scopes = 0
	for word := range strings.SplitSeq(words, ",") {
		if err := addScopeWord(&sg, word); err != nil {
			return transaction.Signer{}, err
		}
	}
	return sg, nil
}

// errGlobalMixed: Global with any other scope.
var errGlobalMixed = errors.New("'Global' scope can not be combined with other scopes")

// scopeItems are the item lists of the Custom* scopes: what an item is
// (for the error of an empty list) and how one is added.
var scopeItems = map[transaction.WitnessScope]struct {
	name, item string
	add        func(sg *transaction.Signer, s string) error
}{
	transaction.CustomContracts: {"CustomContracts", "contract", func(sg *transaction.Signer, s string) error {
		h, err := ParseAddress(s)
		sg.AllowedContracts = append(sg.AllowedContracts, h)
		return err
	}},
	transaction.CustomGroups: {"CustomGroups", "group", func(sg *transaction.Signer, s string) error {
		pub, err := keys.NewPublicKeyFromString(s)
		sg.AllowedGroups = append(sg.AllowedGroups, pub)
		return err
	}},
}

// addScopeWord adds one scope word to sg.
func addScopeWord(sg *transaction.Signer, word string) error {
	name, items, hasItems := strings.Cut(word, ":")
	scope, err := transaction.ScopesFromString(name)
	if err != nil {
		return err
	}
	hadGlobal, hadOthers := sg.Scopes&transaction.Global != 0, sg.Scopes&^transaction.Global != 0
	if scope == transaction.Global && hadOthers || scope != transaction.Global && hadGlobal {
		return errGlobalMixed
	}
	sg.Scopes |= scope
	list, custom := scopeItems[scope]
	switch {
	case !custom:
		return nil
	case !hasItems:
		return fmt.Errorf("%s scope must refer to at least one %s", list.name, list.item)
	}
	for it := range strings.SplitSeq(items, ":") {
		if err := list.add(sg, it); err != nil {
			return err
		}
	}
	return nil
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
func ParseParams(args []string, top bool) (int, []smartcontract.Parameter, error) {
	res := []smartcontract.Parameter{}
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
			res = append(res, smartcontract.NewArrayParameter(arr...))
			k += 1 + n
		case arrayEnd:
			if top {
				return 0, nil, errors.New("invalid array syntax: missing opening bracket")
			}
			return k + 1, res, nil
		default:
			p, err := smartcontract.ParseParameter(s)
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

// TxHashArg is the one transaction hash argument of a command (LE hex, an
// optional 0x), with neo-go's texts for a missing, extra or bad one.
func TxHashArg(c *cli.Command) (hash.Uint256, error) {
	switch c.Args().Len() {
	case 0:
		return hash.Uint256{}, errors.New("transaction hash is missing")
	case 1:
	default:
		return hash.Uint256{}, errors.New("only one transaction hash is accepted")
	}
	h, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(c.Args().First(), "0x"))
	if err != nil {
		return hash.Uint256{}, fmt.Errorf("invalid tx hash: %s", c.Args().First())
	}
	return h, nil
}

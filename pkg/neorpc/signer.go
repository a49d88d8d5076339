package neorpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/internal/neogotext/util"
	"github.com/n3node/n3node/pkg/neorpc/internal/params"
	sc "github.com/n3node/n3node/pkg/smartcontract"
)

// MaxSigners bounds the signers of an invoke* call (neo-go uses
// transaction.MaxAttributes, 16).
const MaxSigners = 16

// SignerWithWitness is a signer of an invoke* call with its optional
// witness, in neo-go's JSON form: account (hex or address), scopes (names
// or a number), allowedcontracts, allowedgroups, rules, invocation and
// verification (base64).
type SignerWithWitness struct {
	transaction.Signer
	transaction.Witness
}

// signerWithWitnessAux is what SignerWithWitness is decoded from. Its type
// name, JSON keys and field types are neo-go's, so that encoding/json's
// messages ("Go struct field signerWithWitnessAux.scopes of type ...") read
// the same; field order does not matter for decoding.
type signerWithWitnessAux struct {
	Account            string                    `json:"account"`
	Scopes             json.RawMessage           `json:"scopes"`
	InvocationScript   []byte                    `json:"invocation,omitzero"`
	VerificationScript []byte                    `json:"verification,omitzero"`
	AllowedContracts   []util.Uint160            `json:"allowedcontracts,omitzero"`
	AllowedGroups      []*keys.PublicKey         `json:"allowedgroups,omitzero"`
	Rules              []transaction.WitnessRule `json:"rules,omitzero"`
}

// signerOut is what SignerWithWitness is written as, in neo-go's key order.
type signerOut struct {
	Account      string                    `json:"account"`
	Scopes       string                    `json:"scopes"`
	Contracts    []hash.Uint160            `json:"allowedcontracts,omitzero"`
	Groups       []*keys.PublicKey         `json:"allowedgroups,omitzero"`
	Rules        []transaction.WitnessRule `json:"rules,omitzero"`
	Invocation   []byte                    `json:"invocation,omitzero"`
	Verification []byte                    `json:"verification,omitzero"`
}

// MarshalJSON writes neo-go's form: the account as 0x-prefixed hex, the
// scopes as names.
func (s *SignerWithWitness) MarshalJSON() ([]byte, error) {
	return json.Marshal(signerOut{
		Account:      "0x" + s.Account.StringLE(),
		Scopes:       scopesString(s.Scopes),
		Contracts:    s.AllowedContracts,
		Groups:       s.AllowedGroups,
		Rules:        s.Rules,
		Invocation:   s.InvocationScript,
		Verification: s.VerificationScript,
	})
}

// listLimit is a bound on one of a signer's lists, checked before anything
// else is decoded.
type listLimit struct {
	name string
	n    int
}

// UnmarshalJSON follows neo-go 0.120.0's SignerWithWitness.UnmarshalJSON:
// the same checks in the same order (list sizes, account, scopes, script
// sizes), with its error texts.
func (s *SignerWithWitness) UnmarshalJSON(data []byte) error {
	var aux signerWithWitnessAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("not a signer: %w", err)
	}
	for _, l := range []listLimit{
		{"AllowedContracts", len(aux.AllowedContracts)},
		{"AllowedGroups", len(aux.AllowedGroups)},
		{"Rules", len(aux.Rules)},
	} {
		if l.n > MaxSigners {
			return fmt.Errorf("invalid number of %s: got %d, allowed %d at max", l.name, l.n, MaxSigners)
		}
	}
	acc, err := signerAccount(aux.Account)
	if err != nil {
		return fmt.Errorf("not a signer: %w", err)
	}
	scopes, err := scopesFromJSON(aux.Scopes)
	if err != nil {
		return err
	}
	s.Signer = transaction.Signer{Account: acc, Scopes: scopes, AllowedGroups: aux.AllowedGroups, Rules: aux.Rules}
	if aux.AllowedContracts != nil {
		s.AllowedContracts = make([]hash.Uint160, 0, len(aux.AllowedContracts))
		for _, c := range aux.AllowedContracts {
			s.AllowedContracts = append(s.AllowedContracts, hash.Uint160(c))
		}
	}
	if err := checkScriptLen("invocation", aux.InvocationScript, transaction.MaxInvocationScript); err != nil {
		return err
	}
	if err := checkScriptLen("verification", aux.VerificationScript, transaction.MaxVerificationScript); err != nil {
		return err
	}
	s.Witness = transaction.Witness{InvocationScript: aux.InvocationScript, VerificationScript: aux.VerificationScript}
	return nil
}

// signerAccount reads an account as hex (GetUint160FromHex's rules) or, if
// that fails, as an address.
func signerAccount(s string) (hash.Uint160, error) {
	var p Param
	p.RawMessage, _ = json.Marshal(s)
	if acc, err := p.GetUint160FromHex(); err == nil {
		return acc, nil
	}
	return StringToUint160(s)
}

// checkScriptLen bounds a witness script.
func checkScriptLen(which string, script []byte, maxLen int) error {
	if len(script) > maxLen {
		return fmt.Errorf("invalid %s script length: got %d, allowed %d at max", which, len(script), maxLen)
	}
	return nil
}

// scopesFromJSON reads the scopes field: absent means None, a string is a
// list of names, a number is the bit set.
func scopesFromJSON(raw json.RawMessage) (transaction.WitnessScope, error) {
	if len(raw) == 0 {
		return transaction.None, nil
	}
	var names string
	if json.Unmarshal(raw, &names) == nil {
		sc, err := scopesFromString(names)
		if err != nil {
			return 0, fmt.Errorf("failed to retrieve scopes from string: %w", err)
		}
		return sc, nil
	}
	var b byte
	if err := json.Unmarshal(raw, &b); err != nil {
		return 0, fmt.Errorf("failed to unmarshal scopes from byte: %w", err)
	}
	sc, err := scopesFromByte(b)
	if err != nil {
		return 0, fmt.Errorf("failed to retrieve scopes from byte: %w", err)
	}
	return sc, nil
}

// scopeTable names the scopes as neo-go prints them, single flags in the
// order a combination lists them, then Global and None.
var scopeTable = [...]struct {
	scope transaction.WitnessScope
	name  string
}{
	{transaction.CalledByEntry, "CalledByEntry"},
	{transaction.CustomContracts, "CustomContracts"},
	{transaction.CustomGroups, "CustomGroups"},
	{transaction.WitnessRules, "WitnessRules"},
	{transaction.Global, "Global"},
	{transaction.None, "None"},
}

// scopeByName finds a scope by its exact name.
func scopeByName(name string) (transaction.WitnessScope, bool) {
	for _, e := range scopeTable {
		if e.name == name {
			return e.scope, true
		}
	}
	return 0, false
}

var errGlobalCombined = errors.New("'Global' scope can not be combined with other scopes")

// scopesFromString is neo-go 0.120.0's transaction.ScopesFromString. Unlike
// the strict parser it accepts Global after other scopes ("CalledByEntry,
// Global"), which neo-go lets through here; only a non-Global scope after
// Global is refused.
func scopesFromString(s string) (transaction.WitnessScope, error) {
	var res transaction.WitnessScope
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		scope, ok := scopeByName(part)
		switch {
		case !ok:
			return res, fmt.Errorf("invalid witness scope: %v", part)
		case res&transaction.Global != 0 && scope != transaction.Global:
			return res, errGlobalCombined
		}
		res |= scope
	}
	return res, nil
}

// scopesFromByte is neo-go 0.120.0's transaction.ScopesFromByte.
func scopesFromByte(b byte) (transaction.WitnessScope, error) {
	const nonGlobal = transaction.CalledByEntry | transaction.CustomContracts | transaction.CustomGroups | transaction.WitnessRules
	res := transaction.WitnessScope(b)
	if res&transaction.Global != 0 && res&nonGlobal != 0 {
		return 0, errGlobalCombined
	}
	if res&^(nonGlobal|transaction.Global) != 0 {
		return 0, fmt.Errorf("invalid scope %d", res)
	}
	return res, nil
}

// GetSignerWithWitness decodes one signer object.
func (p *Param) GetSignerWithWitness() (SignerWithWitness, error) {
	var c SignerWithWitness
	if p == nil {
		return c, fmt.Errorf("not a signer: %w", ErrMissingParameter)
	}
	if err := json.Unmarshal(p.RawMessage, &c); err != nil {
		return SignerWithWitness{}, fmt.Errorf("not a signer: %w", err)
	}
	return c, nil
}

// GetSignersWithWitnesses decodes the signers parameter of invoke* calls:
// an array of script hashes (each becomes a CalledByEntry signer) or, if
// any element is not a hash, an array of signer objects. At most
// MaxSigners.
func (p *Param) GetSignersWithWitnesses() ([]transaction.Signer, []transaction.Witness, error) {
	items, err := p.GetArray()
	if err != nil {
		return nil, nil, err
	}
	if len(items) > MaxSigners {
		return nil, nil, errors.New("too many signers")
	}
	signers := make([]transaction.Signer, len(items))
	witnesses := make([]transaction.Witness, len(items))
	for i := range items {
		u, err := items[i].GetUint160FromHex()
		if err != nil {
			for j := range items {
				sw, err := items[j].GetSignerWithWitness()
				if err != nil {
					return nil, nil, err
				}
				signers[j], witnesses[j] = sw.Signer, sw.Witness
			}
			return signers, witnesses, nil
		}
		signers[i] = transaction.Signer{Account: u, Scopes: transaction.CalledByEntry}
	}
	return signers, witnesses, nil
}

// GetFuncParam decodes an invoke* argument object {"type": ..., "value":
// ...} as neo-go's request decoder does (its error texts): the declared
// type and the raw value, which the reader of the argument interprets
// according to the type. On error the partially decoded type is
// returned, as neo-go does.
func (p *Param) GetFuncParam() (sc.ParamType, Param, error) {
	if p == nil {
		return 0, Param{}, ErrMissingParameter
	}
	var fp params.FuncParam
	err := json.Unmarshal(p.RawMessage, &fp)
	return fp.Type, Param{fp.Value.RawMessage}, err
}

// GetFuncParamPair decodes a Map argument element {"key": {...}, "value":
// {...}} as neo-go does; key and value are argument objects (read them
// with GetFuncParam, which accepts them then).
func (p *Param) GetFuncParamPair() (key, value Param, err error) {
	if p == nil {
		return Param{}, Param{}, ErrMissingParameter
	}
	var kv struct {
		params.FuncParamKV
		Raw struct {
			Key   json.RawMessage `json:"key"`
			Value json.RawMessage `json:"value"`
		}
	}
	if err := json.Unmarshal(p.RawMessage, &kv.FuncParamKV); err != nil {
		return Param{}, Param{}, err
	}
	if err := json.Unmarshal(p.RawMessage, &kv.Raw); err != nil {
		return Param{}, Param{}, err
	}
	return object(kv.Raw.Key), object(kv.Raw.Value), nil
}

// object is a member of a JSON object as a Param: null when absent.
func object(raw json.RawMessage) Param {
	if raw == nil {
		raw = json.RawMessage("null")
	}
	return Param{raw}
}

// scopesString is neo-go 0.120.0's JSON form of a scope set, which differs
// from the canonical one only for invalid combinations: a set with Global
// prints as one name (or WitnessScope(n) if it is not exactly Global).
func scopesString(s transaction.WitnessScope) string {
	if s&transaction.Global != 0 || s == transaction.None {
		for _, e := range scopeTable {
			if e.scope == s {
				return e.name
			}
		}
		return "WitnessScope(" + strconv.Itoa(int(s)) + ")"
	}
	var names []string
	for _, e := range scopeTable[:4] {
		if s&e.scope != 0 {
			names = append(names, e.name)
		}
	}
	return strings.Join(names, ", ")
}

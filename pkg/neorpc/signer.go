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

// signerWithWitnessAux mirrors neo-go's auxiliary type, so that
// encoding/json's messages name the same types.
type signerWithWitnessAux struct {
	Account            string                    `json:"account"`
	Scopes             json.RawMessage           `json:"scopes"`
	AllowedContracts   []util.Uint160            `json:"allowedcontracts,omitzero"`
	AllowedGroups      []*keys.PublicKey         `json:"allowedgroups,omitzero"`
	Rules              []transaction.WitnessRule `json:"rules,omitzero"`
	InvocationScript   []byte                    `json:"invocation,omitzero"`
	VerificationScript []byte                    `json:"verification,omitzero"`
}

// MarshalJSON writes neo-go's form.
func (s *SignerWithWitness) MarshalJSON() ([]byte, error) {
	sc := json.RawMessage(`"` + scopesString(s.Scopes) + `"`)
	type out struct {
		Account            string                    `json:"account"`
		Scopes             json.RawMessage           `json:"scopes"`
		AllowedContracts   []util.Uint160            `json:"allowedcontracts,omitzero"`
		AllowedGroups      []*keys.PublicKey         `json:"allowedgroups,omitzero"`
		Rules              []transaction.WitnessRule `json:"rules,omitzero"`
		InvocationScript   []byte                    `json:"invocation,omitzero"`
		VerificationScript []byte                    `json:"verification,omitzero"`
	}
	var contracts []util.Uint160
	if s.AllowedContracts != nil {
		contracts = make([]util.Uint160, len(s.AllowedContracts))
		for i, c := range s.AllowedContracts {
			contracts[i] = util.Uint160(c)
		}
	}
	return json.Marshal(out{
		Account:            "0x" + s.Account.StringLE(),
		Scopes:             sc,
		AllowedContracts:   contracts,
		AllowedGroups:      s.AllowedGroups,
		Rules:              s.Rules,
		InvocationScript:   s.InvocationScript,
		VerificationScript: s.VerificationScript,
	})
}

// UnmarshalJSON follows neo-go 0.120.0's SignerWithWitness.UnmarshalJSON,
// its checks and its error texts.
func (s *SignerWithWitness) UnmarshalJSON(data []byte) error {
	aux := new(signerWithWitnessAux)
	if err := json.Unmarshal(data, aux); err != nil {
		return fmt.Errorf("not a signer: %w", err)
	}
	if len(aux.AllowedContracts) > MaxSigners {
		return fmt.Errorf("invalid number of AllowedContracts: got %d, allowed %d at max", len(aux.AllowedContracts), MaxSigners)
	}
	if len(aux.AllowedGroups) > MaxSigners {
		return fmt.Errorf("invalid number of AllowedGroups: got %d, allowed %d at max", len(aux.AllowedGroups), MaxSigners)
	}
	if len(aux.Rules) > MaxSigners {
		return fmt.Errorf("invalid number of Rules: got %d, allowed %d at max", len(aux.Rules), MaxSigners)
	}
	var p Param
	p.RawMessage, _ = json.Marshal(aux.Account)
	acc, err := p.GetUint160FromHex()
	if err != nil {
		acc, err = StringToUint160(aux.Account)
	}
	if err != nil {
		return fmt.Errorf("not a signer: %w", err)
	}
	var scopes transaction.WitnessScope
	if len(aux.Scopes) != 0 {
		var (
			str string
			b   byte
		)
		if err := json.Unmarshal(aux.Scopes, &str); err == nil {
			scopes, err = scopesFromString(str)
			if err != nil {
				return fmt.Errorf("failed to retrieve scopes from string: %w", err)
			}
		} else {
			if err := json.Unmarshal(aux.Scopes, &b); err != nil {
				return fmt.Errorf("failed to unmarshal scopes from byte: %w", err)
			}
			scopes, err = scopesFromByte(b)
			if err != nil {
				return fmt.Errorf("failed to retrieve scopes from byte: %w", err)
			}
		}
	}
	var contracts []util.Uint160
	if aux.AllowedContracts != nil {
		contracts = aux.AllowedContracts
	}
	s.Signer = transaction.Signer{Account: acc, Scopes: scopes, AllowedGroups: aux.AllowedGroups, Rules: aux.Rules}
	if contracts != nil {
		s.Signer.AllowedContracts = make([]hash.Uint160, len(contracts))
		for i, c := range contracts {
			s.Signer.AllowedContracts[i] = hash.Uint160(c)
		}
	}
	if len(aux.InvocationScript) > transaction.MaxInvocationScript {
		return fmt.Errorf("invalid invocation script length: got %d, allowed %d at max", len(aux.InvocationScript), transaction.MaxInvocationScript)
	}
	if len(aux.VerificationScript) > transaction.MaxVerificationScript {
		return fmt.Errorf("invalid verification script length: got %d, allowed %d at max", len(aux.VerificationScript), transaction.MaxVerificationScript)
	}
	s.Witness = transaction.Witness{InvocationScript: aux.InvocationScript, VerificationScript: aux.VerificationScript}
	return nil
}

// Scope names as neo-go prints them.
var scopeNames = map[string]transaction.WitnessScope{
	"Global":          transaction.Global,
	"CalledByEntry":   transaction.CalledByEntry,
	"CustomContracts": transaction.CustomContracts,
	"CustomGroups":    transaction.CustomGroups,
	"WitnessRules":    transaction.WitnessRules,
	"None":            transaction.None,
}

var errGlobalCombined = errors.New("'Global' scope can not be combined with other scopes")

// scopesFromString is neo-go 0.120.0's transaction.ScopesFromString. Unlike
// the strict parser it accepts Global after other scopes ("CalledByEntry,
// Global"), which neo-go lets through here.
func scopesFromString(s string) (transaction.WitnessScope, error) {
	var (
		res      transaction.WitnessScope
		isGlobal bool
	)
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		scope, ok := scopeNames[part]
		if !ok {
			return res, fmt.Errorf("invalid witness scope: %v", part)
		}
		if isGlobal && scope != transaction.Global {
			return res, errGlobalCombined
		}
		res |= scope
		if scope == transaction.Global {
			isGlobal = true
		}
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

// FuncParam is an invokefunction argument: a contract parameter type and
// a raw value (decoded by the invoke handler according to the type).
type FuncParam struct {
	Type  ParamType `json:"type"`
	Value Param     `json:"value"`
}

// FuncParamKV is a Map argument element.
type FuncParamKV struct {
	Key   FuncParam `json:"key"`
	Value FuncParam `json:"value"`
}

// GetFuncParam decodes the parameter as a FuncParam. On error the
// partially decoded value is returned, as neo-go does.
func (p *Param) GetFuncParam() (FuncParam, error) {
	if p == nil {
		return FuncParam{}, ErrMissingParameter
	}
	var fp params.FuncParam
	err := json.Unmarshal(p.RawMessage, &fp)
	return fromCompatFuncParam(fp), err
}

// GetFuncParamPair decodes the parameter as a FuncParamKV.
func (p *Param) GetFuncParamPair() (FuncParamKV, error) {
	if p == nil {
		return FuncParamKV{}, ErrMissingParameter
	}
	var kv params.FuncParamKV
	if err := json.Unmarshal(p.RawMessage, &kv); err != nil {
		return FuncParamKV{}, err
	}
	return FuncParamKV{Key: fromCompatFuncParam(kv.Key), Value: fromCompatFuncParam(kv.Value)}, nil
}

func fromCompatFuncParam(fp params.FuncParam) FuncParam {
	return FuncParam{Type: fp.Type, Value: Param{fp.Value.RawMessage}}
}

// scopesString is neo-go 0.120.0's JSON form of a scope set, which differs
// from the canonical one only for invalid combinations.
func scopesString(s transaction.WitnessScope) string {
	name := func(s transaction.WitnessScope) string {
		switch s {
		case transaction.None:
			return "None"
		case transaction.CalledByEntry:
			return "CalledByEntry"
		case transaction.CustomContracts:
			return "CustomContracts"
		case transaction.CustomGroups:
			return "CustomGroups"
		case transaction.WitnessRules:
			return "WitnessRules"
		case transaction.Global:
			return "Global"
		}
		return "WitnessScope(" + strconv.Itoa(int(s)) + ")"
	}
	if s&transaction.Global != 0 || s == transaction.None {
		return name(s)
	}
	var res string
	for _, f := range []transaction.WitnessScope{transaction.CalledByEntry, transaction.CustomContracts, transaction.CustomGroups, transaction.WitnessRules} {
		if s&f != 0 {
			if res != "" {
				res += ", "
			}
			res += name(f)
		}
	}
	return res
}

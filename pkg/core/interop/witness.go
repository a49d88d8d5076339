package interop

import (
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrNoSigners is returned by CheckWitness when the execution has no signers
// (a persist trigger or a block verification), as in neo-go.
var ErrNoSigners = errors.New("no valid signers")

// runtimeCheckWitness is System.Runtime.CheckWitness: a 20-byte script hash
// or a public key (whose signature script hash is checked).
func runtimeCheckWitness(ic *Context) error {
	b, err := ic.popBytes()
	if err != nil {
		return err
	}
	var h hash.Uint160
	if len(b) == hash.Uint160Size {
		h = hash.Uint160(b)
	} else if h, err = keyScriptHash(b); err != nil {
		return errors.New("parameter given is neither a key nor a hash")
	}
	ok, err := ic.CheckWitness(h)
	if err != nil {
		return fmt.Errorf("failed to check witness: %w", err)
	}
	ic.VM.Push(stackitem.Bool(ok))
	return nil
}

// CheckWitness reports whether the account h witnesses the current call: it
// is the calling script, or a signer whose scope allows the executing
// script (C# CheckWitnessInternal, with neo-go's behaviour for executions
// without signers: an error).
func (ic *Context) CheckWitness(h hash.Uint160) (bool, error) {
	if calling := ic.CallingScriptHash(); !calling.IsZero() && calling == h {
		return true, nil
	}
	return ic.checkScope(h)
}

func (ic *Context) checkScope(h hash.Uint160) (bool, error) {
	signers := ic.Signers()
	if len(signers) == 0 {
		return false, ErrNoSigners
	}
	for i := range signers {
		s := &signers[i]
		if s.Account != h {
			continue
		}
		if s.Scopes == transaction.Global {
			return true, nil
		}
		if s.Scopes&transaction.CalledByEntry != 0 && ic.IsCalledByEntry() {
			return true, nil
		}
		if s.Scopes&transaction.CustomContracts != 0 && slices.Contains(s.AllowedContracts, ic.CurrentScriptHash()) {
			return true, nil
		}
		if s.Scopes&transaction.CustomGroups != 0 {
			groups, err := ic.contractGroups(ic.CurrentScriptHash())
			if err != nil {
				return false, err
			}
			if slices.ContainsFunc(s.AllowedGroups, groups.Contains) {
				return true, nil
			}
		}
		if s.Scopes&transaction.WitnessRules != 0 {
			mc := matchContext{ic}
			for j := range s.Rules {
				ok, err := s.Rules[j].Condition.Match(mc)
				if err != nil {
					return false, err
				}
				if ok {
					return s.Rules[j].Action == transaction.WitnessAllow, nil
				}
			}
		}
		return false, nil
	}
	return false, nil
}

// contractGroups returns the manifest groups of the contract h (none if it
// is not a deployed contract); it needs the ReadStates flag.
func (ic *Context) contractGroups(h hash.Uint160) (manifest.Groups, error) {
	if !ic.CallFlags().Has(callflag.ReadStates) {
		return nil, errors.New("missing ReadStates call flag")
	}
	if cs, err := ic.GetContract(h); err == nil {
		return cs.Manifest.Groups, nil
	}
	return nil, nil // not deployed: no groups
}

// matchContext gives witness conditions access to the execution.
type matchContext struct{ ic *Context }

func (m matchContext) GetCallingScriptHash() hash.Uint160 { return m.ic.CallingScriptHash() }
func (m matchContext) GetCurrentScriptHash() hash.Uint160 { return m.ic.CurrentScriptHash() }
func (m matchContext) IsCalledByEntry() bool              { return m.ic.IsCalledByEntry() }

func (m matchContext) CallingScriptHasGroup(k *keys.PublicKey) (bool, error) {
	g, err := m.ic.contractGroups(m.ic.CallingScriptHash())
	if err != nil {
		return false, err
	}
	return g.Contains(k), nil
}

func (m matchContext) CurrentScriptHasGroup(k *keys.PublicKey) (bool, error) {
	g, err := m.ic.contractGroups(m.ic.CurrentScriptHash())
	if err != nil {
		return false, err
	}
	return g.Contains(k), nil
}

package transaction

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

// MaxSignerSubitems bounds AllowedContracts, AllowedGroups and Rules (C#
// Signer.MaxSubitems).
const MaxSignerSubitems = 16

// Signer is an account that signs a transaction and the scope its witness
// is valid in. AllowedContracts, AllowedGroups and Rules are only encoded
// when the matching scope flag is set.
//
// JSON (neo-go's form): account, scopes, and allowedcontracts,
// allowedgroups and rules when the slice is not nil, which for decoded
// signers is exactly when the scope flag is set.
type Signer struct {
	Account          hash.Uint160      `json:"account"`
	Scopes           WitnessScope      `json:"scopes"`
	AllowedContracts []hash.Uint160    `json:"allowedcontracts,omitzero"`
	AllowedGroups    []*keys.PublicKey `json:"allowedgroups,omitzero"`
	Rules            []WitnessRule     `json:"rules,omitzero"`
}

// Size returns the encoded size.
func (s *Signer) Size() int {
	n := hash.Uint160Size + 1
	if s.Scopes&CustomContracts != 0 {
		n += nio.VarUintSize(uint64(len(s.AllowedContracts))) + hash.Uint160Size*len(s.AllowedContracts)
	}
	if s.Scopes&CustomGroups != 0 {
		n += nio.VarUintSize(uint64(len(s.AllowedGroups))) + keys.CompressedSize*len(s.AllowedGroups)
	}
	if s.Scopes&WitnessRules != 0 {
		n += nio.VarUintSize(uint64(len(s.Rules)))
		for i := range s.Rules {
			n += s.Rules[i].Size()
		}
	}
	return n
}

// EncodeBinary writes the signer.
func (s *Signer) EncodeBinary(w *nio.BinWriter) {
	w.WriteBytes(s.Account[:])
	w.WriteU8(byte(s.Scopes))
	if s.Scopes&CustomContracts != 0 {
		w.WriteVarUint(uint64(len(s.AllowedContracts)))
		for i := range s.AllowedContracts {
			w.WriteBytes(s.AllowedContracts[i][:])
		}
	}
	if s.Scopes&CustomGroups != 0 {
		w.WriteVarUint(uint64(len(s.AllowedGroups)))
		for _, g := range s.AllowedGroups {
			g.EncodeBinary(w)
		}
	}
	if s.Scopes&WitnessRules != 0 {
		w.WriteVarUint(uint64(len(s.Rules)))
		for i := range s.Rules {
			s.Rules[i].EncodeBinary(w)
		}
	}
}

// DecodeBinary reads a signer (C# Signer.Deserialize).
func (s *Signer) DecodeBinary(r *nio.BinReader) {
	d := decoder{r: r}
	d.signer(s)
}

func (d *decoder) signer(s *Signer) {
	r := d.r
	r.ReadBytes(s.Account[:])
	s.Scopes = WitnessScope(r.ReadU8())
	if r.Err != nil {
		return
	}
	if !s.Scopes.Valid() {
		r.SetError(fmt.Errorf("%w: 0x%02x", ErrInvalidScope, byte(s.Scopes)))
		return
	}
	if s.Scopes&CustomContracts != 0 {
		n := d.count(MaxSignerSubitems, hash.Uint160Size)
		if r.Err != nil {
			return
		}
		s.AllowedContracts = make([]hash.Uint160, n)
		for i := range s.AllowedContracts {
			r.ReadBytes(s.AllowedContracts[i][:])
		}
	}
	if s.Scopes&CustomGroups != 0 {
		n := d.count(MaxSignerSubitems, keys.CompressedSize)
		if r.Err != nil {
			return
		}
		s.AllowedGroups = make([]*keys.PublicKey, n)
		for i := range s.AllowedGroups {
			s.AllowedGroups[i] = d.publicKey()
			if r.Err != nil {
				return
			}
		}
	}
	if s.Scopes&WitnessRules != 0 {
		n := d.count(MaxSignerSubitems, 2)
		if r.Err != nil {
			return
		}
		s.Rules = make([]WitnessRule, n)
		for i := range s.Rules {
			d.rule(&s.Rules[i])
			if r.Err != nil {
				return
			}
		}
	}
}

// signerJSON has Signer's fields and JSON tags but no methods.
type signerJSON Signer

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// UnmarshalJSON parses the JSON form.
func (s *Signer) UnmarshalJSON(data []byte) error {
	var aux signerJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*s = Signer(aux)
	if len(s.AllowedContracts) > MaxSignerSubitems || len(s.AllowedGroups) > MaxSignerSubitems || len(s.Rules) > MaxSignerSubitems {
		return fmt.Errorf("%w: more than %d signer subitems", ErrInvalidScope, MaxSignerSubitems)
	}
	return nil
}

// Copy returns a deep copy (public keys are shared, being immutable).
func (s *Signer) Copy() Signer {
	cp := *s
	cp.AllowedContracts = slices.Clone(s.AllowedContracts)
	cp.AllowedGroups = slices.Clone(s.AllowedGroups)
	if s.Rules != nil {
		cp.Rules = make([]WitnessRule, len(s.Rules))
		for i := range s.Rules {
			cp.Rules[i] = WitnessRule{Action: s.Rules[i].Action, Condition: s.Rules[i].Condition.Copy()}
		}
	}
	return cp
}

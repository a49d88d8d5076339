package manifest

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Group is a key that signed the contract hash (C# ContractGroup).
type Group struct {
	PublicKey *keys.PublicKey `json:"pubkey"`
	Signature []byte          `json:"signature"`
}

// Groups is a list of groups.
type Groups []Group

type groupAux struct {
	PublicKey string `json:"pubkey"`
	Signature []byte `json:"signature"`
}

// IsValid checks the signature: over SHA-256 of the 20 hash bytes.
func (g *Group) IsValid(h hash.Uint160) error {
	if g.PublicKey == nil || !g.PublicKey.VerifyMessage(g.Signature, h[:]) {
		return fmt.Errorf("%w: incorrect group signature", ErrInvalidGroup)
	}
	return nil
}

// AreValid checks the signatures (not for the zero hash) and that no key
// appears twice. A nil list is invalid.
func (g Groups) AreValid(h hash.Uint160) error {
	if g == nil {
		return fmt.Errorf("%w: null groups", ErrInvalidGroup)
	}
	if !h.IsZero() {
		for i := range g {
			if err := g[i].IsValid(h); err != nil {
				return err
			}
		}
	}
	if len(g) < 2 {
		return nil
	}
	pkeys := make([]*keys.PublicKey, len(g))
	for i := range g {
		if g[i].PublicKey == nil {
			return fmt.Errorf("%w: no key", ErrInvalidGroup)
		}
		pkeys[i] = g[i].PublicKey
	}
	slices.SortFunc(pkeys, (*keys.PublicKey).Cmp)
	for i := 1; i < len(pkeys); i++ {
		if pkeys[i].Cmp(pkeys[i-1]) == 0 {
			return fmt.Errorf("%w: duplicate group keys", ErrInvalidGroup)
		}
	}
	return nil
}

// Contains reports whether k is one of the group keys.
func (g Groups) Contains(k *keys.PublicKey) bool {
	return slices.ContainsFunc(g, func(gr Group) bool { return k.Equal(gr.PublicKey) })
}

// MarshalJSON writes {"pubkey": compressed hex, "signature": base64}.
func (g *Group) MarshalJSON() ([]byte, error) {
	aux := &groupAux{Signature: g.Signature}
	if g.PublicKey != nil {
		aux.PublicKey = g.PublicKey.StringCompressed()
	}
	return json.Marshal(aux)
}

// UnmarshalJSON reads a group; the signature must be 64 bytes.
func (g *Group) UnmarshalJSON(data []byte) error {
	aux := new(groupAux)
	if err := json.Unmarshal(data, aux); err != nil {
		return err
	}
	b, err := hex.DecodeString(aux.PublicKey)
	if err != nil {
		return err
	}
	pub, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		return err
	}
	if len(aux.Signature) != keys.SignatureLen {
		return errors.New("wrong signature length")
	}
	g.PublicKey = pub
	g.Signature = aux.Signature
	return nil
}

// ToStackItem returns Struct [pubkey, signature].
func (g *Group) ToStackItem() stackitem.Item {
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.NewByteString(g.PublicKey.Bytes()),
		stackitem.NewByteString(slices.Clone(g.Signature)),
	})
}

// FromStackItem decodes the form made by ToStackItem.
func (g *Group) FromStackItem(item stackitem.Item) error {
	str, err := structFields(item, 2, "Group")
	if err != nil {
		return err
	}
	pk, err := str[0].TryBytes()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	if g.PublicKey, err = keys.NewPublicKeyFromBytes(pk); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	sig, err := str[1].TryBytes()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	if len(sig) != keys.SignatureLen {
		return fmt.Errorf("%w: wrong signature length", ErrInvalidItem)
	}
	g.Signature = slices.Clone(sig)
	return nil
}

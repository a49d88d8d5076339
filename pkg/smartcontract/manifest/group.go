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
	if len(g) > 1 && slices.ContainsFunc(g, func(gr Group) bool { return gr.PublicKey == nil }) {
		return fmt.Errorf("%w: no key", ErrInvalidGroup)
	}
	if hasDups(g, func(a, b Group) int { return a.PublicKey.Cmp(b.PublicKey) }) {
		return fmt.Errorf("%w: duplicate group keys", ErrInvalidGroup)
	}
	return nil
}

// Contains reports whether k is one of the group keys.
func (g Groups) Contains(k *keys.PublicKey) bool {
	return slices.ContainsFunc(g, func(gr Group) bool { return k.Equal(gr.PublicKey) })
}

// groupJSON is the JSON form of a group: the key as compressed hex ("" for
// none), the signature as base64.
type groupJSON struct {
	Key       string `json:"pubkey"`
	Signature []byte `json:"signature"`
}

// MarshalJSON writes {"pubkey": compressed hex, "signature": base64}.
func (g *Group) MarshalJSON() ([]byte, error) {
	j := groupJSON{Signature: g.Signature}
	if g.PublicKey != nil {
		j.Key = g.PublicKey.StringCompressed()
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a group; the key must decode and the signature must be
// 64 bytes. On error g is left as it was.
func (g *Group) UnmarshalJSON(data []byte) error {
	var j groupJSON
	err := json.Unmarshal(data, &j)
	var raw []byte
	if err == nil {
		raw, err = hex.DecodeString(j.Key)
	}
	var key *keys.PublicKey
	if err == nil {
		key, err = keys.NewPublicKeyFromBytes(raw)
	}
	if err == nil && len(j.Signature) != keys.SignatureLen {
		err = errors.New("wrong signature length")
	}
	if err == nil {
		g.PublicKey, g.Signature = key, j.Signature
	}
	return err
}

// ToStackItem returns Struct [pubkey, signature].
func (g *Group) ToStackItem() stackitem.Item {
	return structOf(stackitem.NewByteString(g.PublicKey.Bytes()), stackitem.NewByteString(slices.Clone(g.Signature)))
}

// FromStackItem decodes the form made by ToStackItem.
func (g *Group) FromStackItem(item stackitem.Item) error {
	fields, err := structFields(item, 2, "Group")
	var key, sig []byte
	if err == nil {
		key, err = itemBytes(fields[0])
	}
	if err == nil {
		g.PublicKey, err = keys.NewPublicKeyFromBytes(key)
		err = invalidItem(err)
	}
	if err == nil {
		sig, err = itemBytes(fields[1])
	}
	if err == nil && len(sig) != keys.SignatureLen {
		err = fmt.Errorf("%w: wrong signature length", ErrInvalidItem)
	}
	if err == nil {
		g.Signature = slices.Clone(sig)
	}
	return err
}

package state

import (
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// NodeList is the list of keys RoleManagement stores for a role and block
// (C# RoleManagement.NodeList): Array of 33-byte compressed keys, sorted.
type NodeList []*keys.PublicKey

// ToStackItem implements stackitem.Convertible.
func (l NodeList) ToStackItem() (stackitem.Item, error) {
	items := make([]stackitem.Item, len(l))
	for i, k := range l {
		items[i] = stackitem.NewByteString(k.Bytes())
	}
	return stackitem.NewArray(items), nil
}

// FromStackItem implements stackitem.Convertible: every element is decoded
// as a secp256r1 point (C# ECPoint.DecodePoint).
func (l *NodeList) FromStackItem(item stackitem.Item) error {
	a, ok := item.(*stackitem.Array)
	if !ok {
		return fmt.Errorf("%w: not an array", ErrInvalidItem)
	}
	res := make(NodeList, a.Len())
	for i, it := range a.Items() {
		b, err := it.TryBytes()
		if err != nil {
			return fmt.Errorf("%w: key %d: %w", ErrInvalidItem, i, err)
		}
		k, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			return fmt.Errorf("%w: key %d: %w", ErrInvalidItem, i, err)
		}
		res[i] = k
	}
	*l = res
	return nil
}

package state

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrInvalidItem is returned (wrapped) by FromStackItem methods for items
// that do not have the expected shape.
var ErrInvalidItem = errors.New("invalid state stack item")

// ContractBase is the part of a contract state shared by native and deployed
// contracts. Field order is neo-go's JSON key order.
type ContractBase struct {
	ID       int32             `json:"id"`
	Hash     hash.Uint160      `json:"hash"`
	NEF      nef.File          `json:"nef"`
	Manifest manifest.Manifest `json:"manifest"`
}

// Contract is a contract state (C# ContractState).
type Contract struct {
	ContractBase
	UpdateCounter uint16 `json:"updatecounter"`
}

// ToStackItem returns Array [id, updatecounter, hash, nef bytes, manifest]
// (C# ContractState.ToStackItem), the stored form.
func (c *Contract) ToStackItem() (stackitem.Item, error) {
	nefBytes, err := c.NEF.Bytes()
	var manifestItem stackitem.Item
	if err == nil {
		manifestItem, err = c.Manifest.ToStackItem()
	}
	if err != nil {
		return nil, err
	}
	return stackitem.NewArray([]stackitem.Item{
		stackitem.NewInt(int64(c.ID)),
		stackitem.NewInt(int64(c.UpdateCounter)),
		stackitem.NewByteString(bytes.Clone(c.Hash[:])),
		stackitem.NewByteString(nefBytes),
		manifestItem,
	}), nil
}

// FromStackItem decodes the stored form.
func (c *Contract) FromStackItem(item stackitem.Item) error {
	arr, err := arrayOrStruct(item, 5)
	if err != nil {
		return err
	}
	id, err := itemInt64(arr[0], math.MinInt32, math.MaxInt32)
	if err != nil {
		return fmt.Errorf("invalid ID: %w", err)
	}
	uc, err := itemInt64(arr[1], 0, math.MaxUint16)
	if err != nil {
		return fmt.Errorf("invalid update counter: %w", err)
	}
	h, err := itemUint160(arr[2])
	if err != nil {
		return fmt.Errorf("invalid hash: %w", err)
	}
	raw, err := arr[3].TryBytes()
	if err != nil {
		return fmt.Errorf("%w: invalid NEF: %w", ErrInvalidItem, err)
	}
	f, err := nef.FileFromBytes(raw)
	if err != nil {
		return fmt.Errorf("%w: failed to decode NEF: %w", ErrInvalidItem, err)
	}
	var m manifest.Manifest
	if err := m.FromStackItem(arr[4]); err != nil {
		return fmt.Errorf("%w: invalid manifest: %w", ErrInvalidItem, err)
	}
	c.ID = int32(id)
	c.UpdateCounter = uint16(uc)
	c.Hash = h
	c.NEF = *f
	c.Manifest = m
	return nil
}

// Bytes returns the stored form (the serialized stack item).
func (c *Contract) Bytes() ([]byte, error) {
	return stackitem.SerializeConvertible(c)
}

// ContractFromBytes decodes a stored contract state.
func ContractFromBytes(b []byte) (*Contract, error) {
	c := new(Contract)
	if err := stackitem.DeserializeConvertible(b, c); err != nil {
		return nil, err
	}
	return c, nil
}

// CreateContractHash returns the hash of a contract deployed by sender with
// the given NEF checksum and manifest name (C# Helper.GetContractHash).
func CreateContractHash(sender hash.Uint160, checksum uint32, name string) hash.Uint160 {
	return smartcontract.GetContractHash(sender, checksum, name)
}

// CreateNativeContractHash returns the hash of the native contract with the
// given name (sender zero, checksum 0).
func CreateNativeContractHash(name string) hash.Uint160 {
	return CreateContractHash(hash.Uint160{}, 0, name)
}

// arrayOrStruct returns the items of an Array or Struct with at least n
// items (exactly n if exact).
func arrayOrStruct(item stackitem.Item, n int) ([]stackitem.Item, error) {
	a, ok := item.(*stackitem.Array)
	if !ok {
		return nil, fmt.Errorf("%w: not an array", ErrInvalidItem)
	}
	if a.Len() != n {
		return nil, fmt.Errorf("%w: invalid structure", ErrInvalidItem)
	}
	return a.Items(), nil
}

// itemInt64 converts an integer item within [lo, hi].
func itemInt64(item stackitem.Item, lo, hi int64) (int64, error) {
	b, err := item.TryInteger()
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	if !b.IsInt64() || b.Int64() < lo || b.Int64() > hi {
		return 0, fmt.Errorf("%w: integer out of range", ErrInvalidItem)
	}
	return b.Int64(), nil
}

// itemUint160 converts a 20-byte item.
func itemUint160(item stackitem.Item) (hash.Uint160, error) {
	b, err := item.TryBytes()
	if err != nil {
		return hash.Uint160{}, fmt.Errorf("%w: %w", ErrInvalidItem, err)
	}
	if len(b) != hash.Uint160Size {
		return hash.Uint160{}, fmt.Errorf("%w: %d bytes for a Uint160", ErrInvalidItem, len(b))
	}
	return hash.Uint160(b), nil
}

package core

import (
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Deployed contracts and their storage in the current state.

// GetContractState returns a deployed or native contract's state, or nil.
func (bc *Blockchain) GetContractState(h hash.Uint160) *state.Contract {
	cs, err := bc.natives.Management.GetContract(bc.dao, h)
	if err != nil {
		return nil
	}
	return cs
}

// GetContractStateByID returns the state of the contract with the given
// id, or nil.
func (bc *Blockchain) GetContractStateByID(id int32) *state.Contract {
	cs, err := bc.natives.Management.GetContractByID(bc.dao, id)
	if err != nil {
		return nil
	}
	return cs
}

// GetNatives returns the states of the native contracts active at the
// current height, in id order (-1 first).
func (bc *Blockchain) GetNatives() []state.Contract {
	var res []state.Contract
	for _, c := range bc.natives.List() {
		if !bc.natives.IsActive(c, bc.BlockHeight()) {
			continue
		}
		if cs := bc.GetContractState(c.Metadata().Hash); cs != nil {
			res = append(res, *cs)
		}
	}
	return res
}

// GetNEP17Contracts returns the deployed NEP-17 contracts (natives
// included).
func (bc *Blockchain) GetNEP17Contracts() []hash.Uint160 {
	return bc.natives.Management.NEP17Contracts(bc.dao)
}

// GetNEP11Contracts returns the deployed NEP-11 contracts.
func (bc *Blockchain) GetNEP11Contracts() []hash.Uint160 {
	return bc.natives.Management.NEP11Contracts(bc.dao)
}

// GetStorageItem returns a contract storage value, or nil.
func (bc *Blockchain) GetStorageItem(id int32, key []byte) []byte {
	return bc.dao.GetStorageItem(id, key)
}

// SeekStorage walks the storage items of contract id whose keys start with
// prefix, in key order; f gets the keys without the prefix.
func (bc *Blockchain) SeekStorage(id int32, prefix []byte, f func(k, v []byte) bool) {
	bc.dao.Seek(id, storage.SeekRange{Prefix: prefix}, f)
}

package core

import (
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Historic state: values, searches and proofs in the state trie of any
// kept height.

// GetState returns the value of a contract storage key (contract id LE and
// key) in the state with the given root (getstate).
func (bc *Blockchain) GetState(root hash.Uint256, key []byte) ([]byte, error) {
	return bc.state.GetState(bc.dao.Store, root, key)
}

// FindStates returns up to max storage items whose keys (contract id LE and
// key) start with prefix, after prefix+start, in the state with the given
// root (findstates).
func (bc *Blockchain) FindStates(root hash.Uint256, prefix, start []byte, max int) ([]mpt.KeyValue, error) {
	return bc.state.FindStates(bc.dao.Store, root, prefix, start, max)
}

// GetStateProof returns the MPT proof of a storage key in the state with the
// given root (getproof).
func (bc *Blockchain) GetStateProof(root hash.Uint256, key []byte) ([][]byte, error) {
	return bc.state.GetProof(bc.dao.Store, root, key)
}

// GetLatestStateHeight returns the highest height whose state root is root.
func (bc *Blockchain) GetLatestStateHeight(root hash.Uint256) (uint32, error) {
	return bc.state.GetLatestStateHeight(bc.dao.Store, root)
}

// SeekStates walks the storage items whose keys (contract id LE and key)
// start with prefix in the state with the given root, in key order; f gets
// keys without the prefix and returns false to stop (findstoragehistoric).
func (bc *Blockchain) SeekStates(root hash.Uint256, prefix []byte, f func(k, v []byte) bool) {
	full := append([]byte{byte(storage.STStorage)}, prefix...)
	bc.state.TrieStore(bc.dao.Store, root).Seek(storage.SeekRange{Prefix: full}, func(k, v []byte) bool {
		return f(k[len(full):], v)
	})
}

// CurrentValidatedHeight is the height of the latest state root signed by
// the state validators. On a StateRootInHeader network the consensus
// nodes vouch for every root in the next header, and (as in neo-go) the
// local height counts as validated.
func (bc *Blockchain) CurrentValidatedHeight() uint32 {
	if bc.cfg.StateRootInHeader {
		return bc.state.CurrentLocalHeight()
	}
	return bc.state.CurrentValidatedHeight()
}

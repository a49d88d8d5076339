package core

import (
	"bytes"
	"slices"

	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/n3node/n3node/pkg/core/storage"
)

// LastStorageBatch returns the storage changes of the latest committed
// block, or nil without SaveStorageBatch (neo-go Blockchain.LastBatch):
// additions and changes first, then deletions of keys that existed before
// the block, each ordered by key. AddBlockStream's callback sees the batch
// of the block it is given.
func (bc *Blockchain) LastStorageBatch() *chaindump.StorageBatch { return bc.lastBatch.Load() }

// storageBatch classifies the storage changes of the block at index
// against before, the state of the previous block.
func storageBatch(index uint32, changes map[string][]byte, before storage.Store) *chaindump.StorageBatch {
	b := &chaindump.StorageBatch{Index: index, Changes: make([]chaindump.StorageChange, 0, len(changes))}
	var dels []chaindump.StorageChange
	for k, v := range changes {
		_, err := before.Get([]byte(k))
		existed := err == nil
		key := []byte(k)[1:]
		switch {
		case v != nil && existed:
			b.Changes = append(b.Changes, chaindump.StorageChange{State: chaindump.StorageChanged, Key: key, Value: v})
		case v != nil:
			b.Changes = append(b.Changes, chaindump.StorageChange{State: chaindump.StorageAdded, Key: key, Value: v})
		case existed:
			dels = append(dels, chaindump.StorageChange{State: chaindump.StorageDeleted, Key: key})
		}
	}
	byKey := func(a, b chaindump.StorageChange) int { return bytes.Compare(a.Key, b.Key) }
	slices.SortFunc(b.Changes, byKey)
	slices.SortFunc(dels, byKey)
	b.Changes = append(b.Changes, dels...)
	b.Size = len(b.Changes)
	return b
}

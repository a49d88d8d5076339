package mpt_test

import (
	"fmt"

	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// The ledger's use of the trie, one block at a time: the block's writes
// collect in a MemCachedStore layer; the contract-storage part of its
// changes is the trie batch; the trie's node writes join the same layer,
// which is persisted as one change set.
func Example_ledger() {
	db := storage.NewMemoryStore()
	chain := storage.NewMemCachedStore(db) // long-lived layer over the database
	tr := mpt.NewTrie(hash.Uint256{}, mpt.ModeLatest, chain)

	item := func(id byte, key string) []byte {
		return append([]byte{byte(storage.STStorage), id, 0, 0, 0}, key...)
	}
	blocks := []map[string][]byte{
		{string(item(1, "alice")): {10}, string(item(1, "bob")): {20}},
		{string(item(1, "alice")): nil, string(item(2, "x")): {}},
	}
	for height, writes := range blocks {
		block := storage.NewMemCachedStore(chain)
		if err := block.PutChangeSet(writes); err != nil { // what execution wrote
			panic(err)
		}
		batch, err := mpt.MapToBatch(block.Changes(storage.STStorage.Bytes()), 1)
		if err != nil {
			panic(err)
		}
		if err := tr.PutBatch(batch); err != nil {
			panic(err)
		}
		root := tr.StateRoot()
		nodes := map[string][]byte{}
		if err := tr.FlushTo(uint32(height), nodes); err != nil {
			panic(err)
		}
		if err := block.PutChangeSet(nodes); err != nil {
			panic(err)
		}
		if _, err := block.Persist(); err != nil { // into chain, before the next block
			panic(err)
		}
		tr.Collapse(mpt.DefaultCollapseDepth)
		fmt.Printf("block %d: root %s\n", height, root)
	}
	// (The roots equal neo-go 0.120.0's for the same changes.)
	if _, err := chain.Persist(); err != nil {
		panic(err)
	}
	v, err := tr.Get([]byte{2, 0, 0, 0, 'x'})
	fmt.Printf("x = %q, %v\n", v, err)
	// Output:
	// block 0: root 0x4f08f70da708aa41588e514d76346bd2eda9d29ee3443ebc1d5c1ec288989af5
	// block 1: root 0x7ddac82d2fd7845acd6296db67805cf202f8689d3b95ca0b70d4540a2d473caf
	// x = "", <nil>
}

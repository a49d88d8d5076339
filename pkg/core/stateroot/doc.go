// Package stateroot is the ledger's local state-root module: the Merkle
// Patricia Trie over contract storage (pkg/core/mpt), advanced one block at
// a time, and the state root of every height.
//
// # Use
//
// The ledger owns one Module. For each block it calls AddBlock with the
// block's contract-storage changes (keys with the 0x70 prefix, nil value =
// deleted); AddBlock applies them to the trie, computes the root, and adds
// the trie's node writes, the root record and the local-height record to
// the caller's change set, which the caller must write to the module's
// store, atomically with the block's other data, before the next AddBlock
// (or Abort to drop the block). Committed then publishes the new root and
// compacts the in-memory trie.
//
// Readers (GetStateRoot, GetState, FindStates, GetProof, TrieStore) take
// the store to read from, normally the node's committed layer: they never
// touch the module's trie and are safe for concurrent use with AddBlock.
//
// # Storage (neo-go's layout)
//
//	0x03 hash        trie node (mpt.NodePrefix; see mpt for the modes)
//	0x04 index(BE)   state root of the height: version, index (LE), root,
//	                 witnesses (the StateService wire form)
//	0x04 0x02        local root height (u32 LE)
//	0x04 0x03        validated root height (u32 LE)
//
// # Modes
//
// KeepOnlyLatestState gives mpt.ModeLatest (old roots stay recorded but
// their nodes are gone); RemoveUntraceableBlocks gives mpt.ModeGC (dead
// nodes are marked with their height and CollectGarbage removes them).
//
// # Ownership
//
// Roots returned by readers are fresh values. AddBlock keeps the change map
// values it is given (the trie keeps them).
package stateroot

// Package mpt implements Neo N3's Merkle Patricia Trie, the structure whose
// root hash over all contract storage is the state root validators sign.
//
// # Structure
//
// Keys are contract-storage keys (contract id as int32 little-endian, then
// the storage key; at most MaxKeyLength bytes), walked as nibbles (high
// half of each byte first). Nodes are:
//
//   - Branch: 16 children by next nibble, and slot 16 for the value stored
//     at the branch's own path;
//   - Extension: a non-empty run of nibbles shared by every key below, and
//     the node below it;
//   - Leaf: a value (at most MaxValueLength bytes, possibly empty);
//   - Hash: a node known only by its hash, loaded from the store on demand;
//   - Empty: no node (a nil *Node).
//
// A node's encoding is its type byte and content, children written as a
// hash node (0x03 + hash) or empty (0x04); its hash is Hash256 (double
// SHA-256) of that encoding. The root hash is unique for a set of keys
// because every change keeps three invariants: no branch has fewer than two
// children, no extension has an empty key, and no extension is followed by
// another extension (or by nothing).
//
// # Use by the ledger
//
// One Trie lives across blocks. For each block, build a Batch from the
// block's storage changes (MapToBatch, nil value = deleted item), apply it
// with PutBatch, read StateRoot, write the nodes with Flush (or FlushTo to
// commit them with the block's other writes), then Collapse to bound
// memory. Hashes are computed once per changed node at StateRoot/Flush time,
// not on every change.
//
// # Storage
//
// Nodes are stored under NodePrefix + hash, as neo-go does. In ModeAll the
// value is the encoding and nothing is deleted. In ModeLatest and ModeGC
// the value carries a 5-byte suffix, an active flag and a uint32 reference
// count equal to the number of places in the (tree-expanded) trie where the
// node occurs; a node whose count reaches zero is deleted (ModeLatest) or
// marked dead with the flush height (ModeGC) for CollectGarbage.
//
// # Other pieces
//
// GetProof and VerifyProof produce and check the proofs of the getproof and
// verifyproof RPC methods (ProofWithKey is their wire format). Billet
// rebuilds a trie node by node during state sync. TrieStore is a read-only
// storage.Store view of contract storage at a historic root.
//
// # Ownership
//
// Values passed to Put and batches are kept by the trie (not copied) and
// must not be modified afterwards. Values returned by Get, Find and
// VerifyProof are fresh copies. Keys and values passed to Seek callbacks are
// valid only during the call. A Trie, Billet or TrieStore is not safe for
// concurrent use.
package mpt

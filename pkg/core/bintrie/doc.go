// Package bintrie implements the EIP-7864 binary state tree as
// go-ethereum v1.17.10 implements it (trie/bintrie): 32-byte keys split
// into a 31-byte stem and a one-byte suffix, internal nodes, stem nodes
// with 256 value slots, and SHA-256 merkleization with the zero rule
// (hash of 64 zero bytes is zero). The hash function is pluggable (Hasher)
// because the EIP has not settled it.
//
// # Usage
//
//	t := bintrie.New(bintrie.Options{})          // or bintrie.Open(store, root, opts)
//	_ = t.Put(key, value)                        // error only from lazy loads
//	v, ok, err := t.Get(key)
//	root, changes := t.Commit()                  // hash + the stale node blobs
//	_ = store.PutChangeSet(changes)              // one atomic write
//
// Delete follows go-ethereum: it writes 32 zero bytes, the slot stays
// present, and there is no structural removal. A present zero value is not
// an absent slot (they hash differently).
//
// # Layout
//
// Nodes live in typed, chunked pools addressed by a 32-bit node reference (2-bit
// kind, 30-bit index). Internal nodes, stem nodes and hashed (not yet
// loaded) nodes contain no Go pointers, so their chunks sit in memory the
// garbage collector does not scan. A stem keeps a presence bitmap and the
// handle of a block in a pointer-free value arena that holds its present
// values packed in slot order; blocks double as slots fill.
//
// # Invariants
//
//   - Each node has two flags: recompute (its cached hash is stale) and
//     dirty (its stored blob is stale). recompute implies dirty, and an
//     ancestor of a flagged node carries the same flag. The value setter
//     sets both flags on the stem, and Put flags the root-to-stem path.
//     Nodes loaded from the store start clean.
//   - Hash recomputes only recompute-flagged nodes; Commit emits only
//     dirty nodes (the changed root-to-leaf paths) and clears the flag.
//   - The shape depends only on the set of stems: a stem sits at the
//     shallowest depth where no other stem shares its prefix, and a node's
//     storage key is its path, so a Commit overwrites in place and never
//     leaves orphans (stems only move deeper, and the internal node that
//     takes a stem's old path is rewritten in the same Commit).
//   - Nodes loaded from the store are checked against the hash their
//     parent records (ErrCorruptNode otherwise).
//   - Get answers only for the stem of the stem node it reaches.
//
// # Ownership
//
// Put copies the value. Get returns values by value. DecodeNode returns a
// DecodedNode whose Values alias the blob. Commit's map, keys and blobs
// belong to the caller. A Tree is not safe for concurrent use (Get may load
// nodes); Hash may use several goroutines internally.
package bintrie

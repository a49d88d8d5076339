// Package core is the ledger: the Blockchain, which opens or initializes a
// chain in a storage.Store, verifies and executes blocks through a
// pipeline, keeps the state, the state roots and the indexes, verifies and
// pools transactions, and answers the queries of the RPC, P2P and
// consensus layers.
//
// # Layers
//
//	disk store (storage.Store)
//	  └ dao    committed layer: whole blocks only; written to disk in the
//	           background (PersistInterval) with back-pressure
//	      └ stage   the block being committed; the next block executes
//	                 over it
//	          └ per-block execution and record layers (private)
//	              └ per-transaction layers (native.RunTx)
//
// A block reaches dao in one step, together with its records, transfer
// logs, trie nodes, state root and the current-block marker, so every change
// set written to disk ends at a block boundary: after a crash the store
// holds a consistent prefix of the chain and opening it continues from
// there. Headers are written to dao when they are added (header chain
// ahead of blocks is consistent on its own).
//
// # Pipeline
//
// AddBlocks checks blocks ahead (merkle root, scripts, standard witnesses
// precomputed on several goroutines), then for each block in order checks
// the header and the transactions against the previous block's state,
// executes it while another goroutine writes its records, and hands it to a
// committer that updates the trie and commits, while the next block
// executes. The results are those of sequential processing: each step
// reads exactly the state the sequential order gives it (docs/ledger.md
// explains why). AddBlock is AddBlocks for one block; AddBlockStream is
// AddBlocks reporting each committed block (the P2P block queue feeds it).
//
// # Concurrency
//
// Every exported method is safe for concurrent use. Readers see committed
// blocks only (BlockHeight, GetBlock, GetStateRoot, ...). Subscribers get
// block events from one goroutine; the chain never waits for them.
//
// # Ownership
//
// Blocks, transactions and results handed out are shared: do not modify
// them. Byte slices returned by storage getters belong to the caller.
package core

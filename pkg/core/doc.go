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
// # Subpackages
//
// The ledger's parts live below it: block and transaction wire formats
// (block, transaction), storage (storage, dao), the VM bindings (interop,
// native), the memory pool (mempool), the state trie and its roots (mpt,
// stateroot) and state sync (statesync). One subpackage is not part of
// the ledger: bintrie, the EIP-7864 binary state tree as go-ethereum
// implements it. No block, transaction or state root of Neo uses it; it is
// a standalone, benchmarked implementation kept for a future extra state
// commitment (docs/bintrie.md), tested against go-ethereum's in
// internal/bintriediff, and core does not import it.
//
// # Methods
//
// Blockchain's methods live in files named for what they hold:
// blockchain.go (opening, closing, heights, blocks), headers.go,
// pipeline.go and persist.go (adding blocks), verify.go (transactions,
// proposals), extensible.go (extensible payload senders), events.go (the
// ordered event stream), policy.go, governance.go, contracts.go,
// states.go (historic state and proofs), testvm.go (test executions,
// witnesses), services.go (the oracle's and notary's queries),
// transfers.go and records.go (indexes), statejump.go and
// validatedroot.go (state sync and validated roots), genesis.go, gc.go,
// errors.go.
//
// # A database that refuses writes
//
// The committed layer reaches the disk store in the background (every
// PersistInterval; Persist forces one). When such a write fails (a full
// disk: storage.ErrDiskFull) the chain refuses blocks and transactions
// with ErrWritesPaused, reads go on, and the next write that succeeds
// resumes it (WritesPaused reports the state); Close writes what was held
// back into the store's reserve.
//
// A read the database fails (a Get error other than a missing key, a walk
// the store ends with a panic) stops the chain for good instead (readfault.go):
// one log line, the block being executed is not committed, blocks and
// transactions are refused with ErrReadFailed, Failed is closed and the
// node shuts down.
//
// # Concurrency
//
// Every exported method is safe for concurrent use. Readers see committed
// blocks only (BlockHeight, GetBlock, GetStateRoot, ...). Subscribers
// (Subscribe) get typed events in the chain's order from one goroutine,
// the memory pool's events in the same stream; the chain never waits for
// them.
//
// # Ownership
//
// Blocks, transactions and results handed out are shared: do not modify
// them. Byte slices returned by storage getters belong to the caller.
package core

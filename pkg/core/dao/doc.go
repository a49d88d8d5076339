// Package dao is the data access layer of the ledger: typed reads and
// writes of everything the node stores, over a stack of
// storage.MemCachedStore layers, plus a per-layer cache of decoded native
// contract state.
//
// # Layers
//
// A Simple wraps one MemCachedStore. GetWrapped adds a shared (locked) layer
// above it, GetPrivate a private (lock-free, single goroutine) one. The
// ledger keeps one Simple over the disk store, makes a private layer per
// block and one per transaction (and the interop layer adds one per contract
// call that may have to be rolled back); Persist merges a layer into the one
// below. A private layer and everything built on it must be used by one
// goroutine at a time.
//
// # Native contract caches
//
// Native contracts keep decoded state (Policy values, the NEO committee,
// deployed contracts) in a NativeContractCache per contract id. GetROCache
// returns the nearest layer's cache for reading; GetRWCache copies it into
// the current layer on first write access, so changes stay in the layer
// until Persist moves the layer's caches down, and disappear with the layer
// otherwise (a FAULTed transaction). SetCache installs a cache.
//
// # Key schema
//
//	0x01 hash          executable: block (trimmed) or transaction record,
//	                   or a conflict stub (Conflicts attribute)
//	0x01 hash account  conflict record of a signer
//	0x02 hash trigger  execution result (application log), CBOR record
//	0x70 id key        contract storage: 4-byte little-endian contract id
//	                   and the contract's key (the MPT commits over these,
//	                   without the 0x70 byte, so this layout is consensus)
//	0x80 index         header hash at index (big-endian u32)
//	0xc0               current block: hash and index
//	0xc1               current header: hash and index
//	0xf0               database version
//
// Prefixes 0x03/0x04 (MPT nodes and roots) and 0x71-0x74 are reserved for
// the state root and token transfer modules, as in neo-go.
//
// # Ownership
//
// Byte slices returned by getters belong to the caller. Values passed to
// putters are copied.
package dao

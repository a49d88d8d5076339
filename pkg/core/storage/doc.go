// Package storage defines the key-value Store every part of the node persists
// through, its backends, and the layered write-back cache above them.
//
// # The Store contract
//
//   - Get returns ErrKeyNotFound for a missing key. A stored empty value is
//     not the same as a missing key: Get returns it as a non-nil empty slice.
//   - PutChangeSet(puts) is the "PutChangeSet(puts, deletes)" of a Neo node
//     in one map: a nil value deletes its key, an empty non-nil value stores
//     an empty value, deleting a missing key is a no-op. It applies the whole
//     change set atomically: after a crash (even a SIGKILL in the middle of
//     the call) a disk backend holds all of it or none of it. Keys are
//     non-empty (ErrEmptyKey).
//   - Seek yields keys in ascending byte order (descending with Backwards),
//     restricted to keys with the given prefix and starting at Prefix+Start
//     (see SeekRange for the exact bounds). It walks a consistent snapshot
//     taken when it begins: writes made meanwhile are not seen.
//   - SeekGC walks like Seek and deletes the rejected keys in one atomic
//     write at the end.
//   - After Close, operations fail with ErrClosed (Seek yields nothing);
//     Close waits for the operations in flight.
//   - A disk backend's Seek panics if the database fails in the middle of a
//     walk: Seek has no error result, and a silently shortened walk could
//     make the node compute a wrong state.
//
// # Who owns what
//
//   - Slices returned by Get belong to the caller.
//   - Slices passed to Seek and SeekGC callbacks (and to SeekChanges) are
//     valid only during the callback and must not be modified; copy them to
//     keep them.
//   - Maps and slices passed to PutChangeSet must not be modified until it
//     returns; the store does not keep them afterwards.
//   - MemCachedStore.Put copies its arguments. MemCachedStore.Changes returns
//     a map the caller owns whose values are shared with the layer and must
//     not be modified.
//
// # Layers
//
// MemCachedStore is a write-back layer over any Store, including another
// MemCachedStore: the node keeps one over the disk store (flushed about once
// a second), one per block over that, and a private one per transaction. A
// Persist moves a layer's change set down with one PutChangeSet without
// blocking the layer; see MemCachedStore.Persist for the protocol and
// docs/storage.md for the design.
//
// # Backends
//
// Open picks a backend from Options: Pebble (the default), BoltDB, LevelDB
// (neo-go's default, kept for comparison) or the in-memory MemoryStore.
// Errors wrap ErrNotExist, ErrLocked, ErrCorrupt, ErrReadOnly and
// ErrUnknownEngine so that callers can branch on them. A writable disk store
// from Open keeps a free space reserve (Options.MinFreeSpace): a write that
// would eat into it fails with ErrDiskFull and changes nothing, so Pebble
// never meets a full disk in the middle of a write. OptionsFromConfig
// maps a node configuration's DBConfiguration to Options; the node and the
// offline db commands both open their database through it.
//
// Package storagetest holds the conformance suite every Store passes, a
// reference model and a fault-injecting wrapper, for this package's tests
// and for those of packages built on it.
package storage

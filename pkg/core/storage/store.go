package storage

import "errors"

// ErrKeyNotFound is returned by Get for a key that is not stored.
var ErrKeyNotFound = errors.New("key not found")

// ErrClosed is returned by operations on a closed store.
var ErrClosed = errors.New("store is closed")

// Errors returned by Open and by writes; callers branch on them with
// errors.Is. The backend's own error is wrapped beside the sentinel.
var (
	// ErrNotExist: the database does not exist and was opened read-only.
	ErrNotExist = errors.New("database does not exist")
	// ErrLocked: another process (or another handle in this process) holds
	// the database open.
	ErrLocked = errors.New("database is locked by another process or handle")
	// ErrCorrupt: the database files are damaged or are not a database of
	// the requested engine.
	ErrCorrupt = errors.New("database is corrupt")
	// ErrReadOnly: a write was attempted on a store opened read-only.
	ErrReadOnly = errors.New("store is read-only")
	// ErrEmptyKey: a change set holds the empty key, which no backend
	// stores (every node key starts with a prefix byte).
	ErrEmptyKey = errors.New("empty key")
)

// SeekRange selects the keys a Seek visits.
//
// Forward, the walk visits the keys k with prefix Prefix and
// k >= Prefix+Start, in ascending order. Backwards, it visits the keys with
// prefix Prefix that are <= Prefix+Start or begin with Prefix+Start, in
// descending order; so a backward walk with Start "ab" includes "abz" (the
// whole subtree under Prefix+Start), which is how neo-go's LevelDB and
// BoltDB stores behave and what its transfer-log walks rely on. An empty
// Start visits every key with the prefix.
type SeekRange struct {
	// Prefix restricts the walk to keys that begin with it (nil: all keys).
	Prefix []byte
	// Start is appended to Prefix to give the first key visited going
	// forward, or the bound of the walk going backwards (see above).
	Start []byte
	// Backwards walks in descending key order.
	Backwards bool
}

// Store is a key-value store with atomic change sets and sorted range walks.
// Every method is safe for concurrent use. Keys are non-empty.
type Store interface {
	// Get returns a copy of the value stored under key or ErrKeyNotFound.
	// A stored empty value is returned as a non-nil empty slice. The store
	// does not keep key after it returns (callers may reuse the buffer).
	Get(key []byte) ([]byte, error)
	// PutChangeSet atomically stores every entry of puts, where a nil value
	// deletes the key and an empty non-nil value stores an empty value.
	// Deleting a missing key is not an error. The store does not keep puts
	// or its values after it returns.
	PutChangeSet(puts map[string][]byte) error
	// Seek calls f for each key in rng in sorted order until f returns false.
	// The walk is a consistent snapshot taken when Seek begins: writes made
	// meanwhile, by f or by others, are not seen. k and v are valid only
	// during the call and must not be modified.
	Seek(rng SeekRange, f func(k, v []byte) bool)
	// SeekGC walks rng like Seek and deletes (atomically, at the end) every
	// key for which keep returns false.
	SeekGC(rng SeekRange, keep func(k, v []byte) bool) error
	// Close releases the store. It waits for operations in flight.
	Close() error
}

// checkKeys reports ErrEmptyKey if puts holds the empty key.
func checkKeys(puts map[string][]byte) error {
	if _, ok := puts[""]; ok {
		return ErrEmptyKey
	}
	return nil
}

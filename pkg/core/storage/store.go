package storage

import "errors"

// ErrKeyNotFound is returned by Get for a key that is not stored.
var ErrKeyNotFound = errors.New("key not found")

// ErrClosed is returned by operations on a closed store.
var ErrClosed = errors.New("store is closed")

// SeekRange selects the keys a Seek visits.
type SeekRange struct {
	// Prefix restricts the walk to keys that begin with it (nil: all keys).
	Prefix []byte
	// Start is appended to Prefix to give the first key visited going
	// forward, or the last key visited going backwards (inclusive).
	Start []byte
	// Backwards walks in descending key order.
	Backwards bool
}

// Store is a key-value store with atomic change sets and sorted range walks.
type Store interface {
	// Get returns a copy of the value stored under key or ErrKeyNotFound.
	Get(key []byte) ([]byte, error)
	// PutChangeSet atomically stores every entry of puts, where a nil value
	// deletes the key and an empty non-nil value stores an empty value.
	PutChangeSet(puts map[string][]byte) error
	// Seek calls f for each key in rng in sorted order until f returns false.
	// k and v are valid only during the call.
	Seek(rng SeekRange, f func(k, v []byte) bool)
	// SeekGC walks rng like Seek and deletes (atomically, at the end) every
	// key for which keep returns false.
	SeekGC(rng SeekRange, keep func(k, v []byte) bool) error
	// Close releases the store.
	Close() error
}

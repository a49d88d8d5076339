package mpt

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// ErrReadOnly is returned by the write methods of TrieStore.
var ErrReadOnly = fmt.Errorf("MPT store view is read-only: %w", errors.ErrUnsupported)

// TrieStore is a read-only storage.Store view of contract storage as it was
// at a given state root, for historic queries (neo-go: mpt.TrieStore). Keys
// are keyPrefix followed by a trie key (contract id and storage key); Get
// and Seek outside keyPrefix find nothing. Wrap it in a write cache if the
// caller needs to write.
//
// A TrieStore never changes the backing store and keeps no nodes in
// memory, so it may be used concurrently if the backing store may.
type TrieStore struct {
	backend storage.Store
	mode    Mode
	root    hash.Uint256
	prefix  []byte

	mu  sync.Mutex
	err error
}

var _ storage.Store = (*TrieStore)(nil)

// NewTrieStore returns a view of the trie with the given root stored in
// backend in mode. Dead nodes of ModeGC (kept until garbage collection) are
// readable through the view, as old roots need them.
func NewTrieStore(root hash.Uint256, mode Mode, backend storage.Store, keyPrefix []byte) *TrieStore {
	return &TrieStore{
		backend: backend,
		mode:    mode &^ ModeGCFlag,
		root:    root,
		prefix:  bytes.Clone(keyPrefix),
	}
}

// Get implements storage.Store.
func (s *TrieStore) Get(key []byte) ([]byte, error) {
	if !bytes.HasPrefix(key, s.prefix) {
		return nil, storage.ErrKeyNotFound
	}
	v, err := lookup(s.backend, s.mode, s.root, key[len(s.prefix):])
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalidKey) {
		return nil, storage.ErrKeyNotFound
	}
	return v, err
}

// lookup finds key in the trie at root without keeping any node.
func lookup(store storage.Store, mode Mode, root hash.Uint256, key []byte) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	if root.IsZero() {
		return nil, ErrNotFound
	}
	var buf [2 * MaxKeyLength]byte
	path := toNibbles(buf[:0], key)
	n := newHash(root)
	for {
		if n == nil {
			return nil, ErrNotFound
		}
		switch n.typ {
		case HashT:
			r, err := loadNode(store, mode, n.hash)
			if err != nil {
				return nil, err
			}
			n = r
		case LeafT:
			if len(path) != 0 {
				return nil, ErrNotFound
			}
			return n.data, nil // loadNode's data is a fresh copy
		case BranchT:
			if len(path) == 0 {
				n = n.kids[valueSlot]
			} else {
				n = n.kids[path[0]]
				path = path[1:]
			}
		case ExtensionT:
			if !bytes.HasPrefix(path, n.data) {
				return nil, ErrNotFound
			}
			path = path[len(n.data):]
			n = n.next
		}
	}
}

// Seek implements storage.Store. A storage error ends the walk early; Err
// returns it.
func (s *TrieStore) Seek(rng storage.SeekRange, f func(k, v []byte) bool) {
	var tkPrefix []byte
	switch {
	case bytes.HasPrefix(rng.Prefix, s.prefix):
		tkPrefix = rng.Prefix[len(s.prefix):]
	case bytes.HasPrefix(s.prefix, rng.Prefix) && len(rng.Start) == 0:
		// A shorter prefix covering the whole view.
		rng = storage.SeekRange{Prefix: s.prefix, Backwards: rng.Backwards}
	default:
		return
	}
	if len(tkPrefix)+len(rng.Start) > MaxKeyLength {
		return
	}
	t := &Trie{store: s.backend, mode: s.mode, collapsed: -1}
	if !s.root.IsZero() {
		t.root = newHash(s.root)
	}
	key := append([]byte(nil), s.prefix...)
	err := t.Seek(tkPrefix, rng.Start, rng.Backwards, func(k, v []byte) bool {
		key = append(key[:len(s.prefix)], k...)
		return f(key, v)
	})
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
}

// Err returns the first error a Seek met.
func (s *TrieStore) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// PutChangeSet implements storage.Store; it always fails with ErrReadOnly.
func (s *TrieStore) PutChangeSet(map[string][]byte) error { return ErrReadOnly }

// SeekGC implements storage.Store; it always fails with ErrReadOnly.
func (s *TrieStore) SeekGC(storage.SeekRange, func(k, v []byte) bool) error { return ErrReadOnly }

// Close implements storage.Store. It does not close the backing store.
func (s *TrieStore) Close() error { return nil }

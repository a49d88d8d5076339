package storage

import (
	"bytes"
	"slices"
	"sort"
	"sync"
)

// MemoryStore is an in-memory Store for tests and for running without a
// disk database. Keys are kept in a sorted index that is rebuilt lazily only
// after writes, so a run of Seeks between writes pays no sorting.
type MemoryStore struct {
	mu     sync.RWMutex
	m      map[string][]byte
	keys   []string // sorted; valid when !dirty
	dirty  bool
	closed bool
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{m: make(map[string][]byte)}
}

// Get implements Store.
func (s *MemoryStore) Get(key []byte) ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.m[string(key)]
	if !ok {
		return nil, ErrKeyNotFound
	}
	return bytes.Clone(v), nil
}

// PutChangeSet implements Store.
func (s *MemoryStore) PutChangeSet(puts map[string][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for k, v := range puts {
		if v == nil {
			if _, ok := s.m[k]; ok {
				delete(s.m, k)
				s.dirty = true
			}
			continue
		}
		if _, ok := s.m[k]; !ok {
			s.dirty = true
		}
		s.m[k] = bytes.Clone(v)
	}
	return nil
}

// sortedKeys returns the sorted key index, rebuilding it if needed. The
// caller must hold the write lock or have upgraded to it.
func (s *MemoryStore) sortedKeys() []string {
	if s.dirty || s.keys == nil {
		s.keys = s.keys[:0]
		for k := range s.m {
			s.keys = append(s.keys, k)
		}
		slices.Sort(s.keys)
		s.dirty = false
	}
	return s.keys
}

// snapshot returns the keys and values in rng, in walk order.
func (s *MemoryStore) collect(rng SeekRange) (keys []string, vals [][]byte) {
	s.mu.Lock()
	all := s.sortedKeys()
	prefix := string(rng.Prefix)
	start := prefix + string(rng.Start)
	if !rng.Backwards {
		i := sort.SearchStrings(all, start)
		for ; i < len(all) && hasPrefix(all[i], prefix); i++ {
			keys = append(keys, all[i])
			vals = append(vals, s.m[all[i]])
		}
	} else {
		var i int
		if len(rng.Start) == 0 {
			// Last key with the prefix: first key past the prefix range, minus one.
			i = searchPastPrefix(all, prefix) - 1
		} else {
			i = sort.Search(len(all), func(j int) bool { return all[j] > start }) - 1
		}
		for ; i >= 0 && hasPrefix(all[i], prefix); i-- {
			keys = append(keys, all[i])
			vals = append(vals, s.m[all[i]])
		}
	}
	s.mu.Unlock()
	return keys, vals
}

func hasPrefix(k, p string) bool { return len(k) >= len(p) && k[:len(p)] == p }

// searchPastPrefix returns the index of the first key greater than every
// key with prefix p.
func searchPastPrefix(all []string, p string) int {
	return sort.Search(len(all), func(j int) bool {
		k := all[j]
		if hasPrefix(k, p) {
			return false
		}
		return k > p
	})
}

// Seek implements Store. The callback runs without the store's lock held,
// over a snapshot of the range taken when Seek began.
func (s *MemoryStore) Seek(rng SeekRange, f func(k, v []byte) bool) {
	keys, vals := s.collect(rng)
	for i, k := range keys {
		if !f([]byte(k), vals[i]) {
			return
		}
	}
}

// SeekGC implements Store.
func (s *MemoryStore) SeekGC(rng SeekRange, keep func(k, v []byte) bool) error {
	keys, vals := s.collect(rng)
	del := make(map[string][]byte)
	for i, k := range keys {
		if !keep([]byte(k), vals[i]) {
			del[k] = nil
		}
	}
	return s.PutChangeSet(del)
}

// Close implements Store.
func (s *MemoryStore) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return nil
}

// Len returns the number of stored keys.
func (s *MemoryStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.m)
}

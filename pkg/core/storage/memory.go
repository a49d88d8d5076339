package storage

import (
	"bytes"
	"sync"
)

// MemoryStore is an in-memory Store for tests and for running without a
// disk database. Keys live in a hash map with an ordered index beside it
// (see sortedMap), so Get is one map lookup and Seek pays only for merging
// the keys written since the previous Seek, never a full sort.
type MemoryStore struct {
	mu     sync.RWMutex
	data   sortedMap
	closed bool
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{}
}

// Get implements Store.
func (s *MemoryStore) Get(key []byte) ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	v, ok := s.data.get(string(key))
	if !ok {
		return nil, ErrKeyNotFound
	}
	return bytes.Clone(v), nil
}

// PutChangeSet implements Store.
func (s *MemoryStore) PutChangeSet(puts map[string][]byte) error {
	if err := checkKeys(puts); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for k, v := range puts {
		if v == nil {
			s.data.remove(k)
		} else {
			s.data.set(k, bytes.Clone(v))
		}
	}
	return nil
}

// collect returns a snapshot of the entries in rng, in walk order.
func (s *MemoryStore) collect(rng SeekRange) []kv {
	lo, hi := rng.Bounds()
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return nil
	}
	if !s.data.isOrdered() {
		s.mu.RUnlock()
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed {
			return nil
		}
		s.data.order()
	} else {
		defer s.mu.RUnlock()
	}
	return s.data.snapshot(lo, hi, rng.Backwards, false)
}

// Seek implements Store. The callback runs without the store's lock held,
// over a snapshot of the range taken when Seek began, so it may write to the
// store.
func (s *MemoryStore) Seek(rng SeekRange, f func(k, v []byte) bool) {
	for _, e := range s.collect(rng) {
		if !f(sbytes(e.k), e.v) {
			return
		}
	}
}

// SeekGC implements Store.
func (s *MemoryStore) SeekGC(rng SeekRange, keep func(k, v []byte) bool) error {
	del := make(map[string][]byte)
	for _, e := range s.collect(rng) {
		if !keep(sbytes(e.k), e.v) {
			del[e.k] = nil
		}
	}
	return s.PutChangeSet(del)
}

// Close implements Store. It drops the data.
func (s *MemoryStore) Close() error {
	s.mu.Lock()
	s.closed = true
	s.data = sortedMap{}
	s.mu.Unlock()
	return nil
}

// Len returns the number of stored keys.
func (s *MemoryStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data.len()
}

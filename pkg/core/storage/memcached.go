package storage

import (
	"bytes"
	"sync"
)

// MemCachedStore is a write-back layer over a lower Store, which may itself
// be a MemCachedStore: the node stacks one over the disk store (flushed
// about once a second), one per block over that, and one per transaction
// over the block's.
//
// Writes stay in the layer until Persist hands the whole change set to the
// lower store with one PutChangeSet. Reads fall through to the lower store
// for keys the layer has not changed; a key deleted in the layer hides the
// lower store's value. Seek merges the layer's ordered changes with the
// lower store's sorted walk.
//
// A shared layer (NewMemCachedStore) is safe for concurrent use, and Persist
// does not block it while the lower store is written: see Persist. A private
// layer (NewPrivateMemCachedStore) takes no locks and must be used by one
// goroutine at a time; it costs one small allocation to create and its
// Persist into a MemCachedStore moves values without copying them.
//
// The layer must be the only writer of its lower store while it is in use;
// otherwise its reads still see the lower store's latest state, but a Seek
// is no longer a consistent snapshot.
type MemCachedStore struct {
	lower   Store
	private bool

	mu sync.RWMutex // guards the fields below (shared layers only)
	// cur holds the changes not yet handed to a flush; nil value = deleted.
	cur sortedMap
	// flushing is the change set a Persist is writing to lower, or nil. It
	// is read-only while set and still answers reads.
	flushing *frozenLayer
	// seeks counts the Seeks that took their layer snapshot since the last
	// swap and have not yet started their walk of the lower store; Persist
	// waits for them before it changes the lower store under them.
	seeks  *sync.WaitGroup
	closed bool

	plock sync.Mutex // serializes Persist, PersistSync and Close
}

// frozenLayer is a change set handed to a flush; its map is never written.
type frozenLayer struct {
	data sortedMap
	once sync.Once
}

// ordered returns the change set with its index ordered; concurrent callers
// share one ordering pass.
func (f *frozenLayer) ordered() *sortedMap {
	f.once.Do(f.data.order)
	return &f.data
}

// NewMemCachedStore returns a shared, empty layer over lower.
func NewMemCachedStore(lower Store) *MemCachedStore {
	return &MemCachedStore{lower: lower, seeks: new(sync.WaitGroup)}
}

// NewPrivateMemCachedStore returns an empty layer over lower for use by a
// single goroutine: it takes no locks. A private layer can be reused after
// Persist or Discard, which empty it and keep its buffers.
func NewPrivateMemCachedStore(lower Store) *MemCachedStore {
	return &MemCachedStore{lower: lower, private: true}
}

// SizeHint tells an empty layer that about n keys are coming: its map is
// then allocated once at that size on the first write instead of grown step
// by step. It does nothing to a layer that holds changes.
func (s *MemCachedStore) SizeHint(n int) {
	s.lock()
	if s.cur.m == nil {
		s.cur.hint = n
	}
	s.unlock()
}

// Lower returns the store the layer writes to.
func (s *MemCachedStore) Lower() Store { return s.lower }

func (s *MemCachedStore) rlock() {
	if !s.private {
		s.mu.RLock()
	}
}

func (s *MemCachedStore) runlock() {
	if !s.private {
		s.mu.RUnlock()
	}
}

func (s *MemCachedStore) lock() {
	if !s.private {
		s.mu.Lock()
	}
}

func (s *MemCachedStore) unlock() {
	if !s.private {
		s.mu.Unlock()
	}
}

// Get implements Store. The returned slice belongs to the caller.
func (s *MemCachedStore) Get(key []byte) ([]byte, error) {
	s.rlock()
	if s.closed {
		s.runlock()
		return nil, ErrClosed
	}
	v, ok := s.cur.get(bstr(key))
	if !ok && s.flushing != nil {
		v, ok = s.flushing.data.get(bstr(key))
	}
	lower := s.lower
	s.runlock()
	if ok {
		if v == nil {
			return nil, ErrKeyNotFound
		}
		return bytes.Clone(v), nil
	}
	return lower.Get(key)
}

// Put stores a copy of value under key in the layer. A nil value stores an
// empty value (use Delete to delete). key must not be empty.
func (s *MemCachedStore) Put(key, value []byte) {
	s.PutOwned(key, bytes.Clone(value))
}

// PutOwned is Put for a value the caller hands over: the layer keeps value
// itself instead of a copy (one allocation and copy less for a record
// built just to be stored), so the caller must not modify it afterwards.
func (s *MemCachedStore) PutOwned(key, value []byte) {
	if len(key) == 0 {
		panic("storage: MemCachedStore.Put with an empty key")
	}
	if value == nil {
		value = []byte{}
	}
	k := string(key)
	s.lock()
	s.cur.set(k, value)
	s.unlock()
}

// Delete deletes key in the layer, hiding any value the lower store holds.
func (s *MemCachedStore) Delete(key []byte) {
	if len(key) == 0 {
		panic("storage: MemCachedStore.Delete with an empty key")
	}
	k := string(key)
	s.lock()
	s.cur.set(k, nil)
	s.unlock()
}

// PutChangeSet implements Store: the change set is copied into the layer.
func (s *MemCachedStore) PutChangeSet(puts map[string][]byte) error {
	if err := checkKeys(puts); err != nil {
		return err
	}
	s.lock()
	defer s.unlock()
	if s.closed {
		return ErrClosed
	}
	for k, v := range puts {
		if v != nil {
			v = bytes.Clone(v)
		}
		s.cur.set(k, v)
	}
	return nil
}

// absorb applies a change set whose values the layer may keep without
// copying: the caller gives up writing them (it may still read them).
func (s *MemCachedStore) absorb(puts map[string][]byte) error {
	s.lock()
	defer s.unlock()
	if s.closed {
		return ErrClosed
	}
	for k, v := range puts {
		s.cur.set(k, v)
	}
	return nil
}

// layerSnapshot copies the layer's changes with keys in [lo, hi), in walk
// order, deletions included. With register, the snapshot is counted as a
// Seek that has not yet pinned its view of the lower store until done is
// called; a Persist waits for such Seeks before it writes the lower store.
// ok is false on a closed layer.
func (s *MemCachedStore) layerSnapshot(lo, hi []byte, backwards, register bool) (changes []kv, lower Store, done func(), ok bool) {
	if s.private {
		if s.closed {
			return nil, nil, nil, false
		}
		s.cur.order()
		return s.cur.snapshot(lo, hi, backwards, true), s.lower, func() {}, true
	}
	s.mu.RLock()
	exclusive := false
	if !s.cur.isOrdered() {
		s.mu.RUnlock()
		s.mu.Lock()
		exclusive = true
		s.cur.order()
	}
	if !s.closed {
		ok = true
		changes = s.cur.snapshot(lo, hi, backwards, true)
		if s.flushing != nil {
			older := s.flushing.ordered().snapshot(lo, hi, backwards, true)
			changes = mergeLayers(changes, older, backwards)
		}
		lower = s.lower
		done = func() {}
		if register {
			wg := s.seeks
			wg.Add(1)
			done = wg.Done
		}
	}
	if exclusive {
		s.mu.Unlock()
	} else {
		s.mu.RUnlock()
	}
	return changes, lower, done, ok
}

// mergeLayers merges two snapshots in the same walk order; on equal keys the
// newer entry wins.
func mergeLayers(newer, older []kv, backwards bool) []kv {
	if len(older) == 0 {
		return newer
	}
	if len(newer) == 0 {
		return older
	}
	out := make([]kv, 0, len(newer)+len(older))
	i, j := 0, 0
	for i < len(newer) && j < len(older) {
		a, b := newer[i].k, older[j].k
		switch {
		case a == b:
			out = append(out, newer[i])
			i++
			j++
		case (a < b) != backwards:
			out = append(out, newer[i])
			i++
		default:
			out = append(out, older[j])
			j++
		}
	}
	out = append(out, newer[i:]...)
	return append(out, older[j:]...)
}

// Seek implements Store. The layer's changes in rng are copied when Seek
// begins and merged with the lower store's walk, itself a snapshot; no lock
// is held while f runs, so f may read and write the layer (and even
// Persist it). A Seek sees the layer stack as it was when Seek began, even
// if a Persist runs meanwhile.
func (s *MemCachedStore) Seek(rng SeekRange, f func(k, v []byte) bool) {
	lo, hi := rng.Bounds()
	changes, lower, pinned, ok := s.layerSnapshot(lo, hi, rng.Backwards, true)
	if !ok {
		return
	}
	mergeSeek(changes, lower, rng, f, pinned)
}

// mergeSeek walks lower over rng and yields its entries merged with the
// ordered changes; a change replaces the lower entry of the same key, and a
// deletion hides it. pinned is called once the lower store's walk has taken
// its snapshot (at its first entry, or when it ends), before f is called.
func mergeSeek(changes []kv, lower Store, rng SeekRange, f func(k, v []byte) bool, pinned func()) {
	back := rng.Backwards
	i := 0
	stopped := false
	released := false
	lower.Seek(rng, func(k, v []byte) bool {
		if !released {
			released = true
			pinned()
		}
		ks := bstr(k)
		for i < len(changes) && changes[i].k != ks && (changes[i].k < ks) != back {
			e := changes[i]
			i++
			if e.v != nil && !f(sbytes(e.k), e.v) {
				stopped = true
				return false
			}
		}
		if i < len(changes) && changes[i].k == ks {
			e := changes[i]
			i++
			if e.v == nil {
				return true
			}
			k, v = sbytes(e.k), e.v
		}
		if !f(k, v) {
			stopped = true
			return false
		}
		return true
	})
	if !released {
		pinned()
	}
	if stopped {
		return
	}
	for ; i < len(changes); i++ {
		if e := changes[i]; e.v != nil && !f(sbytes(e.k), e.v) {
			return
		}
	}
}

// SeekGC implements Store: it walks the merged view and deletes, in the
// layer, every key keep rejects.
func (s *MemCachedStore) SeekGC(rng SeekRange, keep func(k, v []byte) bool) error {
	del := make(map[string][]byte)
	s.Seek(rng, func(k, v []byte) bool {
		if !keep(k, v) {
			del[string(k)] = nil
		}
		return true
	})
	return s.PutChangeSet(del)
}

// SeekChanges walks the layer's own pending changes in rng in sorted order,
// without the lower store; v is nil for a deleted key. k and v are valid
// only during the call and must not be modified.
func (s *MemCachedStore) SeekChanges(rng SeekRange, f func(k, v []byte) bool) {
	lo, hi := rng.Bounds()
	changes, _, _, ok := s.layerSnapshot(lo, hi, rng.Backwards, false)
	if !ok {
		return
	}
	for _, e := range changes {
		if !f(sbytes(e.k), e.v) {
			return
		}
	}
}

// Changes returns the layer's pending changes of keys with the given prefix
// (nil: all) as a new map; a nil value marks a deleted key. The map belongs
// to the caller; its values are shared with the layer and must not be
// modified. For a block layer, Changes([]byte{byte(STStorage)}) is the
// contract-storage change set the state trie applies.
func (s *MemCachedStore) Changes(prefix []byte) map[string][]byte {
	lo, hi := SeekRange{Prefix: prefix}.Bounds()
	changes, _, _, _ := s.layerSnapshot(lo, hi, false, false)
	m := make(map[string][]byte, len(changes))
	for _, e := range changes {
		m[e.k] = e.v
	}
	return m
}

// Len returns the number of changed keys the layer holds in memory, those
// waiting for a Persist plus those a Persist is writing (a key in both
// counts twice). The node uses it for back-pressure.
func (s *MemCachedStore) Len() int {
	s.rlock()
	defer s.runlock()
	n := s.cur.len()
	if s.flushing != nil {
		n += s.flushing.data.len()
	}
	return n
}

// Discard drops the layer's pending changes (not those a Persist is
// already writing).
func (s *MemCachedStore) Discard() {
	s.lock()
	if s.private {
		s.cur.reset()
	} else {
		s.cur = sortedMap{}
	}
	s.unlock()
}

// Persist writes the layer's change set to the lower store with one
// PutChangeSet and returns the number of keys written. The layer stays in
// service meanwhile:
//
//  1. under the lock, the change set is moved aside (it becomes the
//     read-only "flushing" set) and the layer starts a fresh one;
//  2. Persist waits until every Seek that copied its part of the layer
//     before the swap has opened its walk of the lower store (a snapshot),
//     which is about to change; this takes microseconds and never waits
//     for a Seek callback;
//  3. without the lock, the flushing set is written to the lower store,
//     while Get and Seek still read it (it lies between the fresh set and
//     the lower store) and writes go to the fresh set;
//  4. under the lock, the flushing set is dropped; if the write failed, its
//     entries that the fresh set has not overwritten are merged back, so
//     nothing is lost and the next Persist retries them.
//
// Persists are serialized. A private layer persists synchronously and is
// empty afterwards only if the write succeeded.
func (s *MemCachedStore) Persist() (int, error) {
	return s.persist(false)
}

// PersistSync is Persist, except that the layer is locked against every
// read and write while the lower store is written.
func (s *MemCachedStore) PersistSync() (int, error) {
	return s.persist(true)
}

func (s *MemCachedStore) persist(locked bool) (int, error) {
	if s.private {
		if s.closed {
			return 0, ErrClosed
		}
		n := s.cur.len()
		if n == 0 {
			return 0, nil
		}
		if err := flushTo(s.lower, s.cur.m); err != nil {
			return 0, err
		}
		s.cur.reset()
		return n, nil
	}

	s.plock.Lock()
	defer s.plock.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return 0, ErrClosed
	}
	n := s.cur.len()
	if n == 0 {
		s.mu.Unlock()
		return 0, nil
	}
	fl := &frozenLayer{data: s.cur}
	s.cur = sortedMap{hint: n}
	s.flushing = fl
	before := s.seeks
	s.seeks = new(sync.WaitGroup)
	lower := s.lower
	s.mu.Unlock()

	before.Wait()
	if locked {
		s.mu.Lock()
	}
	err := flushTo(lower, fl.data.m)
	if !locked {
		s.mu.Lock()
	}
	if err != nil {
		for k, v := range fl.data.m {
			if _, ok := s.cur.get(k); !ok {
				s.cur.set(k, v)
			}
		}
		n = 0
	}
	s.flushing = nil
	s.mu.Unlock()
	return n, err
}

// flushTo writes a change set the caller will not modify again to lower.
// A MemCachedStore below takes the values without copying them.
func flushTo(lower Store, puts map[string][]byte) error {
	if m, ok := lower.(*MemCachedStore); ok {
		return m.absorb(puts)
	}
	return lower.PutChangeSet(puts)
}

// Close drops the layer's unpersisted changes and closes the lower store.
// It waits for a Persist in progress.
func (s *MemCachedStore) Close() error {
	if !s.private {
		s.plock.Lock()
		defer s.plock.Unlock()
	}
	s.lock()
	if s.closed {
		s.unlock()
		return nil
	}
	s.closed = true
	s.cur = sortedMap{}
	s.unlock()
	return s.lower.Close()
}

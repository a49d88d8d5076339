package storagetest

import (
	"errors"
	"fmt"
	"sync"

	"github.com/n3node/n3node/pkg/core/storage"
)

// ErrInjected is the error a FaultStore returns for a write it was told to
// fail.
var ErrInjected = errors.New("storagetest: injected write failure")

// ErrInjectedRead is the error of a read a FaultStore was told to fail: Get
// returns it, Seek panics with it (as the disk backends do when a walk
// fails).
var ErrInjectedRead = errors.New("storagetest: injected read failure")

// FaultStore wraps a Store and fails writes (PutChangeSet, SeekGC) on
// demand; a failed write leaves the wrapped store untouched. Reads pass
// through unless FailReads is on. Hooks can hold a write or the start of a walk, to let a test act
// while one is in flight.
type FaultStore struct {
	storage.Store

	mu     sync.Mutex
	fail   int // writes left to fail; negative: all until Heal
	hook   func(puts map[string][]byte)
	seek   func(rng storage.SeekRange)
	writes int
	failed int
	err    error // what failed writes return; nil: ErrInjected
	reads  bool  // fail every read (FailReads)
}

// NewFaultStore wraps s.
func NewFaultStore(s storage.Store) *FaultStore {
	return &FaultStore{Store: s}
}

// FailWrites makes the next n writes fail with ErrInjected; n < 0 fails
// every write until Heal.
func (f *FaultStore) FailWrites(n int) {
	f.mu.Lock()
	f.fail = n
	f.mu.Unlock()
}

// FailWritesWith is FailWrites with err as the error of the failed writes
// (e.g. one wrapping storage.ErrDiskFull).
func (f *FaultStore) FailWritesWith(n int, err error) {
	f.mu.Lock()
	f.fail, f.err = n, err
	f.mu.Unlock()
}

// FailReads makes every read fail (on) or pass (off): Get of a key
// returns ErrInjectedRead, Seek panics with it.
func (f *FaultStore) FailReads(on bool) {
	f.mu.Lock()
	f.reads = on
	f.mu.Unlock()
}

func (f *FaultStore) readsFail() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

// Get implements storage.Store.
func (f *FaultStore) Get(key []byte) ([]byte, error) {
	if f.readsFail() {
		return nil, ErrInjectedRead
	}
	return f.Store.Get(key)
}

// Heal stops failing writes.
func (f *FaultStore) Heal() { f.FailWrites(0) }

// SetWriteHook installs h, which every PutChangeSet calls with its change
// set before it decides to fail or to write (nil removes the hook). The
// hook runs without the FaultStore's lock; it may block.
func (f *FaultStore) SetWriteHook(h func(puts map[string][]byte)) {
	f.mu.Lock()
	f.hook = h
	f.mu.Unlock()
}

// SetSeekHook installs h, which every Seek calls before it starts the walk
// of the wrapped store (nil removes it). It may block.
func (f *FaultStore) SetSeekHook(h func(rng storage.SeekRange)) {
	f.mu.Lock()
	f.seek = h
	f.mu.Unlock()
}

// Seek implements storage.Store.
func (f *FaultStore) Seek(rng storage.SeekRange, fn func(k, v []byte) bool) {
	f.mu.Lock()
	h := f.seek
	f.mu.Unlock()
	if h != nil {
		h(rng)
	}
	if f.readsFail() {
		panic(fmt.Errorf("storagetest: seek: %w", ErrInjectedRead))
	}
	f.Store.Seek(rng, fn)
}

// Writes returns how many writes were attempted and how many were failed.
func (f *FaultStore) Writes() (attempted, failed int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes, f.failed
}

// admit counts a write and returns the error it should fail with.
func (f *FaultStore) admit() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes++
	if f.fail != 0 {
		if f.fail > 0 {
			f.fail--
		}
		f.failed++
		if f.err != nil {
			return f.err
		}
		return ErrInjected
	}
	return nil
}

// PutChangeSet implements storage.Store.
func (f *FaultStore) PutChangeSet(puts map[string][]byte) error {
	f.mu.Lock()
	h := f.hook
	f.mu.Unlock()
	if h != nil {
		h(puts)
	}
	if err := f.admit(); err != nil {
		return err
	}
	return f.Store.PutChangeSet(puts)
}

// SeekGC implements storage.Store.
func (f *FaultStore) SeekGC(rng storage.SeekRange, keep func(k, v []byte) bool) error {
	if err := f.admit(); err != nil {
		return err
	}
	return f.Store.SeekGC(rng, keep)
}

package core

import (
	"errors"
	"fmt"
	"sync"

	"github.com/n3node/n3node/pkg/core/storage"
)

// ErrReadFailed: the database failed a read (an I/O error, corruption). The
// chain stops taking blocks and transactions for good: whatever was
// executed with the failed read may be wrong, so nothing built on it is
// committed. Failed is closed; the node is expected to shut down.
var ErrReadFailed = errors.New("the database failed a read")

// readFault holds the chain's first failed read.
type readFault struct {
	once sync.Once
	err  error // set once, before ch is closed
	ch   chan struct{}
}

// readGuard is the disk store as the chain reads it: a failed Get (other
// than a missing key) or a Seek that the store ends with a panic (the
// backends panic when a walk fails, Store.Seek has no error) marks the
// chain failed instead of crashing the process. The failed Get still
// returns its error; the failed walk returns early.
type readGuard struct {
	storage.Store
	bc *Blockchain
}

// Get implements storage.Store.
func (g readGuard) Get(key []byte) ([]byte, error) {
	v, err := g.Store.Get(key)
	if err != nil && !errors.Is(err, storage.ErrKeyNotFound) {
		g.bc.readFailed(err)
	}
	return v, err
}

// Seek implements storage.Store. A panic raised by f is f's and goes on.
func (g readGuard) Seek(rng storage.SeekRange, f func(k, v []byte) bool) {
	inF := false
	defer func() {
		if inF {
			return
		}
		if r := recover(); r != nil {
			err, ok := r.(error)
			if !ok {
				err = fmt.Errorf("%v", r)
			}
			g.bc.readFailed(err)
		}
	}()
	g.Store.Seek(rng, func(k, v []byte) bool {
		inF = true
		more := f(k, v)
		inF = false
		return more
	})
}

// readFailed records the first failed read: one log line, and the chain
// stops (see ErrReadFailed).
func (bc *Blockchain) readFailed(err error) {
	bc.fault.once.Do(func() {
		bc.fault.err = fmt.Errorf("%w: %w", ErrReadFailed, err)
		bc.log.Error("database failed, stopping: a read failed; no more blocks or transactions are taken",
			"err", err, "height", bc.BlockHeight())
		close(bc.fault.ch)
	})
}

// Failed is closed when the database has failed a read; ReadErr then says
// why. The chain takes no more blocks or transactions; the node should
// shut down.
func (bc *Blockchain) Failed() <-chan struct{} { return bc.fault.ch }

// ReadErr returns the failed read (wrapping ErrReadFailed), or nil.
func (bc *Blockchain) ReadErr() error {
	select {
	case <-bc.fault.ch:
		return bc.fault.err
	default:
		return nil
	}
}

package storage

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// gate tracks the operations in flight on a disk store so that Close can
// wait for them and later operations fail with ErrClosed. Unlike an
// RWMutex, entering never blocks, so a Seek callback may call Get while a
// Close is waiting.
type gate struct {
	state   atomic.Int64 // operations in flight, plus gateClosed once closing
	drained chan struct{}
	once    sync.Once
}

const gateClosed = 1 << 62

func newGate() *gate { return &gate{drained: make(chan struct{})} }

// enter admits an operation; it returns false once the store is closing.
func (g *gate) enter() bool {
	if g.state.Add(1)&gateClosed != 0 {
		g.leave()
		return false
	}
	return true
}

// enterWrite admits a write to a store opened read-only or not: ErrReadOnly
// or ErrClosed refuse it (the gate is then not entered); on nil the caller
// must leave.
func (g *gate) enterWrite(readOnly bool) error {
	if readOnly {
		return ErrReadOnly
	}
	if !g.enter() {
		return ErrClosed
	}
	return nil
}

func (g *gate) leave() {
	if g.state.Add(-1) == gateClosed {
		g.once.Do(func() { close(g.drained) })
	}
}

// close stops admitting operations and waits for those in flight. It
// returns false if the gate was already closed.
func (g *gate) close() bool {
	old := g.state.Or(gateClosed)
	if old&gateClosed != 0 {
		return false
	}
	if old == 0 {
		g.once.Do(func() { close(g.drained) })
	}
	<-g.drained
	return true
}

// The operations of a disk store run inside its gate through these, which
// hold what the backends share around their own work.

// get runs a Get: ErrClosed once the store is closing.
func (g *gate) get(read func() ([]byte, error)) ([]byte, error) {
	if !g.enter() {
		return nil, ErrClosed
	}
	defer g.leave()
	return read()
}

// write runs a write (SeekGC) of a store opened read-only or not.
func (g *gate) write(readOnly bool, f func() error) error {
	if err := g.enterWrite(readOnly); err != nil {
		return err
	}
	defer g.leave()
	return f()
}

// putChangeSet runs a PutChangeSet: the keys are checked, the store must
// admit the write, and an empty set writes nothing; apply writes the rest.
func (g *gate) putChangeSet(readOnly bool, puts map[string][]byte, apply func() error) error {
	if err := checkKeys(puts); err != nil {
		return err
	}
	return g.write(readOnly, func() error {
		if len(puts) == 0 {
			return nil
		}
		return apply()
	})
}

// seek runs a Seek's walk; a closing store visits nothing. Seek cannot
// report an error and a silently shortened walk could corrupt the node's
// state, so a walk that fails panics (backend names the store).
func (g *gate) seek(backend string, walk func() error) {
	if !g.enter() {
		return
	}
	defer g.leave()
	if err := walk(); err != nil {
		panic(fmt.Errorf("storage: %s seek: %w", backend, err))
	}
}

// closeWith closes the gate once, waiting for the operations in flight,
// and then the database.
func (g *gate) closeWith(closeDB func() error) error {
	if !g.close() {
		return nil
	}
	return closeDB()
}

// cursor is the iterator goleveldb and Pebble share: placed at either end
// of its range and stepped either way.
type cursor interface {
	First() bool
	Last() bool
	Next() bool
	Prev() bool
}

// cursorSteps returns how to place c at the start of a walk and how to
// step it, forwards or backwards.
func cursorSteps(c cursor, backwards bool) (start, step func() bool) {
	if backwards {
		return c.Last, c.Prev
	}
	return c.First, c.Next
}

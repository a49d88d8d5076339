package storage

import (
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

// Package bqueue is the bounded block queue between the network and the
// ledger: blocks arrive from peers in any order, the queue hands them to
// the ledger in height order.
//
// # Invariants
//
// The queue is a ring of Cap slots; the block of height i can only live in
// slot i mod Cap, and only while BlockHeight < i <= BlockHeight+Cap. So it
// holds each height at most once and never more than Cap blocks, whatever
// peers send: a stuck or malicious peer cannot make it grow. A block for a
// height already queued is dropped (the first copy wins) unless it comes
// through PutChecked, matched against a known header, and differs: then it
// replaces the queued one. A block outside the window is dropped.
//
// # Use
//
// Put is safe for concurrent use. Run must be called once, in its own
// goroutine; it returns after Discard. Run calls Ledger.AddBlock in height
// order; a block the ledger refuses is dropped, so another copy of that
// height can be queued. The onAdded callback (if any) runs after each
// successful AddBlock, in Run's goroutine.
//
// # Ownership
//
// The queue keeps the blocks it is given until they are added or dropped;
// callers must not modify them.
package bqueue

import (
	"log/slog"
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
)

// DefaultCapacity is the number of heights above the chain the queue holds
// (neo-go bqueue.DefaultCacheSize).
const DefaultCapacity = 2000

// Ledger is what the queue needs of the chain.
type Ledger interface {
	BlockHeight() uint32
	AddBlock(b *block.Block) error
}

// Queue is the block queue.
type Queue struct {
	ledger  Ledger
	onAdded func(*block.Block)
	log     *slog.Logger

	mu        sync.Mutex
	slots     []*block.Block
	n         int    // occupied slots holding heights above seenH
	seenH     uint32 // chain height last observed under mu
	lastQ     uint32 // highest height reached contiguously from the chain
	discarded bool

	signal chan struct{}
}

// New returns a queue of capacity heights (DefaultCapacity if <= 0) that
// feeds l. log may be nil.
func New(l Ledger, capacity int, onAdded func(*block.Block), log *slog.Logger) *Queue {
	if capacity <= 0 {
		capacity = DefaultCapacity
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := l.BlockHeight()
	return &Queue{
		ledger:  l,
		onAdded: onAdded,
		log:     log,
		slots:   make([]*block.Block, capacity),
		seenH:   h,
		lastQ:   h,
		signal:  make(chan struct{}, 1),
	}
}

// Cap returns the capacity in heights.
func (q *Queue) Cap() int { return len(q.slots) }

// Len returns the number of queued blocks above the chain height.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.advance(q.ledger.BlockHeight())
	return q.n
}

func (q *Queue) slot(i uint32) int { return int(i % uint32(len(q.slots))) }

// advance forgets queued blocks at or below the chain height h (the chain
// may move on without the queue, e.g. by consensus). Called with mu held.
func (q *Queue) advance(h uint32) {
	if h <= q.seenH {
		return
	}
	if h-q.seenH >= uint32(len(q.slots)) {
		// Every queued height (all above seenH, at most Cap above it) is
		// now at or below h.
		clear(q.slots)
		q.n = 0
	} else {
		for k := uint32(1); k <= h-q.seenH; k++ {
			i := q.seenH + k
			s := q.slot(i)
			if b := q.slots[s]; b != nil && b.Index == i {
				q.slots[s] = nil
				q.n--
			}
		}
	}
	q.seenH = h
	if q.lastQ < h {
		q.lastQ = h
	}
}

// Put queues b. It reports whether b was taken: false for a height at or
// below the chain, beyond the window, already queued, or after Discard.
func (q *Queue) Put(b *block.Block) bool { return q.put(b, false) }

// PutChecked is Put for a block the caller has matched against a known
// header of its height: it replaces a different block queued for that
// height (a peer's forgery that came first), so that forged blocks sent
// ahead of the headers cannot hold heights until the ledger refuses them.
func (q *Queue) PutChecked(b *block.Block) bool { return q.put(b, true) }

func (q *Queue) put(b *block.Block, checked bool) bool {
	h := q.ledger.BlockHeight()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.discarded {
		return false
	}
	q.advance(h)
	// The chain may have moved on without the queue (consensus): wake Run
	// for a block that is due, whatever becomes of b.
	if nb := q.slots[q.slot(h+1)]; nb != nil && nb.Index == h+1 {
		q.wake()
	}
	if b.Index <= h || uint64(b.Index) > uint64(h)+uint64(len(q.slots)) {
		return false
	}
	s := q.slot(b.Index)
	if old := q.slots[s]; old != nil {
		if old.Index == b.Index {
			if !checked || old.Hash() == b.Hash() {
				return false
			}
			q.slots[s] = b
			q.wake()
			return true
		}
		// A stale block of an older height that advance has not seen
		// (cannot happen inside the window, kept for safety).
		q.n--
	}
	q.slots[s] = b
	q.n++
	for i := q.lastQ + 1; ; i++ {
		nb := q.slots[q.slot(i)]
		if nb == nil || nb.Index != i {
			break
		}
		q.lastQ = i
	}
	q.wake()
	return true
}

// wake signals Run (without blocking). Called with mu held.
func (q *Queue) wake() {
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

// LastQueued returns the highest height such that every height from the
// chain up to it is queued, and the number of free slots.
func (q *Queue) LastQueued() (uint32, int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.advance(q.ledger.BlockHeight())
	return q.lastQ, len(q.slots) - q.n
}

// Run feeds queued blocks to the ledger in order until Discard.
func (q *Queue) Run() {
	for range q.signal {
		for {
			h := q.ledger.BlockHeight()
			q.mu.Lock()
			if q.discarded {
				q.mu.Unlock()
				return
			}
			q.advance(h)
			s := q.slot(h + 1)
			b := q.slots[s]
			if b == nil || b.Index != h+1 {
				q.mu.Unlock()
				break
			}
			q.mu.Unlock()

			err := q.ledger.AddBlock(b)

			q.mu.Lock()
			if q.slots[s] == b {
				q.slots[s] = nil
				q.n--
			}
			if err != nil && q.lastQ >= b.Index {
				q.lastQ = b.Index - 1
			}
			q.mu.Unlock()
			if err != nil {
				if q.ledger.BlockHeight() < b.Index {
					q.log.Warn("block queue: ledger refused block", "index", b.Index, "hash", b.Hash().StringLE(), "err", err)
				}
				continue
			}
			if q.onAdded != nil {
				q.onAdded(b)
			}
		}
	}
}

// Discard stops Run and drops every queued block. Put refuses blocks
// afterwards. It is safe to call more than once.
func (q *Queue) Discard() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.discarded {
		return
	}
	q.discarded = true
	clear(q.slots)
	q.n = 0
	close(q.signal)
}

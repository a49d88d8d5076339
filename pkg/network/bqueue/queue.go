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
// A ledger that is also a StreamLedger gets the queued blocks as a stream
// instead, so that it can check and execute the next blocks while it
// commits the previous ones (catching up from peers). Run opens a stream
// when a block is due and keeps sending the next heights as they are
// queued; it closes the stream once the ledger has added every block sent
// and the next height is not queued, so the ledger is free for other
// writers (consensus) between bursts. Blocks stay in their slots until the
// ledger reports them added; when a block fails, the stream ends there:
// that block is dropped as with AddBlock and the blocks queued after it
// stay queued, to be sent again in order once another copy of the failed
// height arrives. onAdded runs for each block the stream added, in order,
// in the goroutine the ledger reports it from. Discard cancels the stream
// (the ledger finishes the block it is committing).
//
// # Ownership
//
// The queue keeps the blocks it is given until they are added or dropped;
// callers must not modify them.
package bqueue

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

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

// StreamLedger is a Ledger that takes blocks as a stream
// (core.Blockchain.AddBlockStream).
type StreamLedger interface {
	Ledger
	// AddBlockStream adds the blocks read from in, in height order, until
	// in is closed, ctx is done or a block fails; it calls added with each
	// block once it is in the chain, in order. It takes no other block
	// while the stream is open. On an error other than ctx's, the first
	// block sent and not passed to added is the one that failed.
	AddBlockStream(ctx context.Context, in <-chan *block.Block, added func(*block.Block)) error
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
	ctx    context.Context // cancelled by Discard (ends a stream)
	cancel context.CancelFunc
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
	ctx, cancel := context.WithCancel(context.Background())
	return &Queue{
		ctx:     ctx,
		cancel:  cancel,
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
	sl, stream := q.ledger.(StreamLedger)
	for range q.signal {
		if !stream {
			if !q.addDue() {
				return
			}
			continue
		}
		for {
			more, ok := q.stream(sl)
			if !ok {
				return
			}
			if !more {
				break
			}
		}
	}
}

// queued returns the block queued for height i (nil if none); ok is false
// after Discard.
func (q *Queue) queued(i uint32) (b *block.Block, ok bool) {
	h := q.ledger.BlockHeight()
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.discarded {
		return nil, false
	}
	q.advance(h)
	if b = q.slots[q.slot(i)]; b != nil && b.Index != i {
		b = nil
	}
	return b, true
}

// addDue adds the due blocks one at a time (AddBlock); it returns false
// after Discard.
func (q *Queue) addDue() bool {
	for {
		b, ok := q.queued(q.ledger.BlockHeight() + 1)
		if !ok {
			return false
		}
		if b == nil {
			return true
		}
		err := q.ledger.AddBlock(b)
		if err != nil {
			q.refused(b, err)
			continue
		}
		q.taken(b)
		if q.onAdded != nil {
			q.onAdded(b)
		}
	}
}

// taken frees the slot of b, which the ledger added.
func (q *Queue) taken(b *block.Block) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if s := q.slot(b.Index); q.slots[s] == b {
		q.slots[s] = nil
		q.n--
	}
}

// refused drops b, which the ledger refused with err.
func (q *Queue) refused(b *block.Block, err error) {
	q.mu.Lock()
	if s := q.slot(b.Index); q.slots[s] == b {
		q.slots[s] = nil
		q.n--
	}
	if q.lastQ >= b.Index {
		q.lastQ = b.Index - 1
	}
	q.mu.Unlock()
	if q.ledger.BlockHeight() < b.Index {
		q.log.Warn("block queue: ledger refused block", "index", b.Index, "hash", b.Hash().StringLE(), "err", err)
	}
}

// stream sends the due blocks to l in one stream (see Use) and returns
// when it has ended; more reports that a stream ran (so blocks may be due
// again), ok is false after Discard.
func (q *Queue) stream(l StreamLedger) (more, ok bool) {
	next := q.ledger.BlockHeight() + 1
	b, ok := q.queued(next)
	if !ok || b == nil {
		return false, ok
	}
	var (
		in       = make(chan *block.Block)
		done     = make(chan error, 1)
		progress = make(chan struct{}, 1)
		// inFlight are the blocks sent and not yet reported added
		// (oldest first); lastAdded is the height of the last one
		// reported.
		inFlight  []*block.Block
		lastAdded atomic.Uint32
	)
	lastAdded.Store(next - 1)
	added := func(b *block.Block) {
		q.taken(b)
		lastAdded.Store(b.Index)
		select {
		case progress <- struct{}{}:
		default:
		}
		if q.onAdded != nil {
			q.onAdded(b)
		}
	}
	go func() { done <- l.AddBlockStream(q.ctx, in, added) }()
	// end handles the stream's result; pending is the block Run was
	// about to send (the failed one if the ledger refused the stream
	// before taking any block).
	end := func(err error, pending *block.Block) (bool, bool) {
		if err == nil || q.ctx.Err() != nil {
			return true, q.ctx.Err() == nil
		}
		for _, f := range inFlight {
			if f.Index > lastAdded.Load() {
				q.refused(f, err)
				return true, true
			}
		}
		if pending != nil {
			q.refused(pending, err)
		}
		return true, true
	}
	for {
		if b != nil {
			select {
			case in <- b:
				inFlight = append(inFlight, b)
				next++
			case err := <-done:
				return end(err, b)
			}
		}
		for len(inFlight) > 0 && inFlight[0].Index <= lastAdded.Load() {
			inFlight[0] = nil
			inFlight = inFlight[1:]
		}
		if b, ok = q.queued(next); !ok {
			close(in)
			return end(<-done, nil)
		}
		if b != nil {
			continue
		}
		if len(inFlight) == 0 {
			close(in)
			return end(<-done, nil)
		}
		select {
		case _, open := <-q.signal:
			if !open {
				close(in)
				return end(<-done, nil)
			}
		case <-progress:
		case err := <-done:
			return end(err, nil)
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
	q.cancel()
	clear(q.slots)
	q.n = 0
	close(q.signal)
}

package core

import (
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// MaxQueuedBlockEvents bounds the block events waiting for delivery to
// subscribers; beyond it new events are dropped (and counted) so that the
// chain never waits for a subscriber.
const MaxQueuedBlockEvents = 4096

// ContainedNotificationEvent is a notification with the hash of the block
// or transaction whose execution sent it.
type ContainedNotificationEvent struct {
	Container hash.Uint256
	state.NotificationEvent
}

// Event is one event of the chain; exactly one field is set. A subscriber
// gets them in neo-go's order: per execution (OnPersist, each transaction,
// PostPersist) the execution result, then its notifications (HALT only
// for transactions), then the transaction; then the header and the block.
// Memory pool events (a transaction added to or removed from Mempool())
// come in the same stream, in the order they happened relative to the
// blocks.
type Event struct {
	Execution    *state.AppExecResult
	Notification *ContainedNotificationEvent
	Tx           *transaction.Transaction
	Header       *block.Header
	Block        *block.Block
	Mempool      *mempoolevent.Event
}

// EventKinds selects the events a subscriber gets.
type EventKinds uint8

// Kinds of events.
const (
	ExecutionEvents EventKinds = 1 << iota
	NotificationEvents
	TransactionEvents
	HeaderEvents
	BlockEvents
	// MempoolEvents are the memory pool's; not part of AllEvents, which
	// are the events of every block.
	MempoolEvents

	AllEvents = ExecutionEvents | NotificationEvents | TransactionEvents | HeaderEvents | BlockEvents
)

// queuedEvent is a committed block with its executions, or a memory pool
// event (mp set).
type queuedEvent struct {
	blk  *block.Block
	aers []*state.AppExecResult
	mp   *mempoolevent.Event
}

// subscriber is one subscription: the kinds it wants and how an event is
// sent to its channel.
type subscriber struct {
	kinds EventKinds
	send  func(Event)
}

// dispatcher delivers block and memory pool events to subscribers from
// one goroutine, in Event's order. The chain and the pool only queue
// events; a slow subscriber delays the others but never the chain.
type dispatcher struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []queuedEvent
	blocks  int // blocks in queue
	dropped uint64
	closed  bool
	running bool
	// delivering is set while an event is being delivered outside the
	// lock; unsubscribers wait for it to clear.
	delivering bool
	done       chan struct{}

	// subs are keyed by the subscriber's channel.
	subs map[any]subscriber
}

func newDispatcher() *dispatcher {
	d := &dispatcher{subs: make(map[any]subscriber)}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// publish queues a block event (dropped if nobody listens or the queue is
// full).
func (d *dispatcher) publish(b *block.Block, aers []*state.AppExecResult) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || len(d.subs) == 0 {
		return
	}
	if d.blocks >= MaxQueuedBlockEvents {
		d.dropped++
		return
	}
	d.blocks++
	d.enqueue(queuedEvent{blk: b, aers: aers})
}

// publishMempool queues a memory pool event (dropped if nobody listens or
// mempool.MaxQueuedEvents pool events are waiting).
func (d *dispatcher) publishMempool(ev mempoolevent.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || len(d.subs) == 0 {
		return
	}
	if len(d.queue)-d.blocks >= mempool.MaxQueuedEvents {
		d.dropped++
		return
	}
	d.enqueue(queuedEvent{mp: &ev})
}

// enqueue appends to the queue and wakes (or starts) the loop; d.mu is
// held.
func (d *dispatcher) enqueue(ev queuedEvent) {
	d.queue = append(d.queue, ev)
	if !d.running {
		d.running = true
		d.done = make(chan struct{})
		go d.loop()
	}
	d.cond.Broadcast()
}

func (d *dispatcher) loop() {
	defer close(d.done)
	for {
		d.mu.Lock()
		for len(d.queue) == 0 && !d.closed {
			d.cond.Wait()
		}
		if d.closed {
			d.mu.Unlock()
			return
		}
		ev := d.queue[0]
		d.queue[0] = queuedEvent{}
		d.queue = d.queue[1:]
		if ev.mp == nil {
			d.blocks--
		}
		// Snapshot the subscribers; unsubscribing waits for the
		// current delivery (see unsubscribe).
		subs := make([]subscriber, 0, len(d.subs))
		for _, s := range d.subs {
			subs = append(subs, s)
		}
		d.delivering = true
		d.mu.Unlock()
		deliver(ev, subs)
		d.mu.Lock()
		d.delivering = false
		d.cond.Broadcast() // wake unsubscribers waiting for this delivery
		d.mu.Unlock()
	}
}

// deliver sends the events of one block, or one pool event, in order to
// each subscriber that wants them.
func deliver(ev queuedEvent, subs []subscriber) {
	var want EventKinds
	for _, s := range subs {
		want |= s.kinds
	}
	emit := func(kind EventKinds, e Event) {
		for _, s := range subs {
			if s.kinds&kind != 0 {
				s.send(e)
			}
		}
	}
	if ev.mp != nil {
		emit(MempoolEvents, Event{Mempool: ev.mp})
		return
	}
	execution := func(aer *state.AppExecResult, notify bool) {
		emit(ExecutionEvents, Event{Execution: aer})
		if notify && want&NotificationEvents != 0 {
			for i := range aer.Events {
				emit(NotificationEvents, Event{Notification: &ContainedNotificationEvent{Container: aer.Container, NotificationEvent: aer.Events[i]}})
			}
		}
	}
	if want&(ExecutionEvents|NotificationEvents|TransactionEvents) != 0 {
		execution(ev.aers[0], true)
		for i, tx := range ev.blk.Transactions {
			aer := ev.aers[i+1]
			execution(aer, aer.VMState == vmstate.Halt)
			emit(TransactionEvents, Event{Tx: tx})
		}
		execution(ev.aers[len(ev.aers)-1], true)
	}
	emit(HeaderEvents, Event{Header: &ev.blk.Header})
	emit(BlockEvents, Event{Block: ev.blk})
}

func (d *dispatcher) stop() {
	d.mu.Lock()
	d.closed = true
	d.queue, d.blocks = nil, 0
	running := d.running
	d.cond.Broadcast()
	d.mu.Unlock()
	if running {
		<-d.done
	}
}

func (d *dispatcher) subscribe(key any, s subscriber) {
	d.mu.Lock()
	d.subs[key] = s
	d.mu.Unlock()
}

// unsubscribe removes the subscriber of key and waits for a delivery in
// progress (which may still send to it: keep reading its channel until
// unsubscribe returns).
func (d *dispatcher) unsubscribe(key any) {
	d.mu.Lock()
	delete(d.subs, key)
	for d.delivering {
		d.cond.Wait()
	}
	d.mu.Unlock()
}

// wantsMempool reports whether a subscriber wants pool events.
func (d *dispatcher) wantsMempool() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, s := range d.subs {
		if s.kinds&MempoolEvents != 0 {
			return true
		}
	}
	return false
}

// poolFeed takes the pool's events into the dispatcher while a
// subscriber wants them.
type poolFeed struct {
	mu   sync.Mutex // serializes sync
	ch   chan mempoolevent.Event
	quit chan struct{}
	done chan struct{}
}

// sync starts the feed if a subscriber wants pool events and stops it
// if none does.
func (f *poolFeed) sync(pool *mempool.Pool, d *dispatcher) { f.set(pool, d, d.wantsMempool()) }

// set starts or stops the feed.
func (f *poolFeed) set(pool *mempool.Pool, d *dispatcher, want bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case want && f.ch == nil:
		f.ch, f.quit, f.done = make(chan mempoolevent.Event, 64), make(chan struct{}), make(chan struct{})
		pool.SubscribeForTransactions(f.ch)
		go func(ch <-chan mempoolevent.Event, quit <-chan struct{}, done chan<- struct{}) {
			defer close(done)
			for {
				select {
				case <-quit:
					return
				case ev := <-ch:
					d.publishMempool(ev)
				}
			}
		}(f.ch, f.quit, f.done)
	case !want && f.ch != nil:
		// Unsubscribing waits for a send in progress, which the
		// goroutine still takes.
		pool.UnsubscribeFromTransactions(f.ch)
		close(f.quit)
		<-f.done
		f.ch = nil
	}
}

// Subscribe makes ch receive the events of the given kinds of every block
// committed from now on, in Event's order. Events are delivered by one
// goroutine: read them promptly, or other subscribers wait (the chain
// does not; beyond MaxQueuedBlockEvents pending blocks events are
// dropped). Do not modify what you receive. Subscribing ch again replaces
// its kinds.
func (bc *Blockchain) Subscribe(ch chan<- Event, kinds EventKinds) {
	bc.events.subscribe(ch, subscriber{kinds: kinds, send: func(e Event) { ch <- e }})
	bc.poolFeed.sync(bc.pool, bc.events)
}

// Unsubscribe stops delivery to ch. An event being delivered may still
// arrive until it returns, so keep reading ch meanwhile; afterwards
// nothing more is sent and ch may be closed.
func (bc *Blockchain) Unsubscribe(ch chan<- Event) {
	bc.events.unsubscribe(ch)
	bc.poolFeed.sync(bc.pool, bc.events)
}

// SubscribeForBlocks is Subscribe for the blocks alone, on a channel of
// blocks (what the services need).
func (bc *Blockchain) SubscribeForBlocks(ch chan<- *block.Block) {
	bc.events.subscribe(ch, subscriber{kinds: BlockEvents, send: func(e Event) { ch <- e.Block }})
}

// UnsubscribeFromBlocks is Unsubscribe for SubscribeForBlocks.
func (bc *Blockchain) UnsubscribeFromBlocks(ch chan<- *block.Block) { bc.events.unsubscribe(ch) }

// DroppedEvents returns how many block and pool events were dropped
// because the queue was full.
func (bc *Blockchain) DroppedEvents() uint64 {
	bc.events.mu.Lock()
	defer bc.events.mu.Unlock()
	return bc.events.dropped
}

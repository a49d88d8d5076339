package core

import (
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
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

type blockEvent struct {
	blk  *block.Block
	aers []*state.AppExecResult
}

// dispatcher delivers block events to subscribers from one goroutine, in
// neo-go's order: per execution (OnPersist, each transaction, PostPersist)
// the execution, then its notifications (HALT only for transactions), then
// the transaction; then the header and the block. The chain only queues
// events; a slow subscriber delays the others but never the chain.
type dispatcher struct {
	mu      sync.Mutex
	cond    *sync.Cond
	queue   []blockEvent
	dropped uint64
	closed  bool
	running bool
	// delivering is set while an event is being delivered outside the
	// lock; unsubscribers wait for it to clear.
	delivering bool
	done       chan struct{}

	blocks  map[chan<- *block.Block]struct{}
	headers map[chan<- *block.Header]struct{}
	txs     map[chan<- *transaction.Transaction]struct{}
	notes   map[chan<- *ContainedNotificationEvent]struct{}
	execs   map[chan<- *state.AppExecResult]struct{}
}

func newDispatcher() *dispatcher {
	d := &dispatcher{
		blocks:  map[chan<- *block.Block]struct{}{},
		headers: map[chan<- *block.Header]struct{}{},
		txs:     map[chan<- *transaction.Transaction]struct{}{},
		notes:   map[chan<- *ContainedNotificationEvent]struct{}{},
		execs:   map[chan<- *state.AppExecResult]struct{}{},
	}
	d.cond = sync.NewCond(&d.mu)
	return d
}

func (d *dispatcher) any() bool {
	return len(d.blocks)+len(d.headers)+len(d.txs)+len(d.notes)+len(d.execs) != 0
}

// publish queues a block event (dropped if nobody listens or the queue is
// full).
func (d *dispatcher) publish(b *block.Block, aers []*state.AppExecResult) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || !d.any() {
		return
	}
	if len(d.queue) >= MaxQueuedBlockEvents {
		d.dropped++
		return
	}
	d.queue = append(d.queue, blockEvent{b, aers})
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
		d.queue[0] = blockEvent{}
		d.queue = d.queue[1:]
		// Snapshot the subscribers; unsubscribing waits for the
		// current delivery (see unsubscribe).
		execs, notes, txs := mapKeys(d.execs), mapKeys(d.notes), mapKeys(d.txs)
		headers, blocks := mapKeys(d.headers), mapKeys(d.blocks)
		d.delivering = true
		d.mu.Unlock()
		deliver(ev, execs, notes, txs, headers, blocks)
		d.mu.Lock()
		d.delivering = false
		d.cond.Broadcast() // wake unsubscribers waiting for this delivery
		d.mu.Unlock()
	}
}

func mapKeys[K comparable](m map[K]struct{}) []K {
	res := make([]K, 0, len(m))
	for k := range m {
		res = append(res, k)
	}
	return res
}

func deliver(ev blockEvent, execs []chan<- *state.AppExecResult, notes []chan<- *ContainedNotificationEvent,
	txs []chan<- *transaction.Transaction, headers []chan<- *block.Header, blocks []chan<- *block.Block) {
	if len(execs)+len(notes)+len(txs) != 0 {
		execution := func(aer *state.AppExecResult, notify bool) {
			for _, ch := range execs {
				ch <- aer
			}
			if notify {
				for i := range aer.Events {
					for _, ch := range notes {
						ch <- &ContainedNotificationEvent{Container: aer.Container, NotificationEvent: aer.Events[i]}
					}
				}
			}
		}
		execution(ev.aers[0], true)
		for i, tx := range ev.blk.Transactions {
			aer := ev.aers[i+1]
			execution(aer, aer.VMState == vmstate.Halt)
			for _, ch := range txs {
				ch <- tx
			}
		}
		execution(ev.aers[len(ev.aers)-1], true)
	}
	for _, ch := range headers {
		ch <- &ev.blk.Header
	}
	for _, ch := range blocks {
		ch <- ev.blk
	}
}

func (d *dispatcher) stop() {
	d.mu.Lock()
	d.closed = true
	d.queue = nil
	running := d.running
	d.cond.Broadcast()
	d.mu.Unlock()
	if running {
		<-d.done
	}
}

func subscribe[C comparable](d *dispatcher, m map[C]struct{}, ch C) {
	d.mu.Lock()
	m[ch] = struct{}{}
	d.mu.Unlock()
}

// unsubscribe removes ch and waits for a delivery in progress (which may
// still send to ch: keep reading ch until unsubscribe returns).
func unsubscribe[C comparable](d *dispatcher, m map[C]struct{}, ch C) {
	d.mu.Lock()
	delete(m, ch)
	for d.delivering {
		d.cond.Wait()
	}
	d.mu.Unlock()
}

// SubscribeForBlocks makes ch receive every block committed from now on.
// Events are delivered by one goroutine: read them promptly, or other
// subscribers wait (the chain does not; beyond MaxQueuedBlockEvents pending
// blocks events are dropped). Do not modify what you receive.
func (bc *Blockchain) SubscribeForBlocks(ch chan<- *block.Block) {
	subscribe(bc.events, bc.events.blocks, ch)
}

// SubscribeForHeadersOfAddedBlocks makes ch receive the header of every
// committed block.
func (bc *Blockchain) SubscribeForHeadersOfAddedBlocks(ch chan<- *block.Header) {
	subscribe(bc.events, bc.events.headers, ch)
}

// SubscribeForTransactions makes ch receive every transaction of committed
// blocks.
func (bc *Blockchain) SubscribeForTransactions(ch chan<- *transaction.Transaction) {
	subscribe(bc.events, bc.events.txs, ch)
}

// SubscribeForNotifications makes ch receive the notifications of
// committed executions (OnPersist, HALTed transactions, PostPersist).
func (bc *Blockchain) SubscribeForNotifications(ch chan<- *ContainedNotificationEvent) {
	subscribe(bc.events, bc.events.notes, ch)
}

// SubscribeForExecutions makes ch receive every execution result of
// committed blocks.
func (bc *Blockchain) SubscribeForExecutions(ch chan<- *state.AppExecResult) {
	subscribe(bc.events, bc.events.execs, ch)
}

// UnsubscribeFromBlocks stops delivery to ch. An event being delivered may
// still arrive until it returns, so keep reading ch meanwhile; afterwards
// nothing more is sent and ch may be closed.
func (bc *Blockchain) UnsubscribeFromBlocks(ch chan<- *block.Block) {
	unsubscribe(bc.events, bc.events.blocks, ch)
}

// UnsubscribeFromHeadersOfAddedBlocks stops delivery to ch.
func (bc *Blockchain) UnsubscribeFromHeadersOfAddedBlocks(ch chan<- *block.Header) {
	unsubscribe(bc.events, bc.events.headers, ch)
}

// UnsubscribeFromTransactions stops delivery to ch.
func (bc *Blockchain) UnsubscribeFromTransactions(ch chan<- *transaction.Transaction) {
	unsubscribe(bc.events, bc.events.txs, ch)
}

// UnsubscribeFromNotifications stops delivery to ch.
func (bc *Blockchain) UnsubscribeFromNotifications(ch chan<- *ContainedNotificationEvent) {
	unsubscribe(bc.events, bc.events.notes, ch)
}

// UnsubscribeFromExecutions stops delivery to ch.
func (bc *Blockchain) UnsubscribeFromExecutions(ch chan<- *state.AppExecResult) {
	unsubscribe(bc.events, bc.events.execs, ch)
}

// DroppedEvents returns how many block events were dropped because the
// queue was full.
func (bc *Blockchain) DroppedEvents() uint64 {
	bc.events.mu.Lock()
	defer bc.events.mu.Unlock()
	return bc.events.dropped
}

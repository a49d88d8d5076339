package mempool

import (
	"sync"
	"sync/atomic"

	"github.com/n3node/n3node/pkg/core/mempoolevent"
)

// MaxQueuedEvents bounds the events waiting for delivery to subscribers;
// beyond it new events are dropped (and counted) rather than making the
// pool wait.
const MaxQueuedEvents = 1 << 18

// eventQueue buffers events between the pool (which never waits) and a
// dispatcher goroutine that runs while there are subscribers.
type eventQueue struct {
	active  atomic.Bool // there are subscribers: push queues events
	dropped atomic.Uint64

	mu      sync.Mutex
	queue   []mempoolevent.Event
	wake    chan struct{} // buffered(1): the dispatcher has work
	subs    map[chan<- mempoolevent.Event]*subscriber
	running bool
	stop    chan struct{}
	stopped chan struct{}
}

type subscriber struct {
	ch   chan<- mempoolevent.Event
	mu   sync.Mutex    // held while sending to ch
	gone chan struct{} // closed by Unsubscribe
}

func (q *eventQueue) init() {
	q.wake = make(chan struct{}, 1)
	q.subs = make(map[chan<- mempoolevent.Event]*subscriber)
}

// push queues ev if anybody listens. It never blocks for long.
func (q *eventQueue) push(ev mempoolevent.Event) {
	if !q.active.Load() {
		return
	}
	q.mu.Lock()
	if len(q.queue) >= MaxQueuedEvents {
		q.mu.Unlock()
		q.dropped.Add(1)
		return
	}
	q.queue = append(q.queue, ev)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// SubscribeForTransactions makes ch receive every later mempool event, in
// order. The pool never blocks on ch, but the single delivery goroutine
// does: a subscriber that stops reading delays every subscriber.
func (mp *Pool) SubscribeForTransactions(ch chan<- mempoolevent.Event) {
	q := &mp.events
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.subs[ch]; ok {
		return
	}
	q.subs[ch] = &subscriber{ch: ch, gone: make(chan struct{})}
	q.active.Store(true)
	if !q.running {
		q.running = true
		q.stop = make(chan struct{})
		q.stopped = make(chan struct{})
		go q.dispatch(q.stop, q.stopped)
	}
}

// UnsubscribeFromTransactions stops delivery to ch; once it returns,
// nothing more is sent to ch and the caller may close it. The delivery
// goroutine exits with the last subscriber (queued events are discarded).
func (mp *Pool) UnsubscribeFromTransactions(ch chan<- mempoolevent.Event) {
	q := &mp.events
	q.mu.Lock()
	s, ok := q.subs[ch]
	if !ok {
		q.mu.Unlock()
		return
	}
	delete(q.subs, ch)
	close(s.gone)
	var stop, stopped chan struct{}
	if len(q.subs) == 0 && q.running {
		q.running = false
		q.active.Store(false)
		q.queue = nil
		stop, stopped = q.stop, q.stopped
	}
	q.mu.Unlock()
	// Wait for a send in progress to ch to end.
	s.mu.Lock()
	s.mu.Unlock() //nolint:staticcheck // empty critical section is a barrier
	if stop != nil {
		close(stop)
		<-stopped
	}
}

// DroppedEvents returns how many events were dropped because the queue was
// full.
func (mp *Pool) DroppedEvents() uint64 { return mp.events.dropped.Load() }

func (q *eventQueue) dispatch(stop, stopped chan struct{}) {
	defer close(stopped)
	var (
		batch []mempoolevent.Event
		subs  []*subscriber
	)
	for {
		select {
		case <-stop:
			return
		case <-q.wake:
		}
		select {
		case <-stop:
			return
		default:
		}
		q.mu.Lock()
		batch, q.queue = q.queue, batch[:0]
		subs = subs[:0]
		for _, s := range q.subs {
			subs = append(subs, s)
		}
		q.mu.Unlock()
		for i := range batch {
			for _, s := range subs {
				if !s.send(batch[i], stop) {
					return
				}
			}
			batch[i] = mempoolevent.Event{}
		}
	}
}

// send delivers ev unless s is gone; it returns false if the dispatcher
// must stop.
func (s *subscriber) send(ev mempoolevent.Event, stop chan struct{}) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.gone:
		return true
	default:
	}
	select {
	case s.ch <- ev:
	case <-s.gone:
	case <-stop:
		return false
	}
	return true
}

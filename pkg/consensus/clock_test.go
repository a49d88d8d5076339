package consensus

import (
	"slices"
	"sync"
	"time"
)

// testEpoch is where fake clocks start. dbft v0.4.0 measures the round
// trip of a PrepareRequest with the wall clock (time.Since of a time our
// clock gave); with a fake clock far in the future that difference is
// negative and its estimate stays zero, so it does not shorten timeouts.
var testEpoch = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)

// fakeClock is a Clock that moves only when told to.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	seq    uint64        // timers created so far
	added  chan struct{} // signalled when a timer is created
}

type fakeTimer struct {
	c      *fakeClock
	at     time.Time
	seq    uint64
	ch     chan time.Time
	active bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: testEpoch, added: make(chan struct{}, 1)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) ClockTimer {
	c.mu.Lock()
	c.seq++
	t := &fakeTimer{c: c, at: c.now.Add(d), seq: c.seq, ch: make(chan time.Time, 1), active: true}
	c.timers = append(c.timers, t)
	c.fireLocked()
	c.mu.Unlock()
	select {
	case c.added <- struct{}{}:
	default:
	}
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	t.c.timers = slices.DeleteFunc(t.c.timers, func(x *fakeTimer) bool { return x == t })
	return was
}

// fireLocked fires the timers that are due, earliest first.
func (c *fakeClock) fireLocked() {
	slices.SortStableFunc(c.timers, func(a, b *fakeTimer) int { return a.at.Compare(b.at) })
	n := 0
	for _, t := range c.timers {
		if t.at.After(c.now) {
			break
		}
		t.active = false
		t.ch <- c.now
		n++
	}
	c.timers = c.timers[n:]
}

// AdvanceTo moves the clock to at (if later) and fires what is due.
func (c *fakeClock) AdvanceTo(at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if at.After(c.now) {
		c.now = at
	}
	c.fireLocked()
}

// Next returns the earliest pending deadline.
func (c *fakeClock) Next() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	return slices.MinFunc(c.timers, func(a, b *fakeTimer) int { return a.at.Compare(b.at) }).at, true
}

// Seq returns how many timers were created.
func (c *fakeClock) Seq() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// WaitTimerAfter waits for a pending timer created after seq and returns
// its deadline.
func (c *fakeClock) WaitTimerAfter(seq uint64, timeout <-chan time.Time) (time.Time, bool) {
	for {
		c.mu.Lock()
		for _, t := range c.timers {
			if t.seq > seq {
				at := t.at
				c.mu.Unlock()
				return at, true
			}
		}
		c.mu.Unlock()
		select {
		case <-c.added:
		case <-timeout:
			return time.Time{}, false
		}
	}
}

package sim

import (
	"slices"
	"time"

	"github.com/n3node/n3node/pkg/consensus"
)

// epoch is where simulated time starts. dbft v0.4.0 measures a
// PrepareRequest's round trip with the wall clock (time.Since of a time our
// clock gave); far in the future that difference is negative, its estimate
// stays zero and cannot make the run depend on the host's speed.
var epoch = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)

// clock is the simulation's time: it moves only when the world advances
// it, and fires its timers in deadline order (creation order on ties).
// It is used from the world's goroutine only.
type clock struct {
	now    time.Time
	seq    uint64
	timers []*timer
}

type timer struct {
	c   *clock
	at  time.Time
	seq uint64
	ch  chan time.Time
}

func newClock() *clock { return &clock{now: epoch} }

func (c *clock) newTimer(d time.Duration) *timer {
	c.seq++
	t := &timer{c: c, at: c.now.Add(d), seq: c.seq, ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- c.now
		return t
	}
	i, _ := slices.BinarySearchFunc(c.timers, t, cmpTimer)
	c.timers = slices.Insert(c.timers, i, t)
	return t
}

func cmpTimer(a, b *timer) int {
	if r := a.at.Compare(b.at); r != 0 {
		return r
	}
	return int(a.seq) - int(b.seq)
}

// C implements consensus.ClockTimer.
func (t *timer) C() <-chan time.Time { return t.ch }

// Stop implements consensus.ClockTimer.
func (t *timer) Stop() bool {
	i := slices.Index(t.c.timers, t)
	if i < 0 {
		return false
	}
	t.c.timers = slices.Delete(t.c.timers, i, i+1)
	return true
}

// next returns the earliest deadline.
func (c *clock) next() (time.Time, bool) {
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	return c.timers[0].at, true
}

// advance moves time to at and fires the timers due.
func (c *clock) advance(at time.Time) {
	if at.After(c.now) {
		c.now = at
	}
	n := 0
	for _, t := range c.timers {
		if t.at.After(c.now) {
			break
		}
		t.ch <- c.now
		n++
	}
	c.timers = c.timers[n:]
}

// nodeClock is one node's view of the clock: skewed by a fixed offset
// (clock skew); durations are the same for every node.
type nodeClock struct {
	c    *clock
	skew time.Duration
}

var _ consensus.Clock = (*nodeClock)(nil)

// Now implements consensus.Clock.
func (n *nodeClock) Now() time.Time { return n.c.now.Add(n.skew) }

// NewTimer implements consensus.Clock.
func (n *nodeClock) NewTimer(d time.Duration) consensus.ClockTimer { return n.c.newTimer(d) }

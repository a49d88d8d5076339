package consensus

import "time"

// roundTimer is the dbft.Timer of the Service: one deadline for a
// (height, view), which dbft resets and extends. It has the semantics of
// dbft's own timer package but takes its time from a Clock.
// It is used from the Service's goroutine only.
type roundTimer struct {
	clock  Clock
	height uint32
	view   byte
	start  time.Time
	d      time.Duration
	t      ClockTimer
	// now holds the tick of a zero-duration reset.
	now chan time.Time
}

func newRoundTimer(c Clock) *roundTimer {
	return &roundTimer{clock: c, now: make(chan time.Time, 1)}
}

// Now implements dbft.Timer.
func (t *roundTimer) Now() time.Time { return t.clock.Now() }

// Height implements dbft.Timer.
func (t *roundTimer) Height() uint32 { return t.height }

// View implements dbft.Timer.
func (t *roundTimer) View() byte { return t.view }

// C implements dbft.Timer. It is nil (never ready) while nothing is
// armed.
func (t *roundTimer) C() <-chan time.Time {
	if t.t == nil {
		if len(t.now) > 0 {
			return t.now
		}
		return nil
	}
	return t.t.C()
}

// Reset implements dbft.Timer: a deadline d from now for (height, view);
// d = 0 fires at once.
func (t *roundTimer) Reset(height uint32, view byte, d time.Duration) {
	t.stop()
	t.start = t.clock.Now()
	t.d = d
	t.height = height
	t.view = view
	select {
	case <-t.now:
	default:
	}
	if d > 0 {
		t.t = t.clock.NewTimer(d)
	} else {
		t.now <- t.start
	}
}

// Extend implements dbft.Timer: the deadline moves d later, unless it has
// passed.
func (t *roundTimer) Extend(d time.Duration) {
	t.d += d
	if elapsed := t.clock.Now().Sub(t.start); t.d > elapsed {
		t.stop()
		t.t = t.clock.NewTimer(t.d - elapsed)
	}
}

func (t *roundTimer) stop() {
	if t.t != nil {
		t.t.Stop()
		t.t = nil
	}
}

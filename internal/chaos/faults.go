package chaos

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/n3node/n3node/pkg/network/message"
)

// Faults are the per-message faults of every proxied connection. Each
// whole frame is, independently, dropped with probability Loss, or else
// delayed by Delay plus a uniform part of Jitter, sent twice with
// probability Dup (the copy up to Jitter later) and held back with
// probability Reorder by up to ReorderBy more, so that frames sent after it
// overtake it. Frames that are not held back keep their order.
type Faults struct {
	Loss, Dup, Reorder float64
	Delay, Jitter      time.Duration
	ReorderBy          time.Duration
}

// String describes the faults in one line.
func (f Faults) String() string {
	return fmt.Sprintf("loss %.1f%% dup %.1f%% reorder %.1f%% (by <%s) delay %s+<%s",
		100*f.Loss, 100*f.Dup, 100*f.Reorder, f.ReorderBy, f.Delay, f.Jitter)
}

// Decision is what happens to one frame.
type Decision struct {
	Drop    bool
	Delay   time.Duration // before the frame is sent
	Dup     bool          // a second copy is sent DupAfter after the first
	DupLag  time.Duration
	Reorder bool // Delay includes the hold-back; later frames may pass it
}

// Decider draws the decisions of one direction of one connection from its
// own seeded source: the n-th frame of the k-th connection of a link gets
// the same decision in every run with the same seed and faults.
type Decider struct{ rng *rand.Rand }

// NewDecider returns the decider of one stream, seeded from the run's
// seed and the stream's name (link, connection number, direction).
func NewDecider(seed uint64, stream string) *Decider {
	h := fnv.New64a()
	h.Write([]byte(stream))
	return &Decider{rng: rand.New(rand.NewPCG(seed, h.Sum64()))}
}

// handshake reports whether a command belongs to the handshake, which is
// never dropped, duplicated or reordered: a lost version only makes both
// ends wait for the handshake timeout, and a repeated one ends the
// connection, neither of which tests anything the other faults do not.
func handshake(c message.Command) bool {
	return c == message.CmdVersion || c == message.CmdVerack
}

// counted reports whether a command is a request whose answers the
// receiver counts, or such an answer (getaddr and addr, ping and pong):
// both n3node and neo-go drop a peer that answers more often than asked,
// so a duplicate (of the answer, or of the request, which is answered
// twice) only tests that rule, and made n3node ban the sender's address
// (docs/reliability.md). These are never duplicated; they are still
// lost, delayed and reordered.
func counted(c message.Command) bool {
	switch c {
	case message.CmdGetAddr, message.CmdAddr, message.CmdPing, message.CmdPong:
		return true
	}
	return false
}

// Decide returns the fate of the next frame. It draws the same number of
// values for every frame, so one frame's fate does not shift the next
// one's.
func (d *Decider) Decide(f Faults, c message.Command) Decision {
	pLoss, pDup, pReorder := d.rng.Float64(), d.rng.Float64(), d.rng.Float64()
	jitter, dupLag, hold := d.rng.Float64(), d.rng.Float64(), d.rng.Float64()
	var out Decision
	out.Delay = f.Delay + time.Duration(jitter*float64(f.Jitter))
	if handshake(c) {
		return out
	}
	if pLoss < f.Loss {
		return Decision{Drop: true}
	}
	if pReorder < f.Reorder {
		out.Reorder = true
		out.Delay += time.Duration(hold * float64(f.ReorderBy))
	}
	if pDup < f.Dup && !counted(c) {
		out.Dup = true
		out.DupLag = time.Duration(dupLag * float64(f.Jitter))
	}
	return out
}

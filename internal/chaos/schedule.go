package chaos

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// FaultKind is the fault of one phase of a run.
type FaultKind int

// The faults a phase injects besides the calm per-message faults.
const (
	// Partition splits the validators (2+2: no side has the 3 of 4
	// dBFT needs; 3+1: the three go on without the one).
	Partition FaultKind = iota
	// Kill kills one node with SIGKILL; it starts again on its database
	// when the phase ends.
	Kill
	// Stop shuts one node down with SIGTERM (exit status 0 expected) and
	// starts it again when the phase ends.
	Stop
	// Lossy raises the per-message faults to LossyFaults for the phase.
	Lossy
)

func (k FaultKind) String() string {
	switch k {
	case Partition:
		return "partition"
	case Kill:
		return "kill"
	case Stop:
		return "stop"
	default:
		return "lossy"
	}
}

// CalmFaults are the per-message faults outside Lossy phases: every frame
// delayed by 2..30 ms, 2% sent twice, 2% held back by up to 100 ms.
// No loss: TCP loses nothing inside a connection, and the liveness
// bound after a phase is checked under these faults.
var CalmFaults = Faults{Dup: 0.02, Reorder: 0.02, Delay: 2 * time.Millisecond, Jitter: 28 * time.Millisecond, ReorderBy: 100 * time.Millisecond}

// LossyFaults are the per-message faults of a Lossy phase: 5% of whole frames
// lost (consensus messages, blocks, requests and answers alike), 5% sent
// twice, 10% held back by up to 300 ms, 10..210 ms delay.
var LossyFaults = Faults{Loss: 0.05, Dup: 0.05, Reorder: 0.10, Delay: 10 * time.Millisecond, Jitter: 200 * time.Millisecond, ReorderBy: 300 * time.Millisecond}

// Phase is one step of a run: a fault held for Length, then its end
// (heal, restart, calm) and the wait for the network to move on.
type Phase struct {
	Index  int
	Fault  FaultKind
	Length time.Duration
	// Groups and Mode of a Partition.
	Groups [][]int
	Mode   PartitionMode
	// Node of a Kill or Stop.
	Node int
	// Settle is how long the run keeps calm after the network has moved
	// on, before the next phase.
	Settle time.Duration
}

// String describes the phase in one line.
func (p Phase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "phase %d: %s %s", p.Index, p.Fault, p.Length)
	switch p.Fault {
	case Partition:
		fmt.Fprintf(&b, " %s %v", p.Mode, p.Groups)
	case Kill, Stop:
		fmt.Fprintf(&b, " node %d", p.Node)
	}
	fmt.Fprintf(&b, ", settle %s", p.Settle)
	return b.String()
}

// Phase lengths: a fault lasts MinFault..MaxFault.
const (
	MinFault = 5 * time.Second
	MaxFault = 25 * time.Second
)

// Schedule returns phase i of the run with this seed over n nodes; it
// depends on nothing else, so a run's schedule is known before it starts
// and the same seed gives the same schedule.
func Schedule(seed uint64, nodes, i int) Phase {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	p := Phase{Index: i}
	switch w := r.IntN(100); {
	case w < 40:
		p.Fault = Partition
	case w < 60:
		p.Fault = Kill
	case w < 75:
		p.Fault = Stop
	default:
		p.Fault = Lossy
	}
	p.Length = MinFault + time.Duration(r.Int64N(int64(MaxFault-MinFault)))
	p.Length = p.Length.Round(100 * time.Millisecond)
	p.Settle = time.Duration(2+r.IntN(8)) * time.Second
	perm := r.Perm(nodes)
	switch p.Fault {
	case Partition:
		p.Mode = PartitionMode(r.IntN(2))
		cut := nodes / 2 // halves
		if r.IntN(2) == 0 {
			cut = 1 // one alone
		}
		a, b := perm[:cut], perm[cut:]
		p.Groups = [][]int{slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))}
	case Kill, Stop:
		p.Node = perm[0]
	}
	return p
}

// Bound is the time within which every running node must be above the
// height the network had when a fault of the given length ended, with
// block time t. In dbft (v0.4.0, in n3node and in neo-go 0.120.0) a backup
// in view v waits t<<(v+1) for a block, then sends ChangeView(v+1) and
// waits t<<(v+2), sending it again whenever that runs out; the view rises
// only when 3 of 4 validators ask for it. A fault that leaves no 3
// validators together (a 2+2 partition) therefore does not raise the
// views: at the heal the change views are repeated within t<<(v+2) and
// meet. A fault that lets 3 agree on view changes but not on blocks
// (lossy phases) raises them: the timers before the one running at the
// end sum to 2t(2^v-1) <= L, so the running one (t<<(v+1) <= L+2t)
// expires within L+2t; a node a view behind can cost one more such
// timer: 2(L+2t). 10 block times cover syncing the missed blocks and one
// round, and 15 s the redial of connections a Cut partition closed (the
// wait before a retry is at most about the time spent failing, which the
// first term holds) and a restarted node's start on a loaded host.
func Bound(fault, t time.Duration) time.Duration {
	return 2*(fault+2*t) + 10*t + 15*time.Second
}

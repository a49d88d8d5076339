package sim

import (
	"fmt"
	"slices"
	"time"
)

// Faults are numbered from 1 in the order they are drawn; the network's
// loss, duplication and jitter are fault 0. Config.Skip leaves faults out
// (the shrinker's tool).

// schedule draws the run's faults from the seed and queues them: network
// partitions that form and heal, an isolated node, crashes with restarts
// (losing what was not persisted), clock skew, bursts of loss. Every node
// also persists at random moments, so a crash loses a random tail.
func (w *world) schedule() {
	for _, n := range w.nodes {
		w.persistLoop(n)
	}
	if w.cfg.Faults <= 0 {
		return
	}
	span := int64(w.cfg.Faults)
	count := 2 + w.rng.IntN(int(w.cfg.Faults/(5*time.Second))+1)
	for f := range count {
		at := time.Duration(w.rng.Int64N(span))
		dur := time.Duration(1+w.rng.IntN(20)) * time.Second
		// A skipped fault makes the same draws, so that skipping one
		// leaves the others as they were.
		skip := slices.Contains(w.cfg.Skip, f+1)
		w.faultID = f + 1
		switch k := w.rng.IntN(6); k {
		case 0:
			g := w.split()
			if !skip {
				w.partitionAt(at, dur, g)
			}
		case 1:
			g := make([]int, len(w.nodes))
			g[w.rng.IntN(len(w.nodes))] = 1
			if !skip {
				w.partitionAt(at, dur, g)
			}
		case 2, 3:
			i := w.rng.IntN(len(w.nodes))
			if w.nodes[i].byz == honest && !skip {
				w.crashAt(at, dur, i)
			}
		case 4:
			i := w.rng.IntN(len(w.nodes))
			skew := time.Duration(w.rng.IntN(6001)-3000) * time.Millisecond
			if !skip {
				w.note(at, "skew node %d by %s", i, skew)
				w.atAbs(at, func() { w.nodes[i].clk.skew = skew })
			}
		case 5:
			loss := 0.3 + 0.4*w.rng.Float64()
			if !skip {
				w.note(at, "loss %.0f%% for %s", loss*100, dur)
				w.atAbs(at, func() {
					old := w.net.loss
					w.net.loss = loss
					w.at(dur, func() {
						if !w.calming {
							w.net.loss = old
						}
					})
				})
			}
		}
	}
	w.faultID = -1
}

// atAbs queues act at time at since the start.
func (w *world) atAbs(at time.Duration, act func()) {
	w.push(&event{at: epoch.Add(at), kind: evAction, act: act})
}

// split draws a partition into two non-empty groups.
func (w *world) split() []int {
	g := make([]int, len(w.nodes))
	for {
		ones := 0
		for i := range g {
			g[i] = w.rng.IntN(2)
			ones += g[i]
		}
		if ones > 0 && ones < len(g) {
			return g
		}
	}
}

func (w *world) partitionAt(at, dur time.Duration, g []int) {
	var a, b []int
	for i, x := range g {
		if x == 0 {
			a = append(a, i)
		} else {
			b = append(b, i)
		}
	}
	w.note(at, "partition %v | %v for %s", a, b, dur)
	w.atAbs(at, func() {
		copy(w.net.group, g)
		w.atAbs(at+dur, func() {
			if slices.Equal(w.net.group, g) {
				clear(w.net.group)
			}
		})
	})
}

func (w *world) crashAt(at, dur time.Duration, i int) {
	w.note(at, "crash node %d, restart after %s", i, dur)
	w.atAbs(at, func() {
		n := w.nodes[i]
		if !n.up {
			return
		}
		n.shut(true)
		w.atAbs(at+dur, func() { w.restart(n) })
	})
}

func (w *world) restart(n *node) {
	if n.up {
		return
	}
	if err := n.restart(); err != nil {
		w.fail(fmt.Sprintf("node %d does not restart: %v", n.i, err))
	}
}

// persistLoop writes a node's committed blocks to its disk at random
// moments (0.2-3 s apart).
func (w *world) persistLoop(n *node) {
	var tick func()
	tick = func() {
		if n.up {
			if err := n.chain.Persist(); err != nil {
				w.fail(fmt.Sprintf("node %d: persist: %v", n.i, err))
			}
		}
		w.at(time.Duration(200+w.rng.IntN(2800))*time.Millisecond, tick)
	}
	w.at(time.Duration(w.rng.IntN(3000))*time.Millisecond, tick)
}

// calm ends the faults: every node up, one network, no loss or
// duplication, little jitter. Clock skew and Byzantine behaviour stay.
func (w *world) calm() {
	w.note(w.since(), "calm: faults end")
	w.calming = true
	clear(w.net.group)
	w.net.loss, w.net.dup = 0, 0
	w.net.jitter = min(w.net.jitter, 50*time.Millisecond)
	for _, n := range w.nodes {
		w.restart(n)
	}
}

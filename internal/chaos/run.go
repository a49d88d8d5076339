package chaos

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/n3node/n3node/internal/multinode"
	"github.com/n3node/n3node/pkg/bench/procstat"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Config describes a run.
type Config struct {
	// Seed seeds the schedule and every per-frame decision.
	Seed uint64
	// Duration: phases start until it has passed (the last one runs to
	// its end).
	Duration time.Duration
	// BlockTime is the network's TimePerBlock (for Bound).
	BlockTime time.Duration
	// StuckAfter ends the run when the network has not moved on this
	// long after a fault ended (default 10 minutes).
	StuckAfter time.Duration
	// TxEvery is the interval of the committee's transfers to running
	// nodes (0: 2 s; negative: none).
	TxEvery time.Duration
	// Log gets one line per event (nil: none).
	Log func(format string, args ...any)
}

// PhaseResult is what one phase did and how the network recovered.
type PhaseResult struct {
	Phase
	// Start is the phase's start since the run's start.
	Start time.Duration
	// Heights are the heights of the nodes that ran through the fault
	// (in node order) just before it ended; Height is the highest.
	Heights []uint32
	Height  uint32
	// Recovery is how long after the fault ended (a restarted node's
	// start included) every node was above Height; Bound is the limit it
	// is held to.
	Recovery, Bound time.Duration
	// HostBusy is the fraction of the host's CPU time that was busy
	// during the recovery (everything on the machine, not only the
	// nodes): a recovery over the bound on a saturated host may be load.
	HostBusy float64
	// Err is a stop that did not end cleanly or a start that failed.
	Err string
}

// Missed reports whether the recovery took longer than the bound.
func (r PhaseResult) Missed() bool { return r.Recovery > r.Bound }

// String describes the result in one line.
func (r PhaseResult) String() string {
	s := fmt.Sprintf("[%7.1fs] %s: heights %v, all above %d %.1fs after the end (bound %.1fs), host CPU %.0f%% busy",
		r.Start.Seconds(), r.Phase, r.Heights, r.Height, r.Recovery.Seconds(), r.Bound.Seconds(), 100*r.HostBusy)
	if r.Missed() {
		s += " OVER BOUND"
	}
	if r.Err != "" {
		s += ": " + r.Err
	}
	return s
}

// Report is the outcome of a run.
type Report struct {
	Seed     uint64
	Duration time.Duration
	Phases   []PhaseResult
	// Violations are safety failures: forks, state roots that differ,
	// nodes that did not stop cleanly or start again.
	Violations []string
	// Stuck is set when the run ended because the network did not move
	// on within Config.StuckAfter.
	Stuck string
	// Checks counts the (node, height) pairs whose block hash and state
	// root were compared while the run went on; FinalHeight is the
	// height all nodes had at the end, compared from genesis.
	Checks      int
	FinalHeight uint32
	// Transfers sent to nodes, accepted by them, and in a block at the end.
	TxSent, TxAccepted, TxLanded int
	// TxLost are accepted transfers in no block at the end (a node killed
	// or stopped before it relayed one loses it with its memory pool).
	TxLost []string
	Proxy  string
}

// Misses returns the phases whose recovery took longer than the bound.
func (r *Report) Misses() []PhaseResult {
	var out []PhaseResult
	for _, p := range r.Phases {
		if p.Missed() {
			out = append(out, p)
		}
	}
	return out
}

// Summary describes the run: one line per phase, then the figures.
func (r *Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "chaos run, seed %d, %s, %d phases\n", r.Seed, r.Duration.Round(time.Second), len(r.Phases))
	counts := make(map[FaultKind]int)
	var worst float64
	for _, p := range r.Phases {
		fmt.Fprintf(&b, "  %s\n", p)
		counts[p.Fault]++
		worst = max(worst, p.Recovery.Seconds()/p.Bound.Seconds())
	}
	fmt.Fprintf(&b, "phases: %d partition, %d kill, %d stop, %d lossy; slowest recovery %.0f%% of its bound; %d over the bound\n",
		counts[Partition], counts[Kill], counts[Stop], counts[Lossy], 100*worst, len(r.Misses()))
	fmt.Fprintf(&b, "final height %d equal on all nodes from genesis (hashes and state roots); %d node-height checks during the run\n", r.FinalHeight, r.Checks)
	fmt.Fprintf(&b, "transfers: %d sent, %d accepted, %d in blocks\n", r.TxSent, r.TxAccepted, r.TxLanded)
	for _, tx := range r.TxLost {
		fmt.Fprintf(&b, "  not in a block: %s\n", tx)
	}
	fmt.Fprintf(&b, "proxy: %s\n", r.Proxy)
	for _, v := range r.Violations {
		fmt.Fprintf(&b, "VIOLATION: %s\n", v)
	}
	if r.Stuck != "" {
		fmt.Fprintf(&b, "STUCK: %s\n", r.Stuck)
	}
	return b.String()
}

// sentTx is a transfer a node accepted.
type sentTx struct {
	hash hash.Uint256
	node string
	at   time.Duration // since the run's start
}

// runner holds one run's state.
type runner struct {
	cfg   Config
	nw    *multinode.Network
	proxy *Proxy
	check *checker
	start time.Time
	rep   *Report

	txMu     sync.Mutex
	accepted []sentTx

	extra []string // violations found outside the checker
}

// ErrStuck is returned by Run when the network did not move on.
var ErrStuck = errors.New("chaos: network stuck")

// Run starts the network's nodes (their seeds must be proxy's addresses:
// multinode.Options.Seed = proxy.Addr), runs phases of Schedule(seed)
// until cfg.Duration has passed while checking every node's chain, then
// ends every fault, waits for all nodes to agree on two more blocks and
// compares their chains from genesis. The report holds what was found;
// the error is for a run that could not go on (nodes that do not start,
// ErrStuck, ctx).
func Run(ctx context.Context, nw *multinode.Network, proxy *Proxy, cfg Config) (*Report, error) {
	if cfg.StuckAfter == 0 {
		cfg.StuckAfter = 10 * time.Minute
	}
	if cfg.TxEvery == 0 {
		cfg.TxEvery = 2 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	r := &runner{cfg: cfg, nw: nw, proxy: proxy, check: newChecker(), rep: &Report{Seed: cfg.Seed}}
	err := r.run(ctx)
	r.rep.Duration = time.Since(r.start)
	r.rep.Checks, r.rep.Violations = r.check.result()
	r.rep.Violations = append(r.rep.Violations, r.extra...)
	r.rep.Proxy = proxy.Stats.String()
	return r.rep, err
}

func (r *runner) logf(format string, args ...any) {
	r.cfg.Log("[%7.1fs] "+format, append([]any{time.Since(r.start).Seconds()}, args...)...)
}

func (r *runner) run(ctx context.Context) error {
	r.start = time.Now()
	r.proxy.SetFaults(CalmFaults)
	r.logf("seed %d; calm faults: %s; lossy phases: %s", r.cfg.Seed, CalmFaults, LossyFaults)
	if err := r.nw.Start(ctx); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	err := multinode.WaitHeight(wctx, 2, r.nw.Nodes...)
	cancel()
	if err != nil {
		return err
	}
	r.logf("network up: %s", nodeNames(r.nw.Nodes))

	bg, stopBG := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { r.checkLoop(bg) })
	if r.cfg.TxEvery > 0 {
		wg.Go(func() { r.txLoop(bg) })
	}
	defer func() {
		stopBG()
		wg.Wait()
	}()

	for i := 0; time.Since(r.start) < r.cfg.Duration; i++ {
		res, err := r.phase(ctx, Schedule(r.cfg.Seed, len(r.nw.Nodes), i))
		r.rep.Phases = append(r.rep.Phases, res)
		r.cfg.Log("%s", res)
		if err != nil {
			return err
		}
	}
	stopBG()
	wg.Wait()
	return r.finish(ctx)
}

// phase injects one fault, ends it and waits for the network to move on.
func (r *runner) phase(ctx context.Context, ph Phase) (PhaseResult, error) {
	res := PhaseResult{Phase: ph, Start: time.Since(r.start), Bound: Bound(ph.Length, r.cfg.BlockTime)}
	r.logf("%s", ph)
	n := r.nw.Nodes[ph.Node]
	switch ph.Fault {
	case Partition:
		r.proxy.Partition(ph.Groups, ph.Mode)
	case Kill:
		if err := n.Kill(); err != nil {
			res.Err = fmt.Sprintf("kill %s: %v", n.Name, err)
		}
	case Stop:
		if err := n.Stop(); err != nil {
			res.Err = fmt.Sprintf("stop %s: %v", n.Name, err)
			r.violation(res.Err)
		}
	case Lossy:
		r.proxy.SetFaults(LossyFaults)
	}
	if err := sleep(ctx, ph.Length); err != nil {
		return res, err
	}
	// The target is the highest height of the nodes that ran through the
	// fault, read before it ends; a restart counts towards the recovery.
	var running []*multinode.Node
	for _, m := range r.nw.Nodes {
		if m.Running() {
			running = append(running, m)
		}
	}
	hs, err := r.heights(ctx, running)
	if err != nil {
		return res, err
	}
	res.Heights, res.Height = hs, maxOf(hs)
	cpu0, _ := procstat.Proc.Host()
	t0 := time.Now()
	switch ph.Fault {
	case Partition:
		r.proxy.Heal()
	case Kill, Stop:
		if err := n.Start(ctx); err != nil {
			res.Err = fmt.Sprintf("start %s again: %v", n.Name, err)
			r.violation(res.Err)
			return res, err
		}
	case Lossy:
		r.proxy.SetFaults(CalmFaults)
	}
	err = r.waitAbove(ctx, res.Height)
	res.Recovery = time.Since(t0)
	if cpu1, e := procstat.Proc.Host(); e == nil && cpu1.Total > cpu0.Total {
		res.HostBusy = 1 - float64(cpu1.Idle-cpu0.Idle)/float64(cpu1.Total-cpu0.Total)
	}
	if err != nil {
		return res, err
	}
	return res, sleep(ctx, ph.Settle)
}

// violation records a failure found outside the checker.
func (r *runner) violation(v string) {
	r.logf("VIOLATION: %s", v)
	r.extra = append(r.extra, v)
}

// heights returns every node's height, retrying RPC errors for a while
// (a node just started may be busy).
func (r *runner) heights(ctx context.Context, nodes []*multinode.Node) ([]uint32, error) {
	var last error
	for range 50 {
		hs, err := multinode.Heights(ctx, nodes)
		if err == nil {
			return hs, nil
		}
		last = err
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return nil, err
		}
	}
	return nil, last
}

// waitAbove waits until every node is above h, up to StuckAfter.
func (r *runner) waitAbove(ctx context.Context, h uint32) error {
	wctx, cancel := context.WithTimeout(ctx, r.cfg.StuckAfter)
	defer cancel()
	err := multinode.WaitHeight(wctx, h+1, r.nw.Nodes...)
	if err != nil && ctx.Err() == nil {
		r.rep.Stuck = fmt.Sprintf("not every node above %d within %s: %v", h, r.cfg.StuckAfter, err)
		return fmt.Errorf("%w: %s", ErrStuck, r.rep.Stuck)
	}
	return err
}

// finish ends every fault, waits for two more blocks on every node and
// compares all chains from genesis.
func (r *runner) finish(ctx context.Context) error {
	r.proxy.Heal()
	r.proxy.SetFaults(Faults{})
	r.logf("faults off; waiting for two blocks on every node")
	wctx, cancel := context.WithTimeout(ctx, r.cfg.StuckAfter)
	top, err := multinode.WaitBlocks(wctx, 2, r.nw.Nodes...)
	cancel()
	if err != nil {
		r.rep.Stuck = fmt.Sprintf("after the faults ended: %v", err)
		return fmt.Errorf("%w: %s", ErrStuck, r.rep.Stuck)
	}
	r.check.poll(ctx, r.nw.Nodes)
	if err := multinode.CompareChains(ctx, 0, top, r.nw.Nodes...); err != nil {
		if !errors.Is(err, multinode.ErrMismatch) {
			return err
		}
		r.violation(err.Error())
	}
	r.rep.FinalHeight = top
	r.logf("chains equal on every node from 0 to %d", top)
	r.txMu.Lock()
	accepted := r.accepted
	r.txMu.Unlock()
	r.rep.TxAccepted = len(accepted)
	for _, tx := range accepted {
		if _, err := r.nw.Nodes[0].TransactionHeight(ctx, tx.hash); err == nil {
			r.rep.TxLanded++
			continue
		}
		r.rep.TxLost = append(r.rep.TxLost, fmt.Sprintf("%s (accepted by %s at %.1fs)", tx.hash.StringLE(), tx.node, tx.at.Seconds()))
	}
	return nil
}

// checkLoop runs the checker once a second.
func (r *runner) checkLoop(ctx context.Context) {
	for ctx.Err() == nil {
		r.check.poll(ctx, r.nw.Nodes)
		_ = sleep(ctx, time.Second)
	}
}

// txLoop sends a committee transfer to a running node every TxEvery, in
// turn; nodes that are down or do not answer are skipped.
func (r *runner) txLoop(ctx context.Context) {
	c, err := multinode.NewCommittee()
	if err != nil {
		r.logf("no transfers: %v", err)
		return
	}
	for i := 0; ctx.Err() == nil; i++ {
		if err := sleep(ctx, r.cfg.TxEvery); err != nil {
			return
		}
		n := r.nw.Nodes[i%len(r.nw.Nodes)]
		if !n.Running() {
			continue
		}
		h, err := n.Height(ctx)
		if err != nil {
			continue
		}
		tx := c.GASTransfer(h, hash.Uint160{0x63, 0x68, byte(i % 4)}, int64(i%100+1)) // "ch"
		r.txMu.Lock()
		r.rep.TxSent++
		r.txMu.Unlock()
		if txh, err := multinode.Send(ctx, n, tx); err == nil {
			r.txMu.Lock()
			r.accepted = append(r.accepted, sentTx{hash: txh, node: n.Name, at: time.Since(r.start)})
			r.txMu.Unlock()
		}
	}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func maxOf(hs []uint32) uint32 {
	var m uint32
	for _, h := range hs {
		m = max(m, h)
	}
	return m
}

func nodeNames(nodes []*multinode.Node) string {
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = fmt.Sprintf("%d=%s", i, n.Name)
	}
	return strings.Join(names, " ")
}

package sim

import (
	"cmp"
	"container/heap"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus"
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// Config describes one run.
type Config struct {
	// Seed is the only source of randomness of the run.
	Seed uint64
	// Validators is the number of consensus nodes (4 or 7); one more node
	// (the RPC node) only follows the chain.
	Validators int
	// Faults is how long faults are injected (simulated time); 0: none.
	Faults time.Duration
	// Calm is the fault-free time after that (Byzantine validators keep
	// misbehaving): every honest node must advance at least LiveBlocks
	// blocks within it.
	Calm time.Duration
	// Byzantine makes up to f validators misbehave (one behaviour each,
	// chosen by the seed).
	Byzantine bool
	// Log receives the consensus and chain logs (nil: discarded).
	Log io.Writer
	// Skip lists faults to leave out, by number (see the schedule).
	Skip []int
	// Strict requires liveness under conflicting votes too (to study the
	// dBFT 2.0 stalls, see docs/reliability.md).
	Strict bool
}

// LiveBlocks is how many blocks every honest node must add in the calm
// phase.
const LiveBlocks = 3

// Limits on what the world may hold (the bounded-queue invariant).
const (
	maxQueue = 200_000 // undelivered events
	maxAhead = 64      // blocks a node holds above its height
)

// Result is what a run did.
type Result struct {
	Seed     uint64
	Schedule []string // the faults, in time order
	Heights  []uint32 // of every node at the end
	// Events is the number of events handled; Delivered and Dropped count
	// consensus payloads; Txs the transactions submitted.
	Events, Delivered, Dropped, Txs int
	// TxsOnChain is the number of transactions in the committed blocks.
	TxsOnChain int
	// Recovery is how long the honest nodes took, from the start of the
	// calm phase, to add LiveBlocks blocks each.
	Recovery time.Duration
	// Refused counts payloads the consensus refused by reason.
	Refused map[string]int
	// Faults are the numbers of the faults scheduled (0: the network's
	// loss, duplication and jitter), for the shrinker.
	Faults []int
	// LivenessWaived: the network stopped under conflicting votes of a
	// Byzantine validator, which dBFT 2.0 does not survive (safety held).
	LivenessWaived bool
}

// Violation is an invariant that failed.
type Violation struct {
	At   time.Duration // since the start
	What string
	Res  *Result
}

func (v *Violation) Error() string {
	return fmt.Sprintf("seed %d: at %s: %s\nfault schedule:\n  %s", v.Res.Seed, v.At, v.What,
		strings.Join(v.Res.Schedule, "\n  "))
}

type evKind int

const (
	evPayload  evKind = iota // a consensus payload reaches node to
	evBlock                  // a block reaches node to
	evNewBlock               // node to's chain added blk (tell its consensus)
	evAction                 // run act (faults, syncs, persists)
	evTx                     // a transaction reaches node to
)

type event struct {
	at   time.Time
	seq  uint64
	to   int
	kind evKind
	ext  *message.Extensible
	blk  *block.Block
	act  func()
	tx   *transaction.Transaction
	// requested: tx answers the node's consensus asking for it.
	requested bool
}

type queue []*event

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if c := q[i].at.Compare(q[j].at); c != 0 {
		return c < 0
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *queue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// net is the state of the simulated network.
type net struct {
	delay, jitter time.Duration
	loss, dup     float64
	group         []int // partition group of each node; nodes talk within a group
}

type world struct {
	cfg   Config
	rng   *rand.Rand
	clock *clock
	q     queue
	seq   uint64
	chain config.Blockchain
	keys  []*keys.PrivateKey
	nodes []*node
	net   net
	log   *slog.Logger
	res   *Result
	err   *Violation
	// Committed block hashes and state roots by height (of the first node
	// to add each height).
	hashes map[uint32]hash.Uint256
	roots  map[uint32]hash.Uint256
	// history keeps payloads seen, for replays.
	history []*message.Extensible
	notes   []noteLine
	calming bool // the calm phase has begun
	payer   *payer
	faultID int // of the fault being scheduled, for its note
}

// Run runs one simulation. A *Violation error is an invariant that failed.
func Run(cfg Config) (*Result, error) {
	w, err := newWorld(cfg)
	if err != nil {
		return nil, err
	}
	defer w.close()
	w.start()
	end := epoch.Add(cfg.Faults)
	w.runUntil(end)
	if w.err == nil {
		w.calm()
		start := w.honestMin()
		calmEnd := end.Add(cfg.Calm)
		reached := false
		w.runUntilCond(calmEnd, func() bool {
			if w.honestMin() >= start+LiveBlocks {
				reached = true
				return true
			}
			return false
		})
		if w.err == nil {
			if !reached && !w.cfg.Strict && w.lockAttack() {
				// dBFT 2.0 is not live when a Byzantine validator's
				// conflicting votes (two proposals; a Commit and
				// ChangeViews; a withheld Commit and ChangeViews) split the honest validators between a view
				// where some committed (and are locked) and another: see
				// docs/reliability.md. Safety is still checked.
				w.res.LivenessWaived = true
				w.note(w.since(), "liveness not required: conflicting votes split the honest validators (dBFT 2.0 commit lock)")
			} else if !reached {
				w.fail(fmt.Sprintf("liveness: honest nodes at %v after %s of calm, want each >= %d%s", w.heights(), cfg.Calm, start+LiveBlocks, w.rounds()))
			} else {
				w.res.Recovery = w.clock.now.Sub(end)
			}
		}
	}
	w.res.Heights = w.heights()
	w.res.Schedule = w.scheduleLines()
	if w.err != nil {
		return w.res, w.err
	}
	return w.res, nil
}

func newWorld(cfg Config) (*world, error) {
	if cfg.Validators < 1 {
		return nil, errors.New("sim: no validators")
	}
	log := slog.New(slog.DiscardHandler)
	if cfg.Log != nil {
		log = slog.New(slog.NewTextHandler(cfg.Log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	w := &world{
		cfg:     cfg,
		rng:     rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		clock:   newClock(),
		log:     log,
		res:     &Result{Seed: cfg.Seed, Refused: map[string]int{}},
		hashes:  map[uint32]hash.Uint256{},
		roots:   map[uint32]hash.Uint256{},
		faultID: -1,
	}
	for i := range cfg.Validators {
		b := make([]byte, 32)
		b[0], b[31] = 0x5a, byte(i+1)
		k, err := keys.NewPrivateKeyFromBytes(b)
		if err != nil {
			return nil, err
		}
		w.keys = append(w.keys, k)
	}
	var err error
	if w.payer, err = newPayer(); err != nil {
		return nil, err
	}
	fund, err := w.payer.fundScript(w.keys)
	if err != nil {
		return nil, err
	}
	if w.chain, err = chainConfig(w.keys, fund); err != nil {
		return nil, err
	}
	w.net = net{delay: 10 * time.Millisecond, group: make([]int, cfg.Validators+1)}
	if cfg.Faults > 0 {
		w.net.delay = time.Duration(5+w.rng.IntN(95)) * time.Millisecond
		w.net.jitter = time.Duration(w.rng.IntN(400)) * time.Millisecond
		w.net.loss = w.rng.Float64() * 0.2
		w.net.dup = w.rng.Float64() * 0.1
		if slices.Contains(cfg.Skip, 0) {
			w.net.jitter, w.net.loss, w.net.dup = 0, 0, 0
		}
		w.faultID = 0
		w.note(0, "network: delay %s, jitter %s, loss %.0f%%, duplication %.0f%%", w.net.delay, w.net.jitter, w.net.loss*100, w.net.dup*100)
	}
	w.faultID = -1
	byz := w.pickByzantine()
	for i := range cfg.Validators + 1 {
		var k *keys.PrivateKey
		if i < cfg.Validators {
			k = w.keys[i]
		}
		n := &node{w: w, i: i, key: k, clk: &nodeClock{c: w.clock}, ahead: map[uint32]*block.Block{}, byz: byz[i]}
		n.disk = storage.NewMemoryStore()
		if err := n.open(); err != nil {
			w.close()
			return nil, err
		}
		w.nodes = append(w.nodes, n)
	}
	w.schedule()
	return w, nil
}

// chainConfig is the protocol of the simulated network: the validators
// are the standby committee, every hardfork from genesis, 1 s blocks; the
// genesis block runs genesisScript (which funds the load's payer).
func chainConfig(ks []*keys.PrivateKey, genesisScript []byte) (config.Blockchain, error) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "ProtocolConfiguration:\n  Magic: 7175\n  TimePerBlock: 1s\n  ValidatorsCount: %d\n  VerifyTransactions: true\n  StandbyCommittee:\n", len(ks))
	for _, k := range ks {
		fmt.Fprintf(&sb, "    - %s\n", k.PublicKey().StringCompressed())
	}
	fmt.Fprintf(&sb, "  Genesis:\n    Transaction:\n      Script: %s\n      SystemFee: 1000000000\n", base64.StdEncoding.EncodeToString(genesisScript))
	sb.WriteString("  Hardforks:\n")
	for _, hf := range config.Hardforks() {
		fmt.Fprintf(&sb, "    %s: 0\n", hf)
	}
	sb.WriteString("ApplicationConfiguration:\n  DBConfiguration:\n    Type: inmemory\n")
	c, err := config.LoadBytes("sim", []byte(sb.String()))
	if err != nil {
		return config.Blockchain{}, err
	}
	return c.Blockchain()
}

func (w *world) since() time.Duration { return w.clock.now.Sub(epoch) }

type noteLine struct {
	at   time.Duration
	id   int // fault number, 0: none
	text string
}

// note adds a line to the fault schedule (for the fault being scheduled).
func (w *world) note(at time.Duration, format string, args ...any) {
	if w.faultID >= 0 && !slices.Contains(w.res.Faults, w.faultID) {
		w.res.Faults = append(w.res.Faults, w.faultID)
	}
	w.notes = append(w.notes, noteLine{at, w.faultID, fmt.Sprintf(format, args...)})
}

// scheduleLines is the fault schedule in time order.
func (w *world) scheduleLines() []string {
	slices.SortStableFunc(w.notes, func(a, b noteLine) int { return cmp.Compare(a.at, b.at) })
	var out []string
	for _, l := range w.notes {
		id := ""
		if l.id >= 0 {
			id = fmt.Sprintf("#%d", l.id)
		}
		out = append(out, fmt.Sprintf("%9s %4s  %s", l.at.Round(time.Millisecond), id, l.text))
	}
	return out
}

func (w *world) fail(what string) {
	if w.err == nil {
		w.err = &Violation{At: w.since(), What: what, Res: w.res}
	}
}

func (w *world) push(e *event) {
	w.seq++
	e.seq = w.seq
	heap.Push(&w.q, e)
	if len(w.q) > maxQueue {
		w.fail(fmt.Sprintf("bounded queues: %d undelivered events", len(w.q)))
	}
}

func (w *world) at(d time.Duration, act func()) {
	w.push(&event{at: w.clock.now.Add(d), kind: evAction, act: act})
}

func (w *world) start() {
	for _, n := range w.nodes {
		n.begin()
		w.syncLoop(n)
	}
	w.loadLoop()
}

func (w *world) close() {
	for _, n := range w.nodes {
		n.shut(false)
	}
}

// runUntil runs until simulated time end (or a violation).
func (w *world) runUntil(end time.Time) { w.runUntilCond(end, func() bool { return false }) }

func (w *world) runUntilCond(end time.Time, done func() bool) {
	for w.err == nil && !done() {
		if w.pollNodes() {
			continue
		}
		if len(w.q) > 0 && !w.q[0].at.After(w.clock.now) {
			w.handle(heap.Pop(&w.q).(*event))
			continue
		}
		next, ok := w.clock.next()
		if len(w.q) > 0 && (!ok || w.q[0].at.Before(next)) {
			next, ok = w.q[0].at, true
		}
		if !ok || next.After(end) {
			w.clock.advance(end)
			return
		}
		w.clock.advance(next)
	}
}

// pollNodes lets each running node handle one due event of its own.
func (w *world) pollNodes() bool {
	any := false
	for _, n := range w.nodes {
		if n.up && n.st != nil && n.st.Poll() {
			w.res.Events++
			any = true
		}
	}
	return any
}

func (w *world) handle(e *event) {
	w.res.Events++
	switch e.kind {
	case evAction:
		e.act()
		return
	}
	n := w.nodes[e.to]
	if !n.up {
		return
	}
	switch e.kind {
	case evPayload:
		n.receive(e.ext)
	case evBlock:
		n.deliverBlock(e.blk)
	case evNewBlock:
		if n.st != nil {
			n.st.NewBlock(&e.blk.Header)
		}
	case evTx:
		n.deliverTx(e.tx, e.requested)
	}
}

// reachable reports whether a message from one node can reach another now.
func (w *world) reachable(from, to int) bool {
	return w.nodes[from].up && w.nodes[to].up && w.net.group[from] == w.net.group[to]
}

// latency draws a delivery delay.
func (w *world) latency() time.Duration {
	d := w.net.delay
	if w.net.jitter > 0 {
		d += time.Duration(w.rng.Int64N(int64(w.net.jitter)))
	}
	return d
}

// send delivers a consensus payload from one node to another, subject to
// the network's faults.
func (w *world) send(from, to int, e *message.Extensible) {
	if from == to {
		return
	}
	if !w.reachable(from, to) || w.rng.Float64() < w.net.loss {
		w.res.Dropped++
		return
	}
	w.push(&event{at: w.clock.now.Add(w.latency()), to: to, kind: evPayload, ext: e})
	if w.rng.Float64() < w.net.dup {
		w.push(&event{at: w.clock.now.Add(w.latency()), to: to, kind: evPayload, ext: e})
	}
}

// broadcast sends e from a node to every other node.
func (w *world) broadcast(from int, e *message.Extensible) {
	for to := range w.nodes {
		w.send(from, to, e)
	}
	if len(w.history) < 4096 {
		w.history = append(w.history, e)
	}
}

// relayBlock announces a block a node added to the others (loss applies:
// sync fetches what relay misses).
func (w *world) relayBlock(from int, b *block.Block) {
	for to := range w.nodes {
		if to == from || !w.reachable(from, to) || w.rng.Float64() < w.net.loss {
			continue
		}
		w.push(&event{at: w.clock.now.Add(w.latency()), to: to, kind: evBlock, blk: b})
	}
}

// syncLoop models block sync: every second a node asks a random
// reachable peer that is ahead for the blocks it lacks.
func (w *world) syncLoop(n *node) {
	var tick func()
	tick = func() {
		if n.up {
			peers := []int{}
			for _, o := range w.nodes {
				if o != n && w.reachable(o.i, n.i) && o.chain.BlockHeight() > n.chain.BlockHeight() {
					peers = append(peers, o.i)
				}
			}
			if len(peers) > 0 {
				o := w.nodes[peers[w.rng.IntN(len(peers))]]
				d := w.latency() + w.latency()
				for h := n.chain.BlockHeight() + 1; h <= o.chain.BlockHeight() && h <= n.chain.BlockHeight()+32; h++ {
					b, err := o.chain.GetBlockByIndex(h)
					if err != nil {
						w.fail(fmt.Sprintf("node %d lost block %d: %v", o.i, h, err))
						return
					}
					w.push(&event{at: w.clock.now.Add(d), to: n.i, kind: evBlock, blk: b})
				}
			}
		}
		w.at(time.Second, tick)
	}
	w.at(time.Duration(w.rng.IntN(1000))*time.Millisecond, tick)
}

// committed checks the safety invariants for a block node n added.
func (w *world) committed(n *node, b *block.Block) {
	h := b.Hash()
	if prev, ok := w.hashes[b.Index]; ok && prev != h {
		w.fail(fmt.Sprintf("safety: node %d committed block %d %s, another node %s", n.i, b.Index, h.StringLE(), prev.StringLE()))
		return
	}
	if _, ok := w.hashes[b.Index]; !ok {
		w.res.TxsOnChain += len(b.Transactions)
	}
	w.hashes[b.Index] = h
	r, err := n.chain.GetStateRoot(b.Index)
	if err != nil {
		w.fail(fmt.Sprintf("node %d: no state root at %d: %v", n.i, b.Index, err))
		return
	}
	if prev, ok := w.roots[b.Index]; ok && prev != r.RootHash {
		w.fail(fmt.Sprintf("state roots: node %d has %s at %d, another node %s", n.i, r.RootHash.StringLE(), b.Index, prev.StringLE()))
		return
	}
	w.roots[b.Index] = r.RootHash
}

// heights returns the chain height of every node.
func (w *world) heights() []uint32 {
	var hs []uint32
	for _, n := range w.nodes {
		hs = append(hs, n.chain.BlockHeight())
	}
	return hs
}

// rounds describes where the honest validators' dbft stands (view, and
// whether it committed there) and names the dBFT 2.0 commit lock when the
// honest validators are split so that no view can reach M: those that
// committed are locked in their view and fewer than M are elsewhere
// (docs/reliability.md, finding 8).
func (w *world) rounds() string {
	var (
		parts     []string
		lockedIn  = map[uint8]int{}
		freeViews []uint8
	)
	for i, n := range w.nodes {
		if n.st == nil || n.byz != honest {
			continue
		}
		v, c := n.st.Round()
		if c {
			lockedIn[v]++
			parts = append(parts, fmt.Sprintf("%d: committed in view %d", i, v))
		} else {
			freeViews = append(freeViews, v)
			parts = append(parts, fmt.Sprintf("%d: view %d", i, v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	out := "; honest validators " + strings.Join(parts, ", ")
	if len(lockedIn) == 0 {
		return out
	}
	// The most votes that can still meet in one view: a locked view with
	// the uncommitted validators not past it, or a new view of all the
	// uncommitted ones (dBFT 2.0 never goes back to a lower view).
	best := len(freeViews)
	for v, c := range lockedIn {
		for _, fv := range freeViews {
			if fv <= v {
				c++
			}
		}
		best = max(best, c)
	}
	if m := w.cfg.Validators - (w.cfg.Validators-1)/3; best < m {
		out += fmt.Sprintf(" (dBFT 2.0 commit lock: at most %d of the M=%d votes can meet in one view)", best, m)
	}
	return out
}

// lockAttack reports whether a validator sends conflicting votes: two
// proposals, ChangeViews beside its Commit, or preparations whose Commit
// never comes followed by ChangeViews.
func (w *world) lockAttack() bool {
	for _, n := range w.nodes {
		if n.byz == equivocate || n.byz == changeViewFlood || n.byz == withholdCommits {
			return true
		}
	}
	return false
}

// honestMin is the lowest height of the honest nodes (the RPC node
// included).
func (w *world) honestMin() uint32 {
	m := ^uint32(0)
	for _, n := range w.nodes {
		if n.byz == honest {
			m = min(m, n.chain.BlockHeight())
		}
	}
	return m
}

// node is one simulated node: a real chain (core.Blockchain over a memory
// "disk" behind a fault store) and, for a validator, a real consensus
// Service driven step by step.
type node struct {
	w     *world
	i     int
	key   *keys.PrivateKey // nil: the RPC node
	disk  storage.Store    // what survives a crash
	fault *storagetest.FaultStore
	chain *core.Blockchain
	svc   *consensus.Service
	st    *consensus.Stepper
	clk   *nodeClock
	up    bool
	ahead map[uint32]*block.Block
	byz   behaviour
	nonce uint64
}

// keepOpen is a store whose Close does nothing: the "disk" outlives the
// chain that closes it.
type keepOpen struct{ storage.Store }

func (keepOpen) Close() error { return nil }

// open opens the node's chain on its disk and, for a validator, makes its
// consensus Service.
func (n *node) open() error {
	n.fault = storagetest.NewFaultStore(keepOpen{n.disk})
	// Writes reach the disk only when the world says so (Persist):
	// a crash loses what came after the last one.
	bc, err := core.New(n.w.chain, n.fault, core.Options{Logger: n.w.log.With("node", n.i), PersistInterval: 24 * time.Hour, Verifiers: 1})
	if err != nil {
		return fmt.Errorf("node %d: %w", n.i, err)
	}
	n.chain = bc
	n.up = true
	clear(n.ahead)
	if n.key == nil {
		return nil
	}
	n.svc, err = consensus.New(consensus.Config{
		Ledger:      ledger{bc, n},
		Mempool:     bc.Mempool(),
		Broadcaster: broadcaster{n},
		Keys:        []*keys.PrivateKey{n.key},
		Clock:       n.clk,
		Logger:      n.w.log.With("node", n.i),
		Nonce: func() uint64 {
			n.nonce++
			return n.w.cfg.Seed<<20 ^ uint64(n.i)<<12 ^ n.nonce
		},
	})
	if err != nil {
		return err
	}
	n.st = n.svc.Stepper()
	return nil
}

func (n *node) begin() {
	if n.st != nil {
		n.st.Begin()
	}
}

// shut stops the node; crash loses every write since the last Persist.
func (n *node) shut(crash bool) {
	if !n.up {
		return
	}
	n.up = false
	if n.st != nil {
		n.st.Stop()
		n.st, n.svc = nil, nil
	}
	if crash {
		n.fault.FailWrites(-1)
	}
	_ = n.chain.Close()
}

// restart reopens the node from what its disk holds.
func (n *node) restart() error {
	if err := n.open(); err != nil {
		return err
	}
	n.begin()
	return nil
}

// addBlock adds b to the node's chain, checks the invariants, relays it
// and tells the node's consensus.
func (n *node) addBlock(b *block.Block) error {
	if err := n.chain.AddBlock(b); err != nil {
		return err
	}
	n.w.committed(n, b)
	n.w.relayBlock(n.i, b)
	n.w.push(&event{at: n.w.clock.now, to: n.i, kind: evNewBlock, blk: b})
	for {
		next, ok := n.ahead[n.chain.BlockHeight()+1]
		if !ok {
			break
		}
		delete(n.ahead, next.Index)
		if err := n.addBlock(next); err != nil {
			break
		}
	}
	for h := range n.ahead { // drop what is below the height now
		if h <= n.chain.BlockHeight() {
			delete(n.ahead, h)
		}
	}
	return nil
}

// deliverBlock takes a block from the network.
func (n *node) deliverBlock(b *block.Block) {
	h := n.chain.BlockHeight()
	switch {
	case b.Index <= h:
	case b.Index == h+1:
		if err := n.addBlock(b); err != nil && n.w.err == nil {
			n.w.fail(fmt.Sprintf("node %d refused block %d %s: %v", n.i, b.Index, b.Hash().StringLE(), err))
		}
	case b.Index <= h+maxAhead:
		n.ahead[b.Index] = b
	}
	if len(n.ahead) > maxAhead {
		n.w.fail(fmt.Sprintf("bounded queues: node %d holds %d blocks ahead", n.i, len(n.ahead)))
	}
}

// receive passes a consensus payload to the node's Service, as the P2P
// layer does after the ledger accepted the extensible payload.
func (n *node) receive(e *message.Extensible) {
	n.w.res.Delivered++
	if n.st == nil {
		return
	}
	if err := n.chain.VerifyExtensible(e.Sender, e, &e.Witness); err != nil {
		n.w.res.Refused["extensible: "+firstWords(err)]++
		return
	}
	if err := n.st.Receive(e); err != nil {
		n.w.res.Refused[firstWords(err)]++
	}
}

func firstWords(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, ':'); i > 0 {
		if j := strings.IndexByte(s[i+1:], ':'); j > 0 {
			return s[:i+1+j]
		}
	}
	return s
}

// ledger is the chain as a node's consensus sees it.
type ledger struct {
	*core.Blockchain
	n *node
}

// VerifyProposedTransactions reports the culprit as the consensus wants it.
func (l ledger) VerifyProposedTransactions(txs []*transaction.Transaction) error {
	err := l.Blockchain.VerifyProposedTransactions(txs)
	var rej *core.RejectedTxError
	if errors.As(err, &rej) {
		return &consensus.RejectedTxError{Hash: rej.Hash, Err: err}
	}
	return err
}

// GetConfig returns the chain's configuration.
func (l ledger) GetConfig() config.Blockchain { return *l.Config() }

// AddBlock adds the block the node's consensus agreed on.
func (l ledger) AddBlock(b *block.Block) error { return l.n.addBlock(b) }

// broadcaster is the network as a node's consensus sees it; a Byzantine
// node's payloads go through its behaviour.
type broadcaster struct{ n *node }

func (b broadcaster) BroadcastExtensible(e *message.Extensible) {
	if b.n.byz != honest {
		b.n.misbehave(e)
		return
	}
	b.n.w.broadcast(b.n.i, e)
}

func (b broadcaster) RequestTx(hs ...hash.Uint256) { b.n.w.requestTx(b.n, hs) }
func (broadcaster) StopTxFlow()                    {}

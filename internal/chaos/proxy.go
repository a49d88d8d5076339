package chaos

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// PartitionMode is how a partition treats the connections it cuts.
type PartitionMode int

const (
	// Blackhole keeps the connections and drops every frame across the
	// cut (packets lost: the nodes see silent peers until the ping
	// timeout).
	Blackhole PartitionMode = iota
	// Cut closes the connections across the cut and closes new ones at
	// once (connection refused: the nodes redial with their backoff).
	Cut
)

func (m PartitionMode) String() string {
	if m == Cut {
		return "cut"
	}
	return "blackhole"
}

// maxQueued bounds the frames waiting for their send time in one
// direction of a connection; the reader waits when it is reached.
const maxQueued = 4096

// Stats counts what the proxy did to frames and connections.
type Stats struct {
	Conns, Refused, CutConns                               atomic.Int64
	Frames, Bytes                                          atomic.Int64
	Dropped, Duplicated, Reordered, Partitioned, Rewritten atomic.Int64
}

// String describes the counters in one line.
func (s *Stats) String() string {
	return fmt.Sprintf("conns %d (refused %d, cut %d), frames %d (%d bytes): dropped %d, duplicated %d, reordered %d, lost to partitions %d, ports rewritten %d",
		s.Conns.Load(), s.Refused.Load(), s.CutConns.Load(), s.Frames.Load(), s.Bytes.Load(),
		s.Dropped.Load(), s.Duplicated.Load(), s.Reordered.Load(), s.Partitioned.Load(), s.Rewritten.Load())
}

// Proxy sits between every ordered pair of nodes: node `from` dials
// Addr(from, to) instead of to's P2P address, and the proxy forwards the
// connection to `to`, frame by frame, with the current Faults and
// partition. Version and addr frames get their TcpServer ports rewritten
// to proxy ports (the receiver's link to the announced node), so that
// nodes that learn addresses from each other keep dialing through the
// proxy and see one address per peer.
type Proxy struct {
	seed    uint64
	targets []int // real P2P port of each node
	links   [][]net.Listener
	owner   map[uint16]int // any port (real or link) -> node
	log     func(format string, args ...any)
	Stats   Stats

	mu     sync.Mutex
	faults Faults
	group  []int // partition group of each node; nil: no partition
	mode   PartitionMode
	conns  map[*proxyConn]struct{}
	nconn  map[[2]int]int // connections per link so far (decider streams)
	closed bool
	wg     sync.WaitGroup
}

// NewProxy listens on one loopback port per ordered pair of nodes whose
// P2P ports are targets. seed seeds every decision; log (may be nil)
// gets one line per connection event.
func NewProxy(seed uint64, targets []int, log func(string, ...any)) (*Proxy, error) {
	if log == nil {
		log = func(string, ...any) {}
	}
	p := &Proxy{
		seed: seed, targets: slices.Clone(targets), log: log,
		owner: make(map[uint16]int), conns: make(map[*proxyConn]struct{}), nconn: make(map[[2]int]int),
	}
	for i, t := range targets {
		p.owner[uint16(t)] = i
	}
	p.links = make([][]net.Listener, len(targets))
	for from := range targets {
		p.links[from] = make([]net.Listener, len(targets))
		for to := range targets {
			if from == to {
				continue
			}
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				p.Close()
				return nil, fmt.Errorf("chaos: proxy listen: %w", err)
			}
			p.links[from][to] = l
			p.owner[uint16(l.Addr().(*net.TCPAddr).Port)] = to
		}
	}
	for from := range targets {
		for to := range targets {
			if l := p.links[from][to]; l != nil {
				p.wg.Go(func() { p.accept(l, from, to) })
			}
		}
	}
	return p, nil
}

// Addr is the address node from dials to reach node to.
func (p *Proxy) Addr(from, to int) string { return p.links[from][to].Addr().String() }

func (p *Proxy) linkPort(from, to int) uint16 {
	return uint16(p.links[from][to].Addr().(*net.TCPAddr).Port)
}

// SetFaults sets the faults of every frame from now on.
func (p *Proxy) SetFaults(f Faults) {
	p.mu.Lock()
	p.faults = f
	p.mu.Unlock()
}

// Partition splits the nodes into groups (every node in exactly one);
// frames and connections between groups are lost as mode says.
func (p *Proxy) Partition(groups [][]int, mode PartitionMode) {
	g := make([]int, len(p.targets))
	for i, grp := range groups {
		for _, n := range grp {
			g[n] = i
		}
	}
	p.mu.Lock()
	p.group, p.mode = g, mode
	var cut []*proxyConn
	if mode == Cut {
		for c := range p.conns {
			if g[c.from] != g[c.to] {
				cut = append(cut, c)
			}
		}
	}
	p.mu.Unlock()
	for _, c := range cut {
		p.Stats.CutConns.Add(1)
		c.close()
	}
}

// Heal ends the partition.
func (p *Proxy) Heal() {
	p.mu.Lock()
	p.group = nil
	p.mu.Unlock()
}

// separated reports whether a and b are on different sides of the
// partition, and its mode.
func (p *Proxy) separated(a, b int) (bool, PartitionMode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.group != nil && p.group[a] != p.group[b], p.mode
}

// Close closes the listeners and every connection and waits for the
// proxy's goroutines.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	conns := make([]*proxyConn, 0, len(p.conns))
	for c := range p.conns {
		conns = append(conns, c)
	}
	p.mu.Unlock()
	for _, row := range p.links {
		for _, l := range row {
			if l != nil {
				l.Close()
			}
		}
	}
	for _, c := range conns {
		c.close()
	}
	p.wg.Wait()
}

func (p *Proxy) accept(l net.Listener, from, to int) {
	for {
		in, err := l.Accept()
		if err != nil {
			return
		}
		if sep, mode := p.separated(from, to); sep && mode == Cut {
			p.Stats.Refused.Add(1)
			in.Close()
			continue
		}
		out, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(p.targets[to]), 3*time.Second)
		if err != nil {
			in.Close() // the node is down: the dialer sees a closed connection
			continue
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			in.Close()
			out.Close()
			return
		}
		k := p.nconn[[2]int{from, to}]
		p.nconn[[2]int{from, to}]++
		c := &proxyConn{p: p, from: from, to: to, in: in, out: out}
		p.conns[c] = struct{}{}
		p.mu.Unlock()
		p.Stats.Conns.Add(1)
		stream := fmt.Sprintf("%d>%d#%d", from, to, k)
		p.wg.Go(func() { c.pipe(in, out, from, to, NewDecider(p.seed, stream+"/up")) })
		p.wg.Go(func() { c.pipe(out, in, to, from, NewDecider(p.seed, stream+"/down")) })
	}
}

// portFor maps a port announced to node dst to the port dst must dial:
// its link to the announced node (or the node's own port, for dst
// itself).
func (p *Proxy) portFor(dst int) func(uint16) (uint16, bool) {
	return func(port uint16) (uint16, bool) {
		k, ok := p.owner[port]
		if !ok {
			return 0, false
		}
		if k == dst {
			return uint16(p.targets[dst]), true
		}
		return p.linkPort(dst, k), true
	}
}

// proxyConn is one proxied connection: in was accepted from node from,
// out dialed to node to.
type proxyConn struct {
	p        *Proxy
	from, to int
	in, out  net.Conn
	once     sync.Once
}

func (c *proxyConn) close() {
	c.once.Do(func() {
		c.in.Close()
		c.out.Close()
		c.p.mu.Lock()
		delete(c.p.conns, c)
		c.p.mu.Unlock()
	})
}

// queued is a frame waiting for its send time.
type queued struct {
	due time.Time
	seq uint64
	raw []byte
}

// pipe forwards frames from src (node s) to dst (node d): a reader that
// decides each frame's fate and a writer that sends frames when due.
func (c *proxyConn) pipe(src, dst net.Conn, s, d int, dec *Decider) {
	defer c.close()
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		q       []queued // sorted by (due, seq)
		seq     uint64
		lastDue time.Time // of frames that keep their order
		done    bool
	)
	push := func(e queued) {
		i, _ := slices.BinarySearchFunc(q, e, func(a, b queued) int {
			if c := a.due.Compare(b.due); c != 0 {
				return c
			}
			return cmp.Compare(a.seq, b.seq)
		})
		q = slices.Insert(q, i, e)
	}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		defer c.close()
		timer := time.NewTimer(time.Hour)
		defer timer.Stop()
		for {
			mu.Lock()
			for len(q) == 0 && !done {
				cond.Wait()
			}
			if len(q) == 0 {
				mu.Unlock()
				return
			}
			e := q[0]
			wait := time.Until(e.due)
			if wait <= 0 {
				q = q[1:]
				cond.Broadcast()
			}
			mu.Unlock()
			if wait > 0 {
				// Sleep until the head is due or a new frame arrives
				// (it may be due earlier).
				timer.Reset(min(wait, 5*time.Millisecond))
				<-timer.C
				continue
			}
			if _, err := dst.Write(e.raw); err != nil {
				mu.Lock()
				done = true
				q = nil
				cond.Broadcast()
				mu.Unlock()
				return
			}
		}
	}()
	fr := NewFrameReader(src)
	rewrite := c.p.portFor(d)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) && !errors.Is(err, io.EOF) {
				c.p.log("proxy %d>%d: %v", s, d, err)
			}
			break
		}
		c.p.Stats.Frames.Add(1)
		c.p.Stats.Bytes.Add(int64(len(f.Raw)))
		if g, ok := rewritePorts(f, rewrite); ok {
			c.p.Stats.Rewritten.Add(1)
			f = g
		}
		c.p.mu.Lock()
		faults := c.p.faults
		c.p.mu.Unlock()
		decision := dec.Decide(faults, f.Command)
		if sep, _ := c.p.separated(s, d); sep {
			c.p.Stats.Partitioned.Add(1)
			continue
		}
		if decision.Drop {
			c.p.Stats.Dropped.Add(1)
			continue
		}
		now := time.Now()
		due := now.Add(decision.Delay)
		mu.Lock()
		for len(q) >= maxQueued && !done {
			cond.Wait()
		}
		if done {
			mu.Unlock()
			break
		}
		if decision.Reorder {
			c.p.Stats.Reordered.Add(1)
		} else {
			if due.Before(lastDue) {
				due = lastDue
			}
			lastDue = due
		}
		seq++
		push(queued{due: due, seq: seq, raw: f.Raw})
		if decision.Dup {
			c.p.Stats.Duplicated.Add(1)
			seq++
			push(queued{due: due.Add(decision.DupLag), seq: seq, raw: f.Raw})
		}
		cond.Broadcast()
		mu.Unlock()
	}
	mu.Lock()
	done = true
	cond.Broadcast()
	mu.Unlock()
	<-writerDone
}

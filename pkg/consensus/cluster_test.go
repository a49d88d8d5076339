package consensus

import (
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// The cluster runs several Services in one goroutine, raft-style: it
// calls their event handlers directly, delivers their payloads in order
// over an in-memory network that can drop, moves a fake clock from one
// deadline to the next when nothing else is to be done, and relays
// persisted blocks between the nodes' fake chains.

type node struct {
	i     int
	s     *Service
	key   *keys.PrivateKey
	chain *fakeChain
	pool  *fakePool
	up    bool
}

type delivery struct {
	from int
	e    *message.Extensible
}

type cluster struct {
	t     *testing.T
	cfg   config.Blockchain
	clock *fakeClock
	keys  []*keys.PrivateKey
	nodes []*node
	net   []delivery
	txs   []struct {
		to int
		tx *transaction.Transaction
	}
	blocks []struct {
		to int
		h  *block.Header
	}
	// drop, if set, decides whether a payload from one node reaches another.
	drop func(from, to int, m *message.Message) bool
	// sent counts broadcast payloads by type.
	sent map[message.Type]int
}

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("N3NODE_CONSENSUS_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func newCluster(t *testing.T, n int, cfg config.Blockchain) *cluster {
	c := &cluster{t: t, cfg: cfg, clock: newFakeClock(), keys: testKeys(t, n), sent: map[message.Type]int{}}
	for i := range n {
		pool := &fakePool{}
		nd := &node{i: i, key: c.keys[i], pool: pool, up: true}
		nd.chain = newFakeChain(t, cfg, pubsOf(c.keys), pool)
		nd.chain.onAdd = func(b *block.Block) { c.onBlock(nd, b) }
		c.nodes = append(c.nodes, nd)
		c.newService(nd)
	}
	return c
}

// netStub is a node's Broadcaster.
type netStub struct {
	c *cluster
	n *node
}

func (b netStub) BroadcastExtensible(e *message.Extensible) {
	if b.n.up {
		m, err := message.Decode(e.Data)
		if err != nil {
			b.c.t.Fatalf("node %d sent a bad payload: %v", b.n.i, err)
		}
		b.c.sent[m.Type()]++
		b.c.net = append(b.c.net, delivery{from: b.n.i, e: e})
	}
}

// RequestTx is answered by any node that has the transactions, as peers
// would: they enter the requester's pool, then reach OnTransaction.
func (b netStub) RequestTx(hs ...hash.Uint256) {
	for _, h := range hs {
		for _, o := range b.c.nodes {
			if tx, ok := o.pool.TryGetValue(h); ok && o.up && o != b.n {
				b.c.txs = append(b.c.txs, struct {
					to int
					tx *transaction.Transaction
				}{b.n.i, tx})
				break
			}
		}
	}
}

func (netStub) StopTxFlow() {}

func (c *cluster) newService(nd *node) {
	s, err := New(Config{
		Ledger:      nd.chain,
		Mempool:     nd.pool,
		Broadcaster: netStub{c, nd},
		Keys:        []*keys.PrivateKey{nd.key},
		Clock:       c.clock,
		Logger:      testLogger(c.t).With("node", nd.i),
	})
	if err != nil {
		c.t.Fatal(err)
	}
	nd.s = s
}

// onBlock queues the block event for its node and relays the block to the
// other running nodes, as block sync would.
func (c *cluster) onBlock(from *node, b *block.Block) {
	if from.up {
		c.blocks = append(c.blocks, struct {
			to int
			h  *block.Header
		}{from.i, &b.Header})
	}
	for _, o := range c.nodes {
		if o != from && o.up && o.chain.BlockHeight()+1 == b.Index {
			if err := o.chain.AddBlock(b); err != nil {
				c.t.Fatalf("node %d refuses block %d of node %d: %v", o.i, b.Index, from.i, err)
			}
		}
	}
}

// start starts every running node (in index order).
func (c *cluster) start() {
	for _, nd := range c.nodes {
		if nd.up {
			nd.s.begin()
		}
	}
}

// stop takes a node off the network: it neither sends nor receives.
func (c *cluster) stop(i int) { c.nodes[i].up = false }

// restart brings a stopped node back with a fresh Service (its consensus
// state is lost) after syncing its chain from node from.
func (c *cluster) restart(i, from int) {
	nd := c.nodes[i]
	for _, b := range c.nodes[from].chain.Blocks()[nd.chain.BlockHeight()+1:] {
		if err := nd.chain.AddBlock(b); err != nil {
			c.t.Fatal(err)
		}
	}
	nd.up = true
	c.newService(nd)
	nd.s.begin()
}

// step handles one pending event and reports whether there was one.
func (c *cluster) step() bool {
	if len(c.blocks) > 0 {
		ev := c.blocks[0]
		c.blocks = c.blocks[1:]
		if nd := c.nodes[ev.to]; nd.up {
			nd.s.handleBlock(ev.h)
		}
		return true
	}
	if len(c.txs) > 0 {
		ev := c.txs[0]
		c.txs = c.txs[1:]
		if nd := c.nodes[ev.to]; nd.up {
			nd.pool.Add(ev.tx)
			nd.s.onTransaction(ev.tx)
		}
		return true
	}
	if len(c.net) > 0 {
		d := c.net[0]
		c.net = c.net[1:]
		for _, nd := range c.nodes {
			if nd.i == d.from || !nd.up {
				continue
			}
			e := *d.e // each receiver decodes its own copy
			if c.drop != nil {
				if m, err := message.Decode(e.Data); err == nil && c.drop(d.from, nd.i, m) {
					continue
				}
			}
			if err := c.receive(nd, &e); err != nil && err != ErrOutdated {
				c.t.Fatalf("node %d refuses a payload of node %d: %v", nd.i, d.from, err)
			}
		}
		return true
	}
	for _, nd := range c.nodes {
		if !nd.up {
			continue
		}
		select {
		case <-nd.s.timer.C():
			nd.s.handleTimer()
			return true
		case <-nd.s.retryC():
			nd.s.retryUnadded()
			return true
		case <-nd.s.poolEvents:
			nd.s.poolEvents = nil
			nd.s.dbft.OnNewTransaction()
			return true
		default:
		}
	}
	return false
}

// receive is OnPayload without the queue.
func (c *cluster) receive(nd *node, e *message.Extensible) error {
	p, err := nd.s.validate(e)
	if err != nil {
		return err
	}
	nd.s.handlePayload(p)
	return nil
}

// runUntil runs the cluster until cond holds, failing if that takes more
// than limit of fake time.
func (c *cluster) runUntil(limit time.Duration, cond func() bool) {
	c.t.Helper()
	end := c.clock.Now().Add(limit)
	for !cond() {
		if c.step() {
			continue
		}
		next, ok := c.clock.Next()
		if !ok {
			c.t.Fatal("cluster is stuck: no events, no timers")
		}
		if next.After(end) {
			c.t.Fatalf("condition not met within %s", limit)
		}
		c.clock.AdvanceTo(next)
	}
}

// height returns the lowest chain height of the running nodes.
func (c *cluster) height() uint32 {
	h := ^uint32(0)
	for _, nd := range c.nodes {
		if nd.up {
			h = min(h, nd.chain.BlockHeight())
		}
	}
	return h
}

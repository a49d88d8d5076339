package stateroot_test

// The StateService cluster of pkg/services/stateroot's own tests (its
// helpers_test.go and fourValidators in service_test.go), copied because
// this module cannot import test files: keep the two in step.

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/services/stateroot"
	"github.com/stretchr/testify/require"
)

// svKey returns the i-th test state validator key.
func svKey(t testing.TB, i int) *keys.PrivateKey {
	b := make([]byte, 32)
	b[0], b[31] = 7, byte(i+1)
	k, err := keys.NewPrivateKeyFromBytes(b)
	require.NoError(t, err)
	return k
}

// svKeys returns n keys sorted as RoleManagement stores them.
func svKeys(t testing.TB, n int) []*keys.PrivateKey {
	ks := make([]*keys.PrivateKey, n)
	for i := range ks {
		ks[i] = svKey(t, i)
	}
	pubs := make([]*keys.PublicKey, n)
	for i := range ks {
		pubs[i] = ks[i].PublicKey()
	}
	keys.SortPublicKeys(pubs)
	sorted := make([]*keys.PrivateKey, n)
	for i, p := range pubs {
		for _, k := range ks {
			if k.PublicKey().Equal(p) {
				sorted[i] = k
			}
		}
	}
	return sorted
}

// svConfig designates keys as state validators at genesis.
func svConfig(ks []*keys.PrivateKey) string {
	var sb strings.Builder
	sb.WriteString("  Genesis:\n    Roles:\n      StateValidator:\n")
	for _, k := range ks {
		fmt.Fprintf(&sb, "        - %s\n", k.PublicKey().StringCompressed())
	}
	return sb.String()
}

// node is one chain with its service.
type node struct {
	id   int
	gen  *testchain.Chain
	led  *lyingLedger
	svc  *stateroot.Service
	down bool // sends and receives nothing

	mismatches []uint32
}

// lyingLedger reports a wrong local root for the heights in lie.
type lyingLedger struct {
	stateroot.Ledger
	mu  sync.Mutex
	lie map[uint32]bool
}

func (l *lyingLedger) GetStateRoot(h uint32) (*coreroot.Root, error) {
	r, err := l.Ledger.GetStateRoot(h)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil && l.lie[h] {
		r.RootHash = hash.Uint256{0xba, 0xd}
	}
	return r, err
}

func (l *lyingLedger) setLie(h uint32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lie[h] = true
}

// cluster is a set of nodes over a fake network delivering broadcasts in
// order, from one goroutine (deliver).
type cluster struct {
	t     *testing.T
	nodes []*node
	now   time.Time
	queue []msg
	sent  []*payload.Extensible
	// filter, if set, drops a message from node from to node to.
	filter func(from, to int, e *payload.Extensible) bool
}

type msg struct {
	from int
	e    *payload.Extensible
}

// newCluster makes one node per key set entry: keys[i] are the keys node i
// signs with (nil: an observer). All chains designate svs.
func newCluster(t *testing.T, svs []*keys.PrivateKey, nodeKeys [][]*keys.PrivateKey) *cluster {
	cfg := testchain.Config(t, testchain.Options{Protocol: svConfig(svs)})
	c := &cluster{t: t, now: time.Unix(1_700_000_000, 0)}
	for i, ks := range nodeKeys {
		n := &node{id: i, gen: testchain.Open(t, cfg, nil, core.Options{})}
		n.led = &lyingLedger{Ledger: stateroot.ChainLedger(n.gen.BC), lie: map[uint32]bool{}}
		var err error
		n.svc, err = stateroot.New(stateroot.Config{
			Magic:        testchain.Magic,
			TimePerBlock: time.Second,
			Keys:         ks,
			Logger:       slog.New(slog.DiscardHandler),
			Now:          func() time.Time { return c.now },
			OnMismatch:   func(index uint32, _, _ hash.Uint256) { n.mismatches = append(n.mismatches, index) },
		}, n.led, func(e *payload.Extensible) {
			c.queue = append(c.queue, msg{from: n.id, e: e})
		})
		require.NoError(t, err)
		c.nodes = append(c.nodes, n)
	}
	return c
}

// addBlock makes the next block, adds it to every chain and tells every
// service.
func (c *cluster) addBlock() uint32 {
	b := c.nodes[0].gen.NextBlock()
	for _, n := range c.nodes {
		require.NoError(c.t, n.gen.BC.AddBlock(b))
	}
	for _, n := range c.nodes {
		n.svc.OnBlock(b.Index)
	}
	return b.Index
}

// deliver hands every queued message to every other node that is up, as
// the network would after checking the payload (sender's witness).
func (c *cluster) deliver() {
	for len(c.queue) > 0 {
		m := c.queue[0]
		c.queue = c.queue[1:]
		if c.nodes[m.from].down {
			continue
		}
		c.sent = append(c.sent, m.e)
		c.checkPayload(m.e)
		for _, n := range c.nodes {
			if n.id == m.from || n.down || c.filter != nil && !c.filter(m.from, n.id, m.e) {
				continue
			}
			require.NoError(c.t, n.svc.OnPayload(m.e))
		}
	}
}

// checkPayload verifies a payload's witness as the network server does
// (against the sender, 0.06 GAS).
func (c *cluster) checkPayload(e *payload.Extensible) {
	require.Equal(c.t, stateroot.Category, e.Category)
	_, err := c.nodes[0].gen.BC.VerifyWitness(e.Sender, e, &e.Witness, 6000000)
	require.NoError(c.t, err)
}

// tick advances the clock by d and ticks every service.
func (c *cluster) tick(d time.Duration) {
	c.now = c.now.Add(d)
	for _, n := range c.nodes {
		if !n.down {
			n.svc.Tick(c.now)
		}
	}
}

func (c *cluster) chain(i int) *core.Blockchain { return c.nodes[i].gen.BC }

// fourValidators is a cluster of the 4 designated validators and one
// observer without keys.
func fourValidators(t *testing.T) (*cluster, []*keys.PrivateKey) {
	svs := svKeys(t, 4)
	c := newCluster(t, svs, [][]*keys.PrivateKey{{svs[0]}, {svs[1]}, {svs[2]}, {svs[3]}, nil})
	return c, svs
}

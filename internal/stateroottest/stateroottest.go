package stateroottest

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

// SVKey returns the i-th test state validator key.
func SVKey(t testing.TB, i int) *keys.PrivateKey {
	b := make([]byte, 32)
	b[0], b[31] = 7, byte(i+1)
	k, err := keys.NewPrivateKeyFromBytes(b)
	require.NoError(t, err)
	return k
}

// SVKeys returns n keys sorted as RoleManagement stores them.
func SVKeys(t testing.TB, n int) []*keys.PrivateKey {
	ks := make([]*keys.PrivateKey, n)
	for i := range ks {
		ks[i] = SVKey(t, i)
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

// SVConfig designates keys as state validators at genesis.
func SVConfig(ks []*keys.PrivateKey) string {
	var sb strings.Builder
	sb.WriteString("  Genesis:\n    Roles:\n      StateValidator:\n")
	for _, k := range ks {
		fmt.Fprintf(&sb, "        - %s\n", k.PublicKey().StringCompressed())
	}
	return sb.String()
}

// node is one chain with its service.
type Node struct {
	ID   int
	Gen  *testchain.Chain
	Led  *LyingLedger
	Svc  *stateroot.Service
	Down bool // sends and receives nothing

	Mismatches []uint32
}

// LyingLedger reports a wrong local root for the heights in lie.
type LyingLedger struct {
	stateroot.Ledger
	mu  sync.Mutex
	Lie map[uint32]bool
}

func (l *LyingLedger) GetStateRoot(h uint32) (*coreroot.Root, error) {
	r, err := l.Ledger.GetStateRoot(h)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil && l.Lie[h] {
		r.RootHash = hash.Uint256{0xba, 0xd}
	}
	return r, err
}

func (l *LyingLedger) SetLie(h uint32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Lie[h] = true
}

// Cluster is a set of nodes over a fake network delivering broadcasts in
// order, from one goroutine (deliver).
type Cluster struct {
	T     *testing.T
	Nodes []*Node
	Now   time.Time
	Queue []Msg
	Sent  []*payload.Extensible
	// filter, if set, drops a message from node from to node to.
	Filter func(from, to int, e *payload.Extensible) bool
}

type Msg struct {
	From int
	E    *payload.Extensible
}

// NewCluster makes one node per key set entry: keys[i] are the keys node i
// signs with (nil: an observer). All chains designate svs.
func NewCluster(t *testing.T, svs []*keys.PrivateKey, nodeKeys [][]*keys.PrivateKey) *Cluster {
	cfg := testchain.Config(t, testchain.Options{Protocol: SVConfig(svs)})
	c := &Cluster{T: t, Now: time.Unix(1_700_000_000, 0)}
	for i, ks := range nodeKeys {
		n := &Node{ID: i, Gen: testchain.Open(t, cfg, nil, core.Options{})}
		n.Led = &LyingLedger{Ledger: stateroot.ChainLedger(n.Gen.BC), Lie: map[uint32]bool{}}
		var err error
		n.Svc, err = stateroot.New(stateroot.Config{
			Magic:        testchain.Magic,
			TimePerBlock: time.Second,
			Keys:         ks,
			Logger:       slog.New(slog.DiscardHandler),
			Now:          func() time.Time { return c.Now },
			OnMismatch:   func(index uint32, _, _ hash.Uint256) { n.Mismatches = append(n.Mismatches, index) },
		}, n.Led, func(e *payload.Extensible) {
			c.Queue = append(c.Queue, Msg{From: n.ID, E: e})
		})
		require.NoError(t, err)
		c.Nodes = append(c.Nodes, n)
	}
	return c
}

// AddBlock makes the next block, adds it to every chain and tells every
// service.
func (c *Cluster) AddBlock() uint32 {
	b := c.Nodes[0].Gen.NextBlock()
	for _, n := range c.Nodes {
		require.NoError(c.T, n.Gen.BC.AddBlock(b))
	}
	for _, n := range c.Nodes {
		n.Svc.OnBlock(b.Index)
	}
	return b.Index
}

// Deliver hands every queued message to every other node that is up, as
// the network would after checking the payload (sender's witness).
func (c *Cluster) Deliver() {
	for len(c.Queue) > 0 {
		m := c.Queue[0]
		c.Queue = c.Queue[1:]
		if c.Nodes[m.From].Down {
			continue
		}
		c.Sent = append(c.Sent, m.E)
		c.CheckPayload(m.E)
		for _, n := range c.Nodes {
			if n.ID == m.From || n.Down || c.Filter != nil && !c.Filter(m.From, n.ID, m.E) {
				continue
			}
			require.NoError(c.T, n.Svc.OnPayload(m.E))
		}
	}
}

// CheckPayload verifies a payload's witness as the network server does
// (against the sender, 0.06 GAS).
func (c *Cluster) CheckPayload(e *payload.Extensible) {
	require.Equal(c.T, stateroot.Category, e.Category)
	_, err := c.Nodes[0].Gen.BC.VerifyWitness(e.Sender, e, &e.Witness, 6000000)
	require.NoError(c.T, err)
}

// Tick advances the clock by d and ticks every service.
func (c *Cluster) Tick(d time.Duration) {
	c.Now = c.Now.Add(d)
	for _, n := range c.Nodes {
		if !n.Down {
			n.Svc.Tick(c.Now)
		}
	}
}

func (c *Cluster) Chain(i int) *core.Blockchain { return c.Nodes[i].Gen.BC }

// FourValidators is a cluster of the 4 designated validators and one
// observer without keys.
func FourValidators(t *testing.T) (*Cluster, []*keys.PrivateKey) {
	svs := SVKeys(t, 4)
	c := NewCluster(t, svs, [][]*keys.PrivateKey{{svs[0]}, {svs[1]}, {svs[2]}, {svs[3]}, nil})
	return c, svs
}

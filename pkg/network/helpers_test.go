package network

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/internal/fakechain"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testMagic = 0x4e334e33

// fakeLedger is an in-memory chain that checks linkage (PrevHash, header
// hashes) but no witnesses.
type fakeLedger struct {
	mu         sync.Mutex
	headers    []*block.Header // by index
	blocks     []*block.Block  // by index, len = height+1
	byHash     map[hash.Uint256]uint32
	chainTxs   map[hash.Uint256]bool
	pool       *fakeMempool
	poolCalls  map[hash.Uint256]int
	extRefuse  bool
	headerLog  []uint32 // HeaderHeight at each AddBlock
	addedOrder []uint32
	addHeaders int
}

func newFakeLedger(genesis *block.Block) *fakeLedger {
	l := &fakeLedger{
		byHash:    make(map[hash.Uint256]uint32),
		chainTxs:  make(map[hash.Uint256]bool),
		pool:      &fakeMempool{txs: make(map[hash.Uint256]*transaction.Transaction)},
		poolCalls: make(map[hash.Uint256]int),
	}
	l.headers = []*block.Header{&genesis.Header}
	l.blocks = []*block.Block{genesis}
	l.byHash[genesis.Hash()] = 0
	return l
}

// withBlocks returns a ledger holding the given chain (blocks[0] is the
// genesis).
func ledgerWith(blocks []*block.Block) *fakeLedger {
	l := newFakeLedger(blocks[0])
	for _, b := range blocks[1:] {
		if err := l.AddBlock(b); err != nil {
			panic(err)
		}
	}
	return l
}

func (l *fakeLedger) BlockHeight() uint32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return uint32(len(l.blocks) - 1)
}

func (l *fakeLedger) HeaderHeight() uint32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return uint32(len(l.headers) - 1)
}

func (l *fakeLedger) GetHeaderHash(i uint32) hash.Uint256 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if int(i) < len(l.headers) {
		return l.headers[i].Hash()
	}
	return hash.Uint256{}
}

func (l *fakeLedger) GetHeader(h hash.Uint256) (*block.Header, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i, ok := l.byHash[h]; ok {
		return l.headers[i], nil
	}
	return nil, errors.New("no such header")
}

func (l *fakeLedger) GetBlock(h hash.Uint256) (*block.Block, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i, ok := l.byHash[h]; ok && int(i) < len(l.blocks) {
		return l.blocks[i], nil
	}
	return nil, errors.New("no such block")
}

func (l *fakeLedger) HasBlock(h hash.Uint256) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	i, ok := l.byHash[h]
	return ok && int(i) < len(l.blocks)
}

func (l *fakeLedger) HasTransaction(h hash.Uint256) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.chainTxs[h]
}

func (l *fakeLedger) AddBlock(b *block.Block) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := uint32(len(l.blocks) - 1)
	if b.Index != h+1 {
		return fmt.Errorf("block %d: height is %d", b.Index, h)
	}
	if b.PrevHash != l.blocks[h].Hash() {
		return errors.New("block does not link")
	}
	if int(b.Index) < len(l.headers) && l.headers[b.Index].Hash() != b.Hash() {
		return errors.New("block does not match its header")
	}
	l.headerLog = append(l.headerLog, uint32(len(l.headers)-1))
	l.addedOrder = append(l.addedOrder, b.Index)
	l.blocks = append(l.blocks, b)
	if int(b.Index) == len(l.headers) {
		l.headers = append(l.headers, &b.Header)
	}
	l.byHash[b.Hash()] = b.Index
	for _, tx := range b.Transactions {
		l.chainTxs[tx.Hash()] = true
		l.pool.remove(tx.Hash())
	}
	return nil
}

func (l *fakeLedger) AddHeaders(hs ...*block.Header) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.addHeaders++
	for _, h := range hs {
		hh := uint32(len(l.headers) - 1)
		if h.Index <= hh {
			if l.headers[h.Index].Hash() != h.Hash() {
				return errors.New("conflicting header")
			}
			continue
		}
		if h.Index != hh+1 || h.PrevHash != l.headers[hh].Hash() {
			return fmt.Errorf("header %d does not continue %d", h.Index, hh)
		}
		l.headers = append(l.headers, h)
		l.byHash[h.Hash()] = h.Index
	}
	return nil
}

func (l *fakeLedger) PoolTx(tx *transaction.Transaction) error {
	l.mu.Lock()
	l.poolCalls[tx.Hash()]++
	inChain := l.chainTxs[tx.Hash()]
	l.mu.Unlock()
	if inChain {
		return errors.New("already in the chain")
	}
	return l.pool.add(tx)
}

func (l *fakeLedger) VerifyExtensible(e *payload.Extensible) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.extRefuse {
		return errors.New("sender not allowed")
	}
	return nil
}

func (l *fakeLedger) poolCount(h hash.Uint256) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.poolCalls[h]
}

type fakeMempool struct {
	mu  sync.Mutex
	txs map[hash.Uint256]*transaction.Transaction
}

func (m *fakeMempool) add(tx *transaction.Transaction) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.txs[tx.Hash()]; ok {
		return errors.New("already in the pool")
	}
	m.txs[tx.Hash()] = tx
	return nil
}

func (m *fakeMempool) remove(h hash.Uint256) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.txs, h)
}

func (m *fakeMempool) ContainsKey(h hash.Uint256) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.txs[h]
	return ok
}

func (m *fakeMempool) TryGetValue(h hash.Uint256) (*transaction.Transaction, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	tx, ok := m.txs[h]
	return tx, ok
}

func (m *fakeMempool) GetVerifiedTransactions() []*transaction.Transaction {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*transaction.Transaction, 0, len(m.txs))
	for _, tx := range m.txs {
		out = append(out, tx)
	}
	return out
}

var genesis = fakechain.Chain(1, 0)[0]

// testConfig returns a fast configuration listening on a loopback port.
func testConfig(seed uint64) ServerConfig {
	return ServerConfig{
		Magic:             testMagic,
		UserAgent:         "/n3node-test/",
		Addresses:         []config.AnnounceableAddress{{Address: "127.0.0.1:0"}},
		Relay:             true,
		Archival:          true,
		MinPeers:          0,
		MaxPeers:          10,
		AttemptConnPeers:  3,
		DialTimeout:       2 * time.Second,
		ProtoTickInterval: 20 * time.Millisecond,
		PingInterval:      time.Hour,
		PingTimeout:       time.Hour,
		RetryBackoff:      50 * time.Millisecond,
		TimePerBlock:      time.Second,
		SyncTimeout:       300 * time.Millisecond,
		Rand:              rand.New(rand.NewPCG(seed, seed^0x5eed)),
		Logger:            testLogger(),
	}
}

func testLogger() *slog.Logger {
	if os.Getenv("N3NODE_NET_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return nil
}

// node is a server under test with its ledger.
type node struct {
	*Server
	l *fakeLedger
}

func startNode(t *testing.T, cfg ServerConfig, l *fakeLedger) *node {
	t.Helper()
	s, err := NewServer(cfg, l, l.pool)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return &node{Server: s, l: l}
}

func (n *node) addr() string { return n.ListenAddrs()[0] }

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// connect makes a dial b and waits for both to see the handshake.
func connect(t *testing.T, a, b *node) {
	t.Helper()
	a.ConnectTo(b.addr())
	eventually(t, 5*time.Second, "handshake", func() bool { return a.hasPeer(b.ID()) && b.hasPeer(a.ID()) })
}

// hasPeer reports whether the node has a handshaked peer with id.
func (n *node) hasPeer(id uint32) bool {
	for _, p := range n.handshakedPeers(nil) {
		if v := p.Version(); v != nil && v.Nonce == id {
			return true
		}
	}
	return false
}

// rawPeer is a hand-driven connection to a server, for misbehaving.
type rawPeer struct {
	t    *testing.T
	conn net.Conn
	r    *message.Reader
	id   uint32
}

func dialRaw(t *testing.T, addr string) *rawPeer {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawPeer{t: t, conn: c, r: message.NewReader(c), id: rand.Uint32()}
}

func (r *rawPeer) send(cmd message.Command, p message.Payload) {
	r.t.Helper()
	b, err := message.Encode(cmd, p, false)
	if err != nil {
		r.t.Fatal(err)
	}
	r.write(b)
}

func (r *rawPeer) write(b []byte) {
	_ = r.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = r.conn.Write(b)
}

func (r *rawPeer) version(height uint32) *payload.Version {
	return &payload.Version{Magic: testMagic, Nonce: r.id, UserAgent: "/raw/",
		Capabilities: capability.Capabilities{capability.NewFullNode(height)}}
}

// read returns the next message of one of cmds, skipping others.
func (r *rawPeer) read(cmds ...message.Command) (*message.Message, error) {
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		m, err := r.r.ReadMessage()
		if err != nil {
			return nil, err
		}
		for _, c := range cmds {
			if m.Command == c {
				return m, nil
			}
		}
	}
}

// handshake completes a handshake claiming the given height.
func (r *rawPeer) handshake(height uint32) *payload.Version {
	r.t.Helper()
	r.send(message.CmdVersion, r.version(height))
	m, err := r.read(message.CmdVersion)
	if err != nil {
		r.t.Fatalf("no version: %v", err)
	}
	if _, err := r.read(message.CmdVerack); err != nil {
		r.t.Fatalf("no verack: %v", err)
	}
	r.send(message.CmdVerack, nil)
	return m.Payload.(*payload.Version)
}

// closed reports whether the server closed the connection (reading
// until EOF, skipping whatever it still sends).
func (r *rawPeer) closed() bool {
	_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	for {
		_, err := r.conn.Read(buf)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return false
			}
			return errors.Is(err, io.EOF) || !errors.As(err, &ne) || true
		}
	}
}

type hash256 = hash.Uint256

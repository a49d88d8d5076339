package network

import (
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/internal/fakechain"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

func TestHandshake(t *testing.T) {
	a := startNode(t, testConfig(1), newFakeLedger(genesis))
	b := startNode(t, testConfig(2), newFakeLedger(genesis))
	connect(t, b, a)
	eventually(t, 5*time.Second, "both sides handshaked", func() bool {
		return a.HandshakedPeersCount() == 1 && b.HandshakedPeersCount() == 1
	})
	pa := a.handshakedPeers(nil)[0]
	v := pa.Version()
	if v.Nonce != b.ID() || v.UserAgent != "/n3node-test/" || v.Magic != testMagic {
		t.Fatalf("version %+v", v)
	}
	if !v.Capabilities.Has(capability.ArchivalNode) || !pa.IsFullNode() || v.Capabilities.TCPPort() == 0 {
		t.Fatalf("capabilities %+v", v.Capabilities)
	}
	if !pa.Inbound() || pa.PeerAddr() != b.addr() {
		t.Fatalf("inbound peer address %q, want %q", pa.PeerAddr(), b.addr())
	}
	if ci := a.ConnectedPeers(); len(ci) != 1 || ci[0].UserAgent != "/n3node-test/" {
		t.Fatalf("ConnectedPeers %+v", ci)
	}
}

func TestHandshakeRefusals(t *testing.T) {
	a := startNode(t, testConfig(1), newFakeLedger(genesis))

	// Another network: dropped and banned.
	r := dialRaw(t, a.addr())
	v := r.version(0)
	v.Magic++
	r.send(message.CmdVersion, v)
	if !r.closed() {
		t.Fatal("peer on another network not dropped")
	}

	// A message before version.
	r = dialRaw(t, a.addr())
	r.send(message.CmdPing, &payload.Ping{})
	if !r.closed() {
		t.Fatal("ping before version not dropped")
	}

	// Verack before version.
	r = dialRaw(t, a.addr())
	r.send(message.CmdVerack, nil)
	if !r.closed() {
		t.Fatal("verack before version not dropped")
	}

	// Our own nonce: a connection to self.
	r = dialRaw(t, a.addr())
	v = r.version(0)
	v.Nonce = a.ID()
	r.send(message.CmdVersion, v)
	if !r.closed() {
		t.Fatal("self connection not dropped")
	}

	// Silence: the handshake times out.
	cfg := testConfig(3)
	cfg.HandshakeTimeout = 100 * time.Millisecond
	c := startNode(t, cfg, newFakeLedger(genesis))
	r = dialRaw(t, c.addr())
	if !r.closed() {
		t.Fatal("silent peer not dropped")
	}
	eventually(t, 5*time.Second, "peers gone", func() bool { return a.PeerCount() == 0 && c.PeerCount() == 0 })
}

func TestSelfConnection(t *testing.T) {
	a := startNode(t, testConfig(1), newFakeLedger(genesis))
	a.ConnectTo(a.addr())
	eventually(t, 5*time.Second, "self marked", func() bool {
		st, ok := a.disc.status(a.addr())
		return ok && st == addrSelf
	})
	eventually(t, 5*time.Second, "no peers", func() bool { return a.PeerCount() == 0 })
}

// TestDuplicateConnections: two nodes dialing each other at once keep
// exactly one connection.
func TestDuplicateConnections(t *testing.T) {
	a := startNode(t, testConfig(1), newFakeLedger(genesis))
	b := startNode(t, testConfig(2), newFakeLedger(genesis))
	a.ConnectTo(b.addr())
	b.ConnectTo(a.addr())
	eventually(t, 5*time.Second, "one connection each", func() bool {
		return a.PeerCount() == 1 && b.PeerCount() == 1 && a.HandshakedPeersCount() == 1 && b.HandshakedPeersCount() == 1
	})
	time.Sleep(100 * time.Millisecond)
	if a.PeerCount() != 1 || b.PeerCount() != 1 {
		t.Fatalf("peers %d %d", a.PeerCount(), b.PeerCount())
	}
}

func TestPingPong(t *testing.T) {
	cfg := testConfig(1)
	cfg.PingInterval = 30 * time.Millisecond
	cfg.PingTimeout = 300 * time.Millisecond
	a := startNode(t, cfg, newFakeLedger(genesis))
	b := startNode(t, testConfig(2), newFakeLedger(genesis))
	connect(t, b, a)

	// A raw peer that answers nothing is dropped after the ping timeout,
	// while b, which answers, stays.
	r := dialRaw(t, a.addr())
	r.handshake(0)
	m, err := r.read(message.CmdPing)
	if err != nil {
		t.Fatalf("no ping: %v", err)
	}
	if p := m.Payload.(*payload.Ping); p.Nonce != a.ID() {
		t.Fatalf("ping %+v", p)
	}
	if !r.closed() {
		t.Fatal("peer that does not pong not dropped")
	}
	time.Sleep(4 * cfg.PingTimeout)
	if a.HandshakedPeersCount() != 1 {
		t.Fatalf("answering peer dropped: %d peers", a.HandshakedPeersCount())
	}

	// A pong without a ping is a violation.
	r = dialRaw(t, b.addr())
	r.handshake(0)
	r.send(message.CmdPong, &payload.Ping{})
	if !r.closed() {
		t.Fatal("unsolicited pong not dropped")
	}

	// Pings are answered with our height and the ping's nonce.
	r = dialRaw(t, b.addr())
	r.handshake(0)
	r.send(message.CmdPing, &payload.Ping{LastBlockIndex: 0, Nonce: 77})
	m, err = r.read(message.CmdPong)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Payload.(*payload.Ping); p.Nonce != 77 || p.LastBlockIndex != 0 {
		t.Fatalf("pong %+v", p)
	}
}

// TestAddrExchange: a learns c's address from b and connects to it.
func TestAddrExchange(t *testing.T) {
	b := startNode(t, testConfig(2), newFakeLedger(genesis))
	c := startNode(t, testConfig(3), newFakeLedger(genesis))
	connect(t, c, b)
	cfg := testConfig(1)
	cfg.MinPeers = 2
	cfg.Seeds = []string{b.addr()}
	a := startNode(t, cfg, newFakeLedger(genesis))
	eventually(t, 10*time.Second, "a connected to b and c", func() bool { return a.HandshakedPeersCount() == 2 })
	addrs := map[string]bool{}
	for _, p := range a.handshakedPeers(nil) {
		addrs[p.PeerAddr()] = true
	}
	if !addrs[b.addr()] || !addrs[c.addr()] {
		t.Fatalf("a's peers: %v", addrs)
	}

	// An addr nobody asked for drops the sender.
	r := dialRaw(t, b.addr())
	r.handshake(0)
	l := &payload.AddressList{Addrs: []payload.AddressAndTime{{Capabilities: capability.Capabilities{capability.NewTCPServer(1)}}}}
	r.send(message.CmdAddr, l) // may answer the getaddr b sends new peers
	r.send(message.CmdAddr, l)
	if !r.closed() {
		t.Fatal("unsolicited addr not dropped")
	}
}

// TestRelayTxLine: a transaction given to one end of a line of four nodes
// reaches every node, and each verifies it exactly once.
func TestRelayTxLine(t *testing.T) {
	nodes := make([]*node, 4)
	for i := range nodes {
		nodes[i] = startNode(t, testConfig(uint64(i+1)), newFakeLedger(genesis))
	}
	for i := 1; i < len(nodes); i++ {
		connect(t, nodes[i], nodes[i-1])
	}
	tx := fakechain.Tx(42)
	if err := nodes[0].RelayTx(tx); err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes {
		eventually(t, 10*time.Second, "tx everywhere", func() bool { return n.l.pool.ContainsKey(tx.Hash()) })
		_ = i
	}
	time.Sleep(200 * time.Millisecond)
	for i, n := range nodes {
		if c := n.l.poolCount(tx.Hash()); c != 1 {
			t.Errorf("node %d verified the tx %d times", i, c)
		}
	}
}

// TestRelayTxMesh: five fully connected nodes; many transactions from
// different origins; each node verifies each transaction once.
func TestRelayTxMesh(t *testing.T) {
	nodes := make([]*node, 5)
	for i := range nodes {
		cfg := testConfig(uint64(i + 10))
		cfg.BroadcastFactor = 100
		nodes[i] = startNode(t, cfg, newFakeLedger(genesis))
	}
	for i := range nodes {
		for j := range i {
			connect(t, nodes[i], nodes[j])
		}
	}
	var txs []*transaction.Transaction
	for k := range 50 {
		tx := fakechain.Tx(uint32(1000 + k))
		txs = append(txs, tx)
		if err := nodes[k%len(nodes)].RelayTx(tx); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range nodes {
		eventually(t, 10*time.Second, "all txs everywhere", func() bool {
			for _, tx := range txs {
				if !n.l.pool.ContainsKey(tx.Hash()) {
					return false
				}
			}
			return true
		})
	}
	time.Sleep(200 * time.Millisecond)
	for i, n := range nodes {
		for _, tx := range txs {
			if c := n.l.poolCount(tx.Hash()); c != 1 {
				t.Fatalf("node %d verified tx %s %d times", i, tx.Hash().StringLE(), c)
			}
		}
	}
}

// TestTxInflightDedup: the same transaction sent by several peers at once
// is verified once, and one already in the pool is not requested.
func TestTxInflightDedup(t *testing.T) {
	a := startNode(t, testConfig(1), newFakeLedger(genesis))
	tx := fakechain.Tx(5)
	var raws []*rawPeer
	for range 4 {
		r := dialRaw(t, a.addr())
		r.handshake(0)
		raws = append(raws, r)
	}
	for _, r := range raws {
		r.send(message.CmdTransaction, tx)
	}
	eventually(t, 5*time.Second, "tx pooled", func() bool { return a.l.pool.ContainsKey(tx.Hash()) })
	time.Sleep(100 * time.Millisecond)
	if c := a.l.poolCount(tx.Hash()); c != 1 {
		t.Fatalf("verified %d times", c)
	}
	// An inv of a pooled tx is not answered with getdata; an inv of a new
	// one is, once, to the first announcer only.
	tx2 := fakechain.Tx(6)
	inv := &payload.Inventory{Type: payload.TXType, Hashes: []hash256{tx.Hash(), tx2.Hash()}}
	raws[0].send(message.CmdInv, inv)
	m, err := raws[0].read(message.CmdGetData)
	if err != nil {
		t.Fatal(err)
	}
	if inv := m.Payload.(*payload.Inventory); len(inv.Hashes) != 1 || inv.Hashes[0] != tx2.Hash() {
		t.Fatalf("getdata %+v", inv)
	}
	raws[1].send(message.CmdInv, inv)
	_ = raws[1].conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	for {
		m, err := raws[1].r.ReadMessage()
		if err != nil {
			break
		}
		if m.Command == message.CmdGetData {
			t.Fatal("second announcer asked too")
		}
	}
}

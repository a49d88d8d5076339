package network

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/internal/fakechain"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// TestMisbehavingPeersDropped: each kind of bad input drops the raw peer
// that sent it, while a good peer stays connected and keeps working.
func TestMisbehavingPeersDropped(t *testing.T) {
	a := startNode(t, testConfig(1), newFakeLedger(genesis))
	good := startNode(t, testConfig(2), newFakeLedger(genesis))
	connect(t, good, a)

	ping, _ := message.Encode(message.CmdPing, &payload.Ping{}, false)
	cases := []struct {
		name string
		send func(r *rawPeer)
	}{
		{"garbage", func(r *rawPeer) { r.write(bytes.Repeat([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), 20)) }},
		{"oversized", func(r *rawPeer) { r.write([]byte{0, byte(message.CmdBlock), 0xfe, 0x01, 0x00, 0x00, 0x02}) }},
		{"unknown command", func(r *rawPeer) { r.write([]byte{0, 0x77, 1, 0}) }},
		{"bad payload", func(r *rawPeer) { r.write([]byte{0, byte(message.CmdPing), 3, 1, 2, 3}) }},
		{"trailing bytes", func(r *rawPeer) {
			r.write(append(append([]byte{}, ping[:2]...), append([]byte{13}, append(ping[3:], 9)...)...))
		}},
		{"bad compression", func(r *rawPeer) { r.write([]byte{1, byte(message.CmdPing), 5, 0xff, 0xff, 0xff, 0x00, 0x11}) }},
		{"version again", func(r *rawPeer) { r.send(message.CmdVersion, r.version(0)) }},
		{"unsolicited pong", func(r *rawPeer) { r.send(message.CmdPong, &payload.Ping{}) }},
		{"unsolicited addr", func(r *rawPeer) {
			// The server may have asked a new peer for addresses: the
			// first addr can be an answer, the second cannot.
			l := &payload.AddressList{Addrs: []payload.AddressAndTime{{Capabilities: capability.Capabilities{capability.NewTCPServer(1)}}}}
			r.send(message.CmdAddr, l)
			r.send(message.CmdAddr, l)
		}},
		{"notary inv without extensions", func(r *rawPeer) {
			r.send(message.CmdInv, &payload.Inventory{Type: payload.P2PNotaryRequestType, Hashes: []hash.Uint256{{1}}})
		}},
		{"state exchange", func(r *rawPeer) { r.send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: []hash.Uint256{{1}}}) }},
	}
	for _, c := range cases {
		r := dialRaw(t, a.addr())
		r.handshake(0)
		c.send(r)
		if !r.closed() {
			t.Errorf("%s: peer not dropped", c.name)
		}
	}
	// An empty addr list (neo-go sends one when it knows no peer) is
	// skipped, not punished.
	r := dialRaw(t, a.addr())
	r.handshake(0)
	r.write([]byte{0, byte(message.CmdAddr), 1, 0})
	r.send(message.CmdPing, &payload.Ping{Nonce: 5})
	if m, err := r.read(message.CmdPong); err != nil || m.Payload.(*payload.Ping).Nonce != 5 {
		t.Fatalf("after an empty addr: %v", err)
	}
	r.conn.Close()
	eventually(t, 5*time.Second, "only the good peer left", func() bool { return a.PeerCount() == 1 })
	if a.HandshakedPeersCount() != 1 {
		t.Fatal("good peer lost")
	}
	// The good peer still relays.
	tx := fakechain.Tx(77)
	if err := good.RelayTx(tx); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "tx relayed", func() bool { return a.l.pool.ContainsKey(tx.Hash()) })
}

// TestProtocolViolationBans: a peer that breaks the protocol is banned
// in the address book; one that just goes away is not.
func TestProtocolViolationBans(t *testing.T) {
	if k := dropKindOf(&message.DecodeError{Err: message.ErrTooLarge}, true); k != dropBan {
		t.Fatalf("decode error: %v", k)
	}
	if k := dropKindOf(ErrInvalidNetwork, false); k != dropBan {
		t.Fatalf("other network: %v", k)
	}
	if k := dropKindOf(errors.New("EOF"), false); k != dropBusy {
		t.Fatalf("EOF before handshake: %v", k)
	}
	if k := dropKindOf(errors.New("EOF"), true); k != dropNormal {
		t.Fatalf("EOF after handshake: %v", k)
	}
	if k := dropKindOf(ErrPingTimeout, true); k != dropNormal {
		t.Fatalf("ping timeout: %v", k)
	}
	if k := dropKindOf(ErrAlreadyConnected, true); k != dropDuplicate {
		t.Fatalf("duplicate: %v", k)
	}
	if k := dropKindOf(ErrIdenticalID, false); k != dropSelf {
		t.Fatalf("self: %v", k)
	}
	// Unrequested answers and messages the configuration refuses end the
	// connection but do not ban (neo-go redials such peers).
	for _, err := range []error{ErrUnexpectedPong, ErrUnexpectedAddr, ErrUnsupported} {
		if k := dropKindOf(fmt.Errorf("handling: %w", err), true); k != dropNormal {
			t.Fatalf("%v: %v", err, k)
		}
	}
	// A seed is never banned.
	d := newDiscovery([]string{"seed:1"}, 3, time.Second, time.Minute)
	d.disconnected("seed:1", dropBan, true, time.Now())
	if st, _ := d.status("seed:1"); st != addrPool {
		t.Fatalf("banned seed: %v", st)
	}

	// A server that answers garbage to our dial gets banned.
	a := startNode(t, testConfig(1), newFakeLedger(genesis))
	bad := startNode(t, testConfig(2), newFakeLedger(genesis))
	bad.cfg.Magic++ // bad's versions now carry another magic
	a.ConnectTo(bad.addr())
	eventually(t, 5*time.Second, "banned", func() bool {
		st, ok := a.disc.status(bad.addr())
		return ok && st == addrBanned
	})
	if b := a.BadPeers(); len(b) != 1 || b[0] != bad.addr() {
		t.Fatalf("bad peers %v", b)
	}
}

// TestExtensibleHook: a payload broadcast by one node reaches the handler
// registered for its category on the others, across a hop, once each.
func TestExtensibleHook(t *testing.T) {
	nodes := make([]*node, 3)
	got := make([]chan *payload.Extensible, 3)
	for i := range nodes {
		nodes[i] = startNode(t, testConfig(uint64(i+1)), newFakeLedger(genesis))
		ch := make(chan *payload.Extensible, 10)
		got[i] = ch
		nodes[i].AddExtensibleHandler(payload.ConsensusCategory, func(e *payload.Extensible) error {
			ch <- e
			return nil
		})
	}
	connect(t, nodes[1], nodes[0])
	connect(t, nodes[2], nodes[1])
	e := &payload.Extensible{Category: payload.ConsensusCategory, ValidBlockStart: 0, ValidBlockEnd: 5,
		Sender: hash.Uint160{7}, Data: []byte("prepare request"),
		Witness: transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}
	if err := nodes[0].BroadcastExtensible(e); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		select {
		case r := <-got[i]:
			if r.Hash() != e.Hash() {
				t.Fatalf("node %d got another payload", i)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("node %d: no payload", i)
		}
	}
	time.Sleep(100 * time.Millisecond)
	for i := range 3 {
		if len(got[i]) != 0 {
			t.Fatalf("node %d handled the payload again", i)
		}
	}
	// A payload the ledger refuses is not handled and drops its sender.
	nodes[2].l.mu.Lock()
	nodes[2].l.extRefuse = true
	nodes[2].l.mu.Unlock()
	r := dialRaw(t, nodes[2].addr())
	r.handshake(0)
	e2 := *e
	e2.Data = []byte("forged")
	r.send(message.CmdExtensible, &e2)
	if !r.closed() {
		t.Fatal("sender of an invalid payload not dropped")
	}
	if len(got[2]) != 0 {
		t.Fatal("invalid payload handled")
	}
}

// TestRequestTx: consensus asks for transactions; the hook sees them.
func TestRequestTx(t *testing.T) {
	a := startNode(t, testConfig(1), newFakeLedger(genesis))
	b := startNode(t, testConfig(2), newFakeLedger(genesis))
	connect(t, b, a)
	tx := fakechain.Tx(3)
	if err := a.l.pool.add(tx); err != nil {
		t.Fatal(err)
	}
	hooked := make(chan *transaction.Transaction, 1)
	b.SetTxHook(func(tx *transaction.Transaction) { hooked <- tx })
	b.RequestTx(tx.Hash())
	select {
	case got := <-hooked:
		if got.Hash() != tx.Hash() {
			t.Fatal("wrong tx")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("tx hook not called")
	}
	eventually(t, 5*time.Second, "pooled", func() bool { return b.l.pool.ContainsKey(tx.Hash()) })
}

// TestConsensusResend: a pooled consensus payload is announced again
// while no newer one arrives.
func TestConsensusResend(t *testing.T) {
	cfg := testConfig(1)
	cfg.TimePerBlock = 100 * time.Millisecond // resend after 50 ms, then 100, 200...
	a := startNode(t, cfg, newFakeLedger(genesis))
	r := dialRaw(t, a.addr())
	r.handshake(0)
	eventually(t, 5*time.Second, "handshake", func() bool { return a.HandshakedPeersCount() == 1 })
	e := &payload.Extensible{Category: payload.ConsensusCategory, ValidBlockEnd: 5, Sender: hash.Uint160{1},
		Witness: transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}
	if err := a.BroadcastExtensible(e); err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // the first announcement and two resends
		m, err := r.read(message.CmdInv)
		if err != nil {
			t.Fatalf("announcement %d: %v", i, err)
		}
		if inv := m.Payload.(*payload.Inventory); inv.Type != payload.ExtensibleType || inv.Hashes[0] != e.Hash() {
			t.Fatalf("inv %+v", inv)
		}
	}
}

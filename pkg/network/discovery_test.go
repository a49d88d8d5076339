package network

import (
	"slices"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

func noShuffle([]string) {}

func TestDiscoveryBackoffAndGone(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	d := newDiscovery([]string{"seed:1"}, 3, time.Second, 10*time.Second)
	d.backfill("a:1", "b:1")
	got := d.candidates(10, t0, noShuffle)
	if !slices.Equal(got, []string{"a:1", "b:1", "seed:1"}) {
		t.Fatalf("candidates %v", got)
	}
	if d.connecting() != 3 || len(d.candidates(10, t0, noShuffle)) != 0 {
		t.Fatal("addresses under dial offered again")
	}
	// a fails three times: 1s, then 2s wait, then gone.
	d.dialFailed("a:1", t0)
	if c := d.candidates(10, t0.Add(999*time.Millisecond), noShuffle); len(c) != 0 {
		t.Fatalf("retried before the backoff: %v", c)
	}
	if c := d.candidates(10, t0.Add(time.Second), noShuffle); !slices.Equal(c, []string{"a:1"}) {
		t.Fatalf("not retried after the backoff: %v", c)
	}
	d.dialFailed("a:1", t0.Add(time.Second))
	if c := d.candidates(10, t0.Add(2999*time.Millisecond), noShuffle); len(c) != 0 {
		t.Fatalf("second backoff not doubled: %v", c)
	}
	if c := d.candidates(10, t0.Add(3*time.Second), noShuffle); len(c) != 1 {
		t.Fatalf("after the second backoff: %v", c)
	}
	d.dialFailed("a:1", t0.Add(3*time.Second))
	if st, _ := d.status("a:1"); st != addrGone {
		t.Fatalf("a after 3 failures: %v", st)
	}
	if c := d.candidates(10, t0.Add(time.Hour), noShuffle); len(c) != 0 {
		t.Fatalf("gone address offered: %v", c)
	}
	// Re-learning a gone address does not revive it.
	d.backfill("a:1")
	if st, _ := d.status("a:1"); st != addrGone {
		t.Fatal("gone address revived")
	}
	// Seeds are never gone; their backoff is capped.
	for i := range 10 {
		d.dialFailed("seed:1", t0)
		if st, _ := d.status("seed:1"); st != addrPool {
			t.Fatalf("seed after %d failures: %v", i+1, st)
		}
		d.mu.Lock()
		d.addrs["seed:1"].status = addrConnecting
		d.connectingN++
		d.mu.Unlock()
	}
	if w := d.wait(10); w != 10*time.Second {
		t.Fatalf("backoff cap: %v", w)
	}
	_, bad := d.lists()
	if !slices.Equal(bad, []string{"a:1"}) {
		t.Fatalf("bad %v", bad)
	}
}

func TestDiscoveryDisconnects(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	d := newDiscovery(nil, 3, time.Second, time.Minute)
	d.backfill("busy:1", "good:1", "evil:1", "self:1", "dup:1")
	d.candidates(10, t0, noShuffle)
	for _, a := range []string{"busy:1", "good:1", "evil:1", "self:1", "dup:1"} {
		d.dialed(a)
	}
	caps := capability.Capabilities{capability.NewTCPServer(1)}
	d.handshaked("good:1", caps, t0)
	d.handshaked("dup:1", caps, t0)

	// Busy: closed before the handshake, many times: retried with growing
	// backoff, never gone.
	for i := range 5 {
		d.disconnected("busy:1", dropBusy, false, t0)
		if st, _ := d.status("busy:1"); st != addrPool {
			t.Fatalf("busy after %d: %v", i, st)
		}
	}
	if c := d.candidates(10, t0.Add(15*time.Second), noShuffle); len(c) != 0 {
		t.Fatalf("busy retried too soon: %v", c)
	}
	if c := d.candidates(10, t0.Add(16*time.Second), noShuffle); !slices.Equal(c, []string{"busy:1"}) {
		t.Fatalf("busy not retried: %v", c)
	}

	d.disconnected("good:1", dropNormal, true, t0)
	d.disconnected("evil:1", dropBan, true, t0)
	d.disconnected("self:1", dropSelf, false, t0)
	d.disconnected("dup:1", dropDuplicate, true, t0)
	for a, want := range map[string]addrStatus{"good:1": addrPool, "evil:1": addrBanned, "self:1": addrSelf, "dup:1": addrConnected} {
		if st, _ := d.status(a); st != want {
			t.Errorf("%s: %v, want %v", a, st, want)
		}
	}
	// Verdicts stick.
	d.disconnected("evil:1", dropBusy, false, t0)
	d.dialFailed("self:1", t0)
	if st, _ := d.status("evil:1"); st != addrBanned {
		t.Fatal("ban softened")
	}
	if st, _ := d.status("self:1"); st != addrSelf {
		t.Fatal("self softened")
	}
	good := d.goodPeers(10)
	if len(good) != 2 || good[0].addr != "dup:1" && good[0].addr != "good:1" {
		t.Fatalf("good peers %+v", good)
	}
}

func TestFanOutAndRelayTarget(t *testing.T) {
	// neo-go: max(1, round(2.5 ln(size-1))).
	for size, want := range map[int]int{1: 1, 2: 1, 3: 2, 5: 3, 11: 6, 101: 12, 1001: 17} {
		if got := fanOut(size); got != want {
			t.Errorf("fanOut(%d) = %d, want %d", size, got, want)
		}
	}
	cases := []struct{ n, factor, want int }{
		{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {3, 0, 2}, {4, 0, 3}, {6, 0, 4}, {10, 0, 7}, {100, 0, 67},
		{10, 100, 10}, {100, 50, 83}, {3, 100, 3},
	}
	for _, c := range cases {
		if got := relayTarget(c.n, c.factor); got != c.want {
			t.Errorf("relayTarget(%d, %d) = %d, want %d", c.n, c.factor, got, c.want)
		}
	}
}

// TestRelayFanOut: with BroadcastFactor 0 an announcement reaches two
// thirds of the peers, not all.
func TestRelayFanOut(t *testing.T) {
	hub := startNode(t, testConfig(1), newFakeLedger(genesis))
	var raws []*rawPeer
	for range 6 {
		r := dialRaw(t, hub.addr())
		r.handshake(0)
		raws = append(raws, r)
	}
	eventually(t, 5*time.Second, "handshakes", func() bool { return hub.HandshakedPeersCount() == 6 })
	inv := &payload.Inventory{Type: payload.TXType, Hashes: []hash.Uint256{{1}}}
	if n := hub.broadcast(message.CmdInv, inv, false, nil); n != 4 {
		t.Fatalf("announced to %d of 6", n)
	}
	if n := hub.broadcastAll(message.CmdInv, inv, false, nil); n != 6 {
		t.Fatalf("broadcastAll reached %d of 6", n)
	}
}

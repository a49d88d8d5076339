package network

import (
	"net"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for ServerConfig.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// TestTimeoutsFollowTheClock drives the handshake and ping timeouts with a
// fake clock: nothing expires until the clock says so.
func TestTimeoutsFollowTheClock(t *testing.T) {
	clk := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	cfg := testConfig(1)
	cfg.Now = clk.Now
	cfg.Addresses = nil
	cfg.HandshakeTimeout = time.Minute
	cfg.PingTimeout = time.Minute
	cfg.ProtoTickInterval = time.Hour // maintenance runs only when called
	s := startNode(t, cfg, newFakeLedger(genesis))

	// An in-memory connection that never speaks.
	local, remote := net.Pipe()
	defer remote.Close()
	go func() { // drain what the server writes
		buf := make([]byte, 1024)
		for {
			if _, err := remote.Read(buf); err != nil {
				return
			}
		}
	}()
	s.addConn(local, "")
	p := s.Peers()[0]
	s.maintain(false, 1)
	clk.Add(59 * time.Second)
	s.maintain(false, 1)
	if p.isGone() {
		t.Fatal("dropped before the handshake timeout")
	}
	clk.Add(2 * time.Second)
	s.maintain(false, 1)
	if !p.isGone() || p.dropErr != ErrHandshakeTimeout {
		t.Fatalf("not dropped for the handshake timeout: %v", p.dropErr)
	}

	// A handshaked peer with a ping outstanding.
	local, remote2 := net.Pipe()
	defer remote2.Close()
	go func() {
		buf := make([]byte, 1024)
		for {
			if _, err := remote2.Read(buf); err != nil {
				return
			}
		}
	}()
	s.addConn(local, "")
	var q *Peer
	for _, x := range s.Peers() {
		q = x
	}
	q.mark(handshakeDone)
	q.pingSent(clk.Now())
	clk.Add(time.Minute)
	s.maintain(false, 1)
	if q.isGone() {
		t.Fatal("dropped at exactly the ping timeout")
	}
	if !q.pongReceived(clk.Now()) {
		t.Fatal("pong not accounted")
	}
	q.pingSent(clk.Now())
	clk.Add(time.Minute + time.Second)
	s.maintain(false, 1)
	if !q.isGone() || q.dropErr != ErrPingTimeout {
		t.Fatalf("not dropped for the ping timeout: %v", q.dropErr)
	}
}

package chaos

import (
	"net"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/stretchr/testify/require"
)

// pair is a connection from node 0 through the proxy to node 1.
type pair struct {
	from net.Conn // node 0's end
	to   net.Conn // node 1's end (accepted by its listener)
	recv *FrameReader
}

// testProxy starts a proxy in front of two listeners (nodes 0 and 1).
func testProxy(t *testing.T, seed uint64) (*Proxy, []net.Listener) {
	t.Helper()
	ls := make([]net.Listener, 2)
	ports := make([]int, 2)
	for i := range ls {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		ls[i], ports[i] = l, l.Addr().(*net.TCPAddr).Port
	}
	p, err := NewProxy(seed, ports, t.Logf)
	require.NoError(t, err)
	t.Cleanup(p.Close)
	return p, ls
}

func dial(t *testing.T, p *Proxy, ls []net.Listener) pair {
	t.Helper()
	from, err := net.Dial("tcp", p.Addr(0, 1))
	require.NoError(t, err)
	t.Cleanup(func() { from.Close() })
	to, err := ls[1].Accept()
	require.NoError(t, err)
	t.Cleanup(func() { to.Close() })
	return pair{from: from, to: to, recv: NewFrameReader(to)}
}

// ping returns a numbered frame: a getblockbyindex request (a command
// the proxy may duplicate).
func ping(t *testing.T, i uint32) []byte {
	return encode(t, message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: i, Count: 1}, false)
}

// readPings reads numbered frames until the connection is quiet for quiet.
func readPings(t *testing.T, p pair, quiet time.Duration) []uint32 {
	t.Helper()
	var got []uint32
	for {
		require.NoError(t, p.to.SetReadDeadline(time.Now().Add(quiet)))
		f, err := p.recv.ReadFrame()
		if err != nil {
			return got
		}
		m, err := message.Decode(f.Raw)
		require.NoError(t, err)
		got = append(got, m.Payload.(*payload.GetBlockByIndex).IndexStart)
	}
}

// TestProxyForwardsAndRewrites: frames pass unchanged and in order
// without faults; a version frame's port becomes the receiver's link to
// the sender.
func TestProxyForwardsAndRewrites(t *testing.T) {
	p, ls := testProxy(t, 1)
	c := dial(t, p, ls)
	_, err := c.from.Write(encode(t, message.CmdVersion, version(uint16(ls[0].Addr().(*net.TCPAddr).Port)), false))
	require.NoError(t, err)
	f, err := c.recv.ReadFrame()
	require.NoError(t, err)
	m, err := message.Decode(f.Raw)
	require.NoError(t, err)
	require.Equal(t, p.linkPort(1, 0), m.Payload.(*payload.Version).Capabilities.TCPPort())

	for i := range uint32(100) {
		_, err := c.from.Write(ping(t, i))
		require.NoError(t, err)
	}
	got := readPings(t, c, 300*time.Millisecond)
	require.Len(t, got, 100)
	for i, v := range got {
		require.Equal(t, uint32(i), v)
	}
}

// TestProxyFaultsFollowSeed: with loss, duplication and reordering, the
// frames that arrive are exactly the ones the seeded decider spares (and
// its duplicates), and frames not held back keep their order.
func TestProxyFaultsFollowSeed(t *testing.T) {
	const seed, n = 99, 300
	f := Faults{Loss: 0.2, Dup: 0.2, Reorder: 0.2, Jitter: 2 * time.Millisecond, ReorderBy: 20 * time.Millisecond}
	p, ls := testProxy(t, seed)
	p.SetFaults(f)
	c := dial(t, p, ls)
	for i := range uint32(n) {
		_, err := c.from.Write(ping(t, i))
		require.NoError(t, err)
	}
	got := readPings(t, c, 500*time.Millisecond)

	dec := NewDecider(seed, "0>1#0/up")
	want := make(map[uint32]int)
	var ordered []uint32
	for i := range uint32(n) {
		d := dec.Decide(f, message.CmdGetBlockByIndex)
		switch {
		case d.Drop:
		case d.Dup:
			want[i] = 2
		default:
			want[i] = 1
		}
		if !d.Drop && !d.Reorder {
			ordered = append(ordered, i)
		}
	}
	count := make(map[uint32]int)
	for _, v := range got {
		count[v]++
	}
	require.Equal(t, want, count)
	// The first copies of frames that were not held back arrive in order.
	seen := make(map[uint32]bool)
	var firsts []uint32
	isOrdered := make(map[uint32]bool)
	for _, v := range ordered {
		isOrdered[v] = true
	}
	for _, v := range got {
		if isOrdered[v] && !seen[v] {
			firsts = append(firsts, v)
		}
		seen[v] = true
	}
	require.Equal(t, ordered, firsts)
	require.EqualValues(t, n-len(ordered)-int(p.Stats.Reordered.Load()), p.Stats.Dropped.Load())
	require.Positive(t, p.Stats.Duplicated.Load())
	require.Positive(t, p.Stats.Reordered.Load())
}

// TestProxyPartitions: a blackhole drops frames across the cut and keeps
// the connection; a cut closes it and refuses new ones; both heal.
func TestProxyPartitions(t *testing.T) {
	p, ls := testProxy(t, 3)
	c := dial(t, p, ls)
	p.Partition([][]int{{0}, {1}}, Blackhole)
	_, err := c.from.Write(ping(t, 1))
	require.NoError(t, err)
	require.Empty(t, readPings(t, c, 200*time.Millisecond))
	p.Heal()
	_, err = c.from.Write(ping(t, 2))
	require.NoError(t, err)
	require.Equal(t, []uint32{2}, readPings(t, c, 200*time.Millisecond))

	p.Partition([][]int{{0}, {1}}, Cut)
	require.NoError(t, c.to.SetReadDeadline(time.Now().Add(2*time.Second)))
	_, err = c.recv.ReadFrame()
	require.Error(t, err) // closed by the proxy
	refused, err := net.Dial("tcp", p.Addr(0, 1))
	require.NoError(t, err)
	require.NoError(t, refused.SetReadDeadline(time.Now().Add(2*time.Second)))
	_, err = refused.Read(make([]byte, 1))
	require.Error(t, err) // closed at once
	refused.Close()
	require.EqualValues(t, 1, p.Stats.Refused.Load())
	require.EqualValues(t, 1, p.Stats.CutConns.Load())

	p.Heal()
	c2 := dial(t, p, ls)
	_, err = c2.from.Write(ping(t, 3))
	require.NoError(t, err)
	require.Equal(t, []uint32{3}, readPings(t, c2, 200*time.Millisecond))
}

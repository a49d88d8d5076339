package network

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// Queue sizes (neo-go tcp_peer.go).
const (
	broadcastQueueSize = 32
	p2pQueueSize       = 16
	hpQueueSize        = 4
	// incomingQueueSize lets the reader run ahead of the handler by a few
	// messages; each may be up to 32 MiB, so it stays small.
	incomingQueueSize = 4
)

// Peer errors (the reasons peers are dropped).
var (
	ErrGone              = errors.New("peer is gone")
	ErrHandshake         = errors.New("handshake violation")
	ErrHandshakeTimeout  = errors.New("handshake timeout")
	ErrInvalidNetwork    = errors.New("peer is on another network")
	ErrIdenticalID       = errors.New("connected to self")
	ErrAlreadyConnected  = errors.New("already connected")
	ErrPingTimeout       = errors.New("ping timeout")
	ErrUnexpectedPong    = errors.New("pong without ping")
	ErrUnexpectedAddr    = errors.New("addr without getaddr")
	ErrMaxPeers          = errors.New("too many peers")
	ErrServerShutdown    = errors.New("server shutdown")
	ErrUnsupported       = errors.New("unsupported message")
	ErrBlockMismatch     = errors.New("block does not match the known header")
	ErrInvalidInventory  = errors.New("invalid inventory type")
	ErrInvalidExtensible = errors.New("invalid extensible payload")
	ErrStalled           = errors.New("sync requests left unanswered")
)

type handshakeState uint8

const (
	versionSent handshakeState = 1 << iota
	versionReceived
	verackSent
	verackReceived
	handshakeDone = versionSent | versionReceived | verackSent | verackReceived
)

// Peer is a connected remote node. Three goroutines serve it: a reader
// that decodes messages, a handler that processes them one at a time (so
// a slow handler delays this peer only, and reading continues into a small
// buffer), and a writer that drains three send queues: high priority
// (consensus, ping, the handshake), replies, and broadcasts.
type Peer struct {
	s        *Server
	conn     net.Conn
	dialAddr string // the address we dialed; empty for inbound peers
	since    time.Time

	hpQ, p2pQ, bcastQ chan []byte
	incoming          chan *message.Message
	done              chan struct{}
	closeOnce         sync.Once
	dropErr           error // set before done is closed
	readErr           error // set by readLoop before it closes incoming

	lastBlockIndex atomic.Uint32
	getAddrSent    atomic.Int32
	stalls         atomic.Int32 // sync requests left unanswered in a row
	handshaked     atomic.Bool

	mu         sync.Mutex
	hs         handshakeState
	version    *payload.Version
	compress   bool // the peer takes compressed payloads
	fullNode   bool
	pingSentAt time.Time // when the oldest outstanding ping went out
	pings      int       // outstanding pings
}

func newPeer(s *Server, conn net.Conn, dialAddr string) *Peer {
	return &Peer{
		s:        s,
		conn:     conn,
		dialAddr: dialAddr,
		since:    s.now(),
		hpQ:      make(chan []byte, hpQueueSize),
		p2pQ:     make(chan []byte, p2pQueueSize),
		bcastQ:   make(chan []byte, broadcastQueueSize),
		incoming: make(chan *message.Message, incomingQueueSize),
		done:     make(chan struct{}),
	}
}

// RemoteAddr returns the connection's remote address.
func (p *Peer) RemoteAddr() net.Addr { return p.conn.RemoteAddr() }

// Inbound reports whether the peer connected to us.
func (p *Peer) Inbound() bool { return p.dialAddr == "" }

// Handshaked reports whether version and verack went both ways.
func (p *Peer) Handshaked() bool { return p.handshaked.Load() }

// LastBlockIndex is the peer's height as it last told us.
func (p *Peer) LastBlockIndex() uint32 { return p.lastBlockIndex.Load() }

// Version returns the peer's version message (nil before it arrives).
func (p *Peer) Version() *payload.Version {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.version
}

// IsFullNode reports whether the peer announced the FullNode capability.
func (p *Peer) IsFullNode() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fullNode
}

// PeerAddr is the address to reconnect to the peer: its IP and the port
// of its TcpServer capability, or the dialed address, or "" if unknown.
func (p *Peer) PeerAddr() string {
	if p.dialAddr != "" {
		return p.dialAddr
	}
	v := p.Version()
	if v == nil {
		return ""
	}
	port := v.Capabilities.TCPPort()
	if port == 0 {
		return ""
	}
	ap, err := netip.ParseAddrPort(p.conn.RemoteAddr().String())
	if err != nil {
		return ""
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), port).String()
}

// Disconnect closes the connection with the given reason. It is safe to
// call more than once and from any goroutine; the first reason wins.
func (p *Peer) Disconnect(reason error) {
	p.closeOnce.Do(func() {
		p.dropErr = reason
		close(p.done)
		_ = p.conn.Close()
		p.s.peerGone(p, reason)
	})
}

// isGone reports whether the peer was disconnected.
func (p *Peer) isGone() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// readLoop decodes messages and hands them to the handler. On a read
// error it closes incoming: the handler processes what was read before
// (a version telling why the remote hung up, say) and then disconnects.
func (p *Peer) readLoop() {
	defer close(p.incoming)
	r := message.NewReader(p.conn)
	r.StateRootInHeader = p.s.cfg.StateRootInHeader
	for {
		m, err := r.ReadMessage()
		if err != nil {
			if tolerated(err) {
				continue
			}
			p.readErr = err
			return
		}
		select {
		case p.incoming <- m:
		case <-p.done:
			return
		}
	}
}

// tolerated reports whether a decoding error is a known quirk of a
// reference node rather than an attack: neo-go answers getaddr with an
// empty addr list when it knows no good peer yet, which its own decoder
// (and C#'s) refuses. The frame was read whole, so reading can go on.
func tolerated(err error) bool {
	var de *message.DecodeError
	return errors.As(err, &de) && de.Command == message.CmdAddr && errors.Is(err, payload.ErrEmptyList)
}

// handleLoop processes messages in order.
func (p *Peer) handleLoop() {
	for {
		select {
		case <-p.done:
			return
		case m, ok := <-p.incoming:
			if !ok {
				p.Disconnect(p.readErr)
				return
			}
			if err := p.s.handleTimed(p, m); err != nil {
				p.Disconnect(err)
				return
			}
		}
	}
}

// broadcastTurn makes every broadcastTurn-th pick of writeLoop drop the
// reply queue's precedence: replies and broadcasts then compete at random,
// so a broadcast backlog gets about one packet in eight while replies are
// queued (neo-go's share).
const broadcastTurn = 4

// writeLoop sends queued packets until the peer is gone or a write fails;
// each write must finish within a block time (at least a second).
func (p *Peer) writeLoop() {
	timeout := max(p.s.cfg.TimePerBlock, time.Second)
	for turn := uint32(0); ; turn++ {
		pkt, ok := p.nextPacket(turn)
		if !ok {
			return
		}
		err := p.conn.SetWriteDeadline(time.Now().Add(timeout))
		if err == nil {
			_, err = p.conn.Write(pkt)
		}
		if err != nil {
			p.Disconnect(err)
			return
		}
	}
}

// nextPacket picks the packet to send on this turn: a ready high-priority
// packet, else (except on broadcast turns) a ready reply, else whichever
// queue delivers first. It reports false once the peer is gone.
func (p *Peer) nextPacket(turn uint32) ([]byte, bool) {
	select {
	case <-p.done:
		return nil, false
	default:
	}
	preferred := []chan []byte{p.hpQ, p.p2pQ}
	if turn%broadcastTurn == 0 {
		preferred = preferred[:1]
	}
	for _, q := range preferred {
		select {
		case pkt := <-q:
			return pkt, true
		default:
		}
	}
	select {
	case <-p.done:
		return nil, false
	case pkt := <-p.hpQ:
		return pkt, true
	case pkt := <-p.p2pQ:
		return pkt, true
	case pkt := <-p.bcastQ:
		return pkt, true
	}
}

// enqueue puts pkt on q, waiting while the queue is full (the writer's
// deadline bounds the wait: a peer that does not read is dropped).
func (p *Peer) enqueue(q chan []byte, pkt []byte) error {
	select {
	case q <- pkt:
		return nil
	case <-p.done:
		return ErrGone
	}
}

// tryEnqueue puts pkt on q if there is room.
func (p *Peer) tryEnqueue(q chan []byte, pkt []byte) bool {
	select {
	case q <- pkt:
		return true
	default:
		return false
	}
}

// enqueueCtx waits for room on q until ctx ends.
func (p *Peer) enqueueCtx(ctx context.Context, q chan []byte, pkt []byte) bool {
	select {
	case q <- pkt:
		return true
	case <-p.done:
		return false
	case <-ctx.Done():
		return false
	}
}

// encode encodes a message for this peer (compressed if both sides allow).
func (p *Peer) encode(cmd message.Command, pl message.Payload) ([]byte, error) {
	return message.Encode(cmd, pl, p.takesCompressed() && !p.s.cfg.DisableCompression)
}

// send encodes and queues a reply (p2p queue) or, with hp, a
// high-priority message.
func (p *Peer) send(cmd message.Command, pl message.Payload, hp bool) error {
	b, err := p.encode(cmd, pl)
	if err != nil {
		return err
	}
	q := p.p2pQ
	if hp {
		q = p.hpQ
	}
	return p.enqueue(q, b)
}

// takesCompressed reports whether compressed packets may go to the peer.
func (p *Peer) takesCompressed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.compress
}

// onVersion records the peer's version.
func (p *Peer) onVersion(v *payload.Version) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hs&versionReceived != 0 {
		return errors.Join(ErrHandshake, errors.New("second version"))
	}
	p.hs |= versionReceived
	p.version = v
	p.compress = !v.Capabilities.Has(capability.DisableCompression)
	if h, ok := v.StartHeight(); ok {
		p.fullNode = true
		p.lastBlockIndex.Store(h)
	}
	return nil
}

// markSent records a handshake message as sent; it reports whether the
// handshake is now complete.
func (p *Peer) mark(st handshakeState) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hs |= st
	if p.hs == handshakeDone && !p.handshaked.Load() {
		p.handshaked.Store(true)
		return true
	}
	return false
}

// state returns the handshake state.
func (p *Peer) state() handshakeState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hs
}

// updateHeight raises the peer's known height; it reports whether it rose.
func (p *Peer) updateHeight(h uint32) bool {
	for {
		old := p.lastBlockIndex.Load()
		if h <= old {
			return false
		}
		if p.lastBlockIndex.CompareAndSwap(old, h) {
			return true
		}
	}
}

// pingSent notes an outgoing ping (the first outstanding one starts the
// timeout).
func (p *Peer) pingSent(now time.Time) {
	p.mu.Lock()
	if p.pings == 0 {
		p.pingSentAt = now
	}
	p.pings++
	p.mu.Unlock()
}

// pingUnsent takes back a ping that could not be queued.
func (p *Peer) pingUnsent() {
	p.mu.Lock()
	if p.pings > 0 {
		p.pings--
	}
	if p.pings == 0 {
		p.pingSentAt = time.Time{}
	}
	p.mu.Unlock()
}

// pongReceived accounts for a pong; it reports whether a ping was
// outstanding. The next outstanding ping (if any) gets a fresh timeout.
func (p *Peer) pongReceived(now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pings == 0 {
		return false
	}
	p.pings--
	if p.pings == 0 {
		p.pingSentAt = time.Time{}
	} else {
		p.pingSentAt = now
	}
	return true
}

// timedOut reports why the peer should be dropped at time now, if it
// should: no handshake within the handshake timeout, or no pong within
// the ping timeout.
func (p *Peer) timedOut(now time.Time) error {
	if !p.Handshaked() && now.Sub(p.since) > p.s.cfg.HandshakeTimeout {
		return ErrHandshakeTimeout
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pings > 0 && now.Sub(p.pingSentAt) > p.s.cfg.PingTimeout {
		return ErrPingTimeout
	}
	return nil
}

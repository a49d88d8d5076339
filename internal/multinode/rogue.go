package multinode

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// Rogue is a hand-driven P2P peer: it completes the handshake like a node
// and then sends whatever it is told, reading (and counting) what the
// node sends so that the node never blocks on it.
type Rogue struct {
	conn   net.Conn
	remote *payload.Version

	wmu      sync.Mutex
	sent     atomic.Int64 // messages written
	received atomic.Int64 // messages read after the handshake
	closed   chan struct{}
	readErr  error // valid once closed is closed
}

// ErrHandshakeFailed is returned by DialRogue when the node does not
// complete the handshake.
var ErrHandshakeFailed = errors.New("multinode: rogue handshake failed")

// DialRogue connects to a node's P2P address and completes the handshake
// with the given node id, announcing height and the listen port port (a
// port nothing listens on is fine: the node never dials back in time).
func DialRogue(ctx context.Context, addr string, nonce, height uint32, port uint16) (*Rogue, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	r := &Rogue{conn: conn, closed: make(chan struct{})}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	} else {
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	}
	ver := &payload.Version{
		Magic:     Magic,
		Version:   payload.ProtocolVersion,
		Timestamp: uint32(time.Now().Unix()),
		Nonce:     nonce,
		UserAgent: "/multinode-rogue:0.1/",
		Capabilities: capability.Capabilities{
			capability.NewTCPServer(port),
			capability.NewFullNode(height),
		},
	}
	if err := r.Send(message.CmdVersion, ver); err != nil {
		conn.Close()
		return nil, err
	}
	mr := message.NewReader(conn)
	gotVerack := false
	for r.remote == nil || !gotVerack {
		m, err := mr.ReadMessage()
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("%w: %w", ErrHandshakeFailed, err)
		}
		switch m.Command {
		case message.CmdVersion:
			r.remote = m.Payload.(*payload.Version)
			if err := r.Send(message.CmdVerack, nil); err != nil {
				conn.Close()
				return nil, err
			}
		case message.CmdVerack:
			gotVerack = true
		default:
			conn.Close()
			return nil, fmt.Errorf("%w: %s during the handshake", ErrHandshakeFailed, m.Command)
		}
	}
	_ = conn.SetDeadline(time.Time{})
	go r.drain(mr)
	return r, nil
}

// drain reads and discards the node's messages until the connection ends.
func (r *Rogue) drain(mr *message.Reader) {
	for {
		_, err := mr.ReadMessage()
		if err != nil {
			r.readErr = err
			close(r.closed)
			return
		}
		r.received.Add(1)
	}
}

// Remote is the node's version message.
func (r *Rogue) Remote() *payload.Version { return r.remote }

// Send writes one message (uncompressed).
func (r *Rogue) Send(cmd message.Command, pl message.Payload) error {
	b, err := message.Encode(cmd, pl, false)
	if err != nil {
		return err
	}
	return r.SendRaw(b)
}

// SendRaw writes bytes as they are (one or more framed messages, or
// garbage).
func (r *Rogue) SendRaw(b []byte) error {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	_ = r.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := r.conn.Write(b); err != nil {
		return err
	}
	r.sent.Add(1)
	return nil
}

// Sent and Received count the messages written and read.
func (r *Rogue) Sent() int64     { return r.sent.Load() }
func (r *Rogue) Received() int64 { return r.received.Load() }

// Closed is closed when the node has closed the connection (or reading
// failed); Err then says why.
func (r *Rogue) Closed() <-chan struct{} { return r.closed }

// Err is the read error that ended the connection (nil while open).
func (r *Rogue) Err() error {
	select {
	case <-r.closed:
		return r.readErr
	default:
		return nil
	}
}

// Close closes the connection.
func (r *Rogue) Close() error { return r.conn.Close() }

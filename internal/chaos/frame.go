package chaos

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// ErrFrame is returned (wrapped) for a stream that is not a sequence of
// Neo P2P frames: a payload length above message.PayloadMaxSize.
var ErrFrame = errors.New("chaos: bad P2P frame")

// Frame is one whole P2P message as it was on the wire: flags, command,
// var-int length and payload, in Raw.
type Frame struct {
	Command message.Command
	Raw     []byte
}

// maxFrameHeader is flags, command and the longest var-int.
const maxFrameHeader = 2 + 9

// FrameReader splits a stream into frames without decoding payloads, so
// that the proxy forwards exactly the bytes the node sent.
type FrameReader struct {
	r   *bufio.Reader
	hdr nio.BinReader
}

// NewFrameReader returns a FrameReader over r.
func NewFrameReader(r io.Reader) *FrameReader {
	return &FrameReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// ReadFrame returns the next frame in a fresh slice. io.EOF means the
// stream ended between frames, io.ErrUnexpectedEOF inside one.
func (f *FrameReader) ReadFrame() (Frame, error) {
	var n uint64
	hlen := 3
	for {
		hdr, err := f.r.Peek(hlen)
		if err != nil {
			if errors.Is(err, io.EOF) && len(hdr) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return Frame{}, err
		}
		// The var-int length starts at hdr[2]; ask for more bytes only
		// when the var-int says it needs them.
		f.hdr.Reset(hdr[2:])
		n = f.hdr.ReadVarUint()
		if f.hdr.Err == nil {
			break
		}
		if !errors.Is(f.hdr.Err, nio.ErrUnexpectedEOF) || hlen == maxFrameHeader {
			return Frame{}, fmt.Errorf("%w: length: %w", ErrFrame, f.hdr.Err)
		}
		hlen++
	}
	if n > message.PayloadMaxSize {
		return Frame{}, fmt.Errorf("%w: payload of %d bytes", ErrFrame, n)
	}
	raw := make([]byte, hlen+int(n))
	if _, err := io.ReadFull(f.r, raw); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return Frame{}, err
	}
	return Frame{Command: message.Command(raw[1]), Raw: raw}, nil
}

// rewritePorts rewrites the TcpServer ports a frame announces: the
// sender's own in a version message, every peer's in an addr message.
// port maps an announced port to the one the receiver must dial instead
// (ok false: keep it). It reports whether it changed the frame; other
// frames, and frames that do not decode, are returned unchanged.
func rewritePorts(fr Frame, port func(uint16) (uint16, bool)) (Frame, bool) {
	if fr.Command != message.CmdVersion && fr.Command != message.CmdAddr {
		return fr, false
	}
	m, err := message.Decode(fr.Raw)
	if err != nil {
		return fr, false
	}
	changed := false
	fix := func(cs capability.Capabilities) {
		for i := range cs {
			if cs[i].Type != capability.TCPServer {
				continue
			}
			if p, ok := port(cs[i].Port); ok && p != cs[i].Port {
				cs[i].Port = p
				changed = true
			}
		}
	}
	switch p := m.Payload.(type) {
	case *payload.Version:
		fix(p.Capabilities)
	case *payload.AddressList:
		for i := range p.Addrs {
			fix(p.Addrs[i].Capabilities)
		}
	}
	if !changed {
		return fr, false
	}
	raw, err := m.Bytes(m.Flags&message.Compressed != 0)
	if err != nil {
		return fr, false
	}
	return Frame{Command: fr.Command, Raw: raw}, true
}

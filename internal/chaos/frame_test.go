package chaos

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"testing"

	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/stretchr/testify/require"
)

func encode(t testing.TB, cmd message.Command, p message.Payload, compress bool) []byte {
	t.Helper()
	b, err := message.Encode(cmd, p, compress)
	require.NoError(t, err)
	return b
}

func version(port uint16) *payload.Version {
	return &payload.Version{Magic: 56753, Nonce: 7, UserAgent: "/test/", Capabilities: capability.Capabilities{
		capability.NewTCPServer(port), capability.NewFullNode(5)}}
}

func addrList(n int, port uint16) *payload.AddressList {
	l := &payload.AddressList{}
	for i := range n {
		l.Addrs = append(l.Addrs, payload.NewAddressAndTime(netip.MustParseAddr("127.0.0.1"), uint32(i),
			capability.Capabilities{capability.NewTCPServer(port + uint16(i%2))}))
	}
	return l
}

// TestReadFrame splits a stream of frames of every length class (one-,
// three- and five-byte var-ints, compressed too) back into the same bytes.
func TestReadFrame(t *testing.T) {
	frames := [][]byte{
		encode(t, message.CmdVersion, version(20333), false),
		encode(t, message.CmdVerack, nil, false),
		encode(t, message.CmdPing, &payload.Ping{LastBlockIndex: 1}, false),
		encode(t, message.CmdAddr, addrList(200, 1000), false),                             // > 0xfc bytes: 0xfd length
		encode(t, message.CmdAddr, addrList(200, 1000), true),                              // compressed
		encode(t, message.CmdAlert, message.Opaque(bytes.Repeat([]byte{1}, 70000)), false), // 0xfe length
	}
	var stream bytes.Buffer
	for _, f := range frames {
		stream.Write(f)
	}
	r := NewFrameReader(&stream)
	for i, want := range frames {
		f, err := r.ReadFrame()
		require.NoError(t, err, "frame %d", i)
		require.Equal(t, want, f.Raw, "frame %d", i)
		require.Equal(t, message.Command(want[1]), f.Command)
	}
	_, err := r.ReadFrame()
	require.ErrorIs(t, err, io.EOF)
}

// TestReadFrameErrors: a stream cut inside a frame is io.ErrUnexpectedEOF
// (in the header, the var-int and the payload), a length above the
// protocol's limit is ErrFrame before anything is allocated.
func TestReadFrameErrors(t *testing.T) {
	full := encode(t, message.CmdAddr, addrList(20, 1000), false)
	for _, n := range []int{1, 2, 3, 4, len(full) - 1} {
		_, err := NewFrameReader(bytes.NewReader(full[:n])).ReadFrame()
		require.ErrorIs(t, err, io.ErrUnexpectedEOF, "cut at %d", n)
	}
	huge := []byte{0, byte(message.CmdBlock), 0xff, 0, 0, 0, 0, 1, 0, 0, 0}
	_, err := NewFrameReader(bytes.NewReader(huge)).ReadFrame()
	require.ErrorIs(t, err, ErrFrame)
}

// TestRewritePorts: the TcpServer port of a version frame and of every
// entry of an addr frame (compressed or not) is mapped; other frames and
// unmapped ports stay byte for byte.
func TestRewritePorts(t *testing.T) {
	mapping := func(p uint16) (uint16, bool) {
		if p == 1000 {
			return 2000, true
		}
		return 0, false
	}
	read := func(b []byte) Frame {
		f, err := NewFrameReader(bytes.NewReader(b)).ReadFrame()
		require.NoError(t, err)
		return f
	}

	f, ok := rewritePorts(read(encode(t, message.CmdVersion, version(1000), false)), mapping)
	require.True(t, ok)
	m, err := message.Decode(f.Raw)
	require.NoError(t, err)
	require.Equal(t, uint16(2000), m.Payload.(*payload.Version).Capabilities.TCPPort())
	require.Equal(t, encode(t, message.CmdVersion, version(2000), false), f.Raw)

	for _, compress := range []bool{false, true} {
		f, ok = rewritePorts(read(encode(t, message.CmdAddr, addrList(50, 1000), compress)), mapping)
		require.True(t, ok)
		require.Equal(t, compress, f.Raw[0]&byte(message.Compressed) != 0)
		m, err = message.Decode(f.Raw)
		require.NoError(t, err)
		for i, a := range m.Payload.(*payload.AddressList).Addrs {
			want := uint16(2000)
			if i%2 == 1 {
				want = 1001 // not mapped
			}
			require.Equal(t, want, a.Capabilities.TCPPort(), "entry %d", i)
		}
	}

	same := encode(t, message.CmdVersion, version(1001), false)
	f, ok = rewritePorts(read(same), mapping)
	require.False(t, ok)
	require.Equal(t, same, f.Raw)
	ping := encode(t, message.CmdPing, &payload.Ping{}, false)
	f, ok = rewritePorts(read(ping), mapping)
	require.False(t, ok)
	require.Equal(t, ping, f.Raw)
}

// FuzzReadFrame: any byte stream gives frames that tile it exactly, or
// an error; nothing panics.
func FuzzReadFrame(f *testing.F) {
	f.Add(encode(f, message.CmdVersion, version(20333), false))
	f.Add(append(encode(f, message.CmdVerack, nil, false), encode(f, message.CmdAddr, addrList(3, 1), true)...))
	f.Add([]byte{0, 0, 0xfd, 1})
	f.Add([]byte{0, 0x2c, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewFrameReader(bytes.NewReader(data))
		var got []byte
		for {
			fr, err := r.ReadFrame()
			if err != nil {
				if errors.Is(err, io.EOF) && !bytes.Equal(data, got) {
					t.Fatalf("frames %x do not tile the input %x", got, data)
				}
				return
			}
			got = append(got, fr.Raw...)
			_, _ = rewritePorts(fr, func(p uint16) (uint16, bool) { return p + 1, true })
		}
	})
}

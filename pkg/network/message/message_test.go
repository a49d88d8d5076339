package message_test

import (
	"bytes"
	"errors"
	"io"
	"net/netip"
	"reflect"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/internal/fakechain"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

func hashes(n int) []hash.Uint256 {
	hs := make([]hash.Uint256, n)
	for i := range hs {
		hs[i] = hash.Sha256([]byte{byte(i), byte(i >> 8)})
	}
	return hs
}

// samples returns one message of every command.
func samples() []*message.Message {
	chain := fakechain.Chain(3, 2)
	var hdrs []*block.Header
	for _, b := range chain {
		hdrs = append(hdrs, &b.Header)
	}
	ext := &payload.Extensible{Category: "dBFT", ValidBlockEnd: 10, Data: []byte{1, 2, 3},
		Witness: transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}
	return []*message.Message{
		message.New(message.CmdVersion, &payload.Version{Magic: 5, Nonce: 6, UserAgent: "/x/", Capabilities: capability.Capabilities{capability.NewTCPServer(1)}}),
		message.New(message.CmdVerack, nil),
		message.New(message.CmdGetAddr, nil),
		message.New(message.CmdAddr, &payload.AddressList{Addrs: []payload.AddressAndTime{
			payload.NewAddressAndTime(netip.MustParseAddr("127.0.0.1"), 1, capability.Capabilities{capability.NewTCPServer(2)})}}),
		message.New(message.CmdPing, &payload.Ping{LastBlockIndex: 1, Timestamp: 2, Nonce: 3}),
		message.New(message.CmdPong, &payload.Ping{LastBlockIndex: 4, Timestamp: 5, Nonce: 6}),
		message.New(message.CmdGetHeaders, &payload.GetBlockByIndex{IndexStart: 1, Count: -1}),
		message.New(message.CmdHeaders, &payload.Headers{Hdrs: hdrs}),
		message.New(message.CmdGetBlocks, &payload.GetBlocks{HashStart: hashes(1)[0], Count: 10}),
		message.New(message.CmdMempool, nil),
		message.New(message.CmdInv, &payload.Inventory{Type: payload.TXType, Hashes: hashes(5)}),
		message.New(message.CmdGetData, &payload.Inventory{Type: payload.BlockType, Hashes: hashes(1)}),
		message.New(message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: 0, Count: 500}),
		message.New(message.CmdNotFound, &payload.Inventory{Type: payload.ExtensibleType, Hashes: hashes(2)}),
		message.New(message.CmdTransaction, chain[1].Transactions[0]),
		message.New(message.CmdBlock, chain[2]),
		message.New(message.CmdExtensible, ext),
		message.New(message.CmdReject, message.Opaque{1, 2}),
		message.New(message.CmdFilterLoad, &payload.FilterLoad{Filter: []byte{1}, K: 1, Tweak: 2}),
		message.New(message.CmdFilterAdd, &payload.FilterAdd{Data: []byte{1}}),
		message.New(message.CmdFilterClear, nil),
		message.New(message.CmdMerkleBlock, &payload.MerkleBlock{Header: chain[1].Header, TxCount: 2, Hashes: hashes(2), Flags: []byte{3}}),
		message.New(message.CmdAlert, message.Opaque{}),
		message.New(message.CmdGetMPTData, &payload.MPTInventory{Hashes: hashes(2)}),
		message.New(message.CmdMPTData, &payload.MPTData{Nodes: [][]byte{{1}, {2, 3}}}),
	}
}

func TestRoundTripEveryCommand(t *testing.T) {
	for _, m := range samples() {
		for _, compress := range []bool{false, true} {
			b, err := m.Bytes(compress)
			if err != nil {
				t.Fatalf("%s: %v", m.Command, err)
			}
			got, err := message.Decode(b)
			if err != nil {
				t.Fatalf("%s (compress %v): %v", m.Command, compress, err)
			}
			if got.Command != m.Command {
				t.Fatalf("command %s, want %s", got.Command, m.Command)
			}
			b2, err := got.Bytes(compress)
			if err != nil || !bytes.Equal(b, b2) {
				t.Fatalf("%s: re-encoding differs (%v)\n%x\n%x", m.Command, err, b, b2)
			}
			if m.Payload == nil {
				if got.Payload != nil {
					t.Fatalf("%s: payload %T", m.Command, got.Payload)
				}
			} else if reflect.TypeOf(got.Payload) != reflect.TypeOf(m.Payload) {
				t.Fatalf("%s: payload type %T, want %T", m.Command, got.Payload, m.Payload)
			}
		}
	}
}

func TestFraming(t *testing.T) {
	b, err := message.Encode(message.CmdVerack, nil, true)
	if err != nil || !bytes.Equal(b, []byte{0, 1, 0}) {
		t.Fatalf("verack %x %v", b, err)
	}
	b, err = message.Encode(message.CmdPing, &payload.Ping{LastBlockIndex: 1, Timestamp: 2, Nonce: 3}, true)
	if err != nil || !bytes.Equal(b, []byte{0, 0x18, 12, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}) {
		t.Fatalf("ping %x %v", b, err)
	}
}

// TestCompressionRule checks C#'s rule: compressible commands only, more
// than CompressionMinSize bytes, and a saving above CompressionThreshold.
func TestCompressionRule(t *testing.T) {
	big := &payload.Inventory{Type: payload.TXType, Hashes: make([]hash.Uint256, 100)} // zeros: very compressible
	b, _ := message.Encode(message.CmdInv, big, true)
	if message.Flags(b[0])&message.Compressed != 0 {
		t.Fatal("inv must never be compressed")
	}
	fa := func(n int, fill byte) []byte {
		b, err := message.Encode(message.CmdFilterAdd, &payload.FilterAdd{Data: bytes.Repeat([]byte{fill}, n)}, true)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// 127 + 1 length byte = 128 bytes: not above CompressionMinSize.
	if b := fa(127, 0); b[0] != 0 {
		t.Fatalf("128-byte payload compressed: %x", b[:4])
	}
	if b := fa(128, 0); b[0] != 1 {
		t.Fatalf("129-byte zero payload not compressed")
	}
	// Random-looking data does not compress by more than 64 bytes.
	rnd := make([]byte, 300)
	for i := range rnd {
		rnd[i] = byte(i*131 + i*i*7)
	}
	b, _ = message.Encode(message.CmdFilterAdd, &payload.FilterAdd{Data: hash.Sha256(rnd).BytesBE()}, true)
	if b[0] != 0 {
		t.Fatal("incompressible payload compressed")
	}
	// Decoding a compressed message gives the same payload.
	m, err := message.Decode(fa(400, 7))
	if err != nil || !bytes.Equal(m.Payload.(*payload.FilterAdd).Data, bytes.Repeat([]byte{7}, 400)) || m.Flags != message.Compressed {
		t.Fatalf("%v %+v", err, m)
	}
	// Compression off: never compressed.
	if b, _ := message.Encode(message.CmdFilterAdd, &payload.FilterAdd{Data: make([]byte, 1000)}, false); b[0] != 0 {
		t.Fatal("compressed with compression off")
	}
}

func TestDecodeErrors(t *testing.T) {
	ping := []byte{0, 0x18, 12, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}
	comp, _ := message.Compress(make([]byte, 12))
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, message.ErrFormat},
		{"short length", []byte{0, 0x18}, message.ErrFormat},
		{"length beyond input", ping[:len(ping)-1], message.ErrFormat},
		{"trailing bytes", append(ping, 0), message.ErrFormat},
		{"payload too large", []byte{0, 0x2c, 0xfe, 0x01, 0x00, 0x00, 0x02}, message.ErrTooLarge},
		{"unknown command", []byte{0, 0x99, 1, 0}, message.ErrUnknownCommand},
		{"unknown command, empty", []byte{0, 0x99, 0}, message.ErrUnknownCommand},
		{"ping without payload", []byte{0, 0x18, 0}, message.ErrEmptyPayload},
		{"verack with payload", []byte{0, 0x01, 1, 0}, message.ErrUnexpectedData},
		{"payload trailing bytes", append([]byte{0, 0x18, 13}, make([]byte, 13)...), nio.ErrTrailingBytes},
		{"bad compressed", []byte{1, 0x18, 3, 1, 2, 3}, message.ErrDecompress},
		{"compressed length lies", append([]byte{1, 0x18, byte(len(comp))}, append([]byte{13, 0, 0, 0}, comp[4:]...)...), message.ErrDecompress},
		{"compressed bomb", []byte{1, 0x2c, 6, 0, 0, 0, 1, 0x1f, 0}, message.ErrDecompress},
		{"compressed over max", []byte{1, 0x2c, 6, 1, 0, 0, 2, 0x1f, 0}, message.ErrTooLarge},
		{"bad tx", []byte{0, 0x2b, 1, 0}, nio.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		_, err := message.Decode(c.in)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	// A compressed empty payload is an empty payload, as in neo-go.
	if m, err := message.Decode([]byte{1, 0x01, 0}); err != nil || m.Payload != nil {
		t.Fatalf("compressed verack: %v", err)
	}
	// A good compressed ping.
	good := append([]byte{1, 0x18, byte(len(comp))}, comp...)
	if m, err := message.Decode(good); err != nil || m.Payload.(*payload.Ping).Nonce != 0 {
		t.Fatalf("compressed ping: %v", err)
	}
}

func TestReader(t *testing.T) {
	var stream []byte
	msgs := samples()
	for _, m := range msgs {
		b, err := m.Bytes(true)
		if err != nil {
			t.Fatal(err)
		}
		stream = append(stream, b...)
	}
	// Deliver the stream one byte at a time.
	r := message.NewReader(&oneByteReader{b: stream})
	for i, want := range msgs {
		got, err := r.ReadMessage()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if got.Command != want.Command {
			t.Fatalf("message %d: %s, want %s", i, got.Command, want.Command)
		}
	}
	if _, err := r.ReadMessage(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	// Truncated inside a message.
	r = message.NewReader(bytes.NewReader(stream[:5]))
	if _, err := r.ReadMessage(); err != io.ErrUnexpectedEOF {
		t.Fatalf("truncated: %v", err)
	}
	// An announced 32 MiB payload that never arrives is refused without
	// allocating it (the Reader grows its buffer as data comes).
	r = message.NewReader(bytes.NewReader([]byte{0, 0x2c, 0xfe, 0, 0, 0, 2, 1, 2, 3}))
	if _, err := r.ReadMessage(); err != io.ErrUnexpectedEOF {
		t.Fatalf("stalled: %v", err)
	}
	r = message.NewReader(bytes.NewReader([]byte{0, 0x2c, 0xfe, 1, 0, 0, 2}))
	if _, err := r.ReadMessage(); !errors.Is(err, message.ErrTooLarge) {
		t.Fatalf("too large: %v", err)
	}
}

// TestReaderLarge reads a payload larger than the initial chunk.
func TestReaderLarge(t *testing.T) {
	blk := fakechain.Chain(2, 1000)[1]
	b, err := message.Encode(message.CmdBlock, blk, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 200<<10 {
		t.Fatalf("block only %d bytes", len(b))
	}
	m, err := message.NewReader(bytes.NewReader(b)).ReadMessage()
	if err != nil {
		t.Fatal(err)
	}
	if m.Payload.(*block.Block).Hash() != blk.Hash() {
		t.Fatal("hash")
	}
}

type oneByteReader struct{ b []byte }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if len(o.b) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = o.b[0]
	o.b = o.b[1:]
	return 1, nil
}

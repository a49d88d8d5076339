package network

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/network/internal/fuzzutil"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// refchainMagic is the network magic of testdata/refchain/protocol.yml.
const refchainMagic = 56753

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startNeoGo restores the reference chain into a neo-go 0.120.0 node
// (consensus off, so the chain stays as recorded) and returns it with its
// P2P address and the chain's raw blocks.
func startNeoGo(t *testing.T) (*neogo.Node, string, [][]byte) {
	return startNeoGoWith(t, true)
}

// startNeoGoWith starts neo-go on the reference chain's config, with the
// chain restored or (restore false) with only its genesis block.
func startNeoGoWith(t *testing.T, restore bool) (*neogo.Node, string, [][]byte) {
	t.Helper()
	if os.Getenv("N3NODE_NEOGO") != "1" {
		t.Skip("set N3NODE_NEOGO=1 to run the interop tests against neo-go " + neogo.Version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	root, err := neogo.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	fix := filepath.Join(root, "testdata", "refchain")
	tmpl, err := os.ReadFile(filepath.Join(fix, "protocol.yml"))
	if err != nil {
		t.Fatal(err)
	}
	acc, err := os.ReadFile(filepath.Join(fix, refchain.ChainAccFile))
	if err != nil {
		t.Fatal(err)
	}
	_, blocks, err := refchain.ReadChainAcc(acc)
	if err != nil {
		t.Fatal(err)
	}
	p2pPort, rpcPort := freePort(t), freePort(t)
	cfg, err := neogo.RenderConfig(tmpl, neogo.ConfigOptions{P2PPort: p2pPort, RPCPort: rpcPort})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "protocol.yml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	if restore {
		if err := neogo.Restore(ctx, bin, dir, filepath.Join(fix, refchain.ChainAccFile)); err != nil {
			t.Fatal(err)
		}
	}
	node, err := neogo.Start(ctx, neogo.StartOptions{Binary: bin, Dir: dir, Config: cfg, RPCPort: rpcPort, P2PPort: p2pPort})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := node.Stop(); err != nil {
			t.Logf("neo-go stop: %v", err)
		}
		if t.Failed() {
			t.Logf("neo-go log tail:\n%s", node.LogTail(40))
		}
	})
	var count int
	if err := node.RPC.Call(ctx, "getblockcount", &count); err != nil {
		t.Fatal(err)
	}
	if want := map[bool]int{true: len(blocks), false: 1}[restore]; count != want {
		t.Fatalf("neo-go has %d blocks, want %d", count, want)
	}
	return node, "127.0.0.1:" + strconv.Itoa(p2pPort), blocks
}

// recorder keeps every byte read through it.
type recorder struct {
	r   io.Reader
	buf bytes.Buffer
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.buf.Write(p[:n])
	return n, err
}

// TestInteropNeoGoWire talks to neo-go by hand: handshake, ping/pong,
// getheaders and getblockbyindex. Every frame neo-go sends must decode,
// every uncompressed one must re-encode to the same bytes, and the
// headers and blocks must have the hashes neo-go reports over RPC.
func TestInteropNeoGoWire(t *testing.T) {
	node, addr, blocks := startNeoGo(t)
	ctx := context.Background()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rec := &recorder{r: conn}
	rd := message.NewReader(rec)
	read := func(want message.Command) *message.Message {
		t.Helper()
		for {
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			m, err := rd.ReadMessage()
			if err != nil {
				t.Fatalf("reading %s: %v", want, err)
			}
			if m.Command == want {
				return m
			}
			t.Logf("skipping %s", m.Command)
		}
	}
	send := func(cmd message.Command, p message.Payload) {
		t.Helper()
		b, err := message.Encode(cmd, p, true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Write(b); err != nil {
			t.Fatal(err)
		}
	}

	send(message.CmdVersion, &payload.Version{Magic: refchainMagic, Timestamp: uint32(time.Now().Unix()), Nonce: 12345, UserAgent: "/n3node-interop/"})
	v := read(message.CmdVersion).Payload.(*payload.Version)
	if v.Magic != refchainMagic || v.UserAgent != "/NEO-GO:"+neogo.Version+"/" {
		t.Fatalf("neo-go version: %+v", v)
	}
	if h, ok := v.StartHeight(); !ok || int(h) != len(blocks)-1 {
		t.Fatalf("neo-go start height %d %v, want %d", h, ok, len(blocks)-1)
	}
	t.Logf("neo-go version: ua %s, capabilities %+v", v.UserAgent, v.Capabilities)
	read(message.CmdVerack)
	send(message.CmdVerack, nil)

	send(message.CmdPing, &payload.Ping{LastBlockIndex: 0, Timestamp: uint32(time.Now().Unix()), Nonce: 99})
	pong := read(message.CmdPong).Payload.(*payload.Ping)
	if int(pong.LastBlockIndex) != len(blocks)-1 {
		t.Fatalf("pong %+v", pong)
	}

	send(message.CmdGetHeaders, &payload.GetBlockByIndex{IndexStart: 0, Count: -1})
	hdrs := read(message.CmdHeaders).Payload.(*payload.Headers).Hdrs
	if len(hdrs) != len(blocks) {
		t.Fatalf("%d headers, want %d", len(hdrs), len(blocks))
	}
	for i, h := range hdrs {
		var want string
		if err := node.RPC.Call(ctx, "getblockhash", &want, i); err != nil {
			t.Fatal(err)
		}
		if h.Index != uint32(i) || "0x"+h.Hash().StringLE() != want {
			t.Fatalf("header %d: hash %s, neo-go says %s", i, h.Hash().StringLE(), want)
		}
	}

	send(message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: 0, Count: int16(len(blocks))})
	for i := range blocks {
		b := read(message.CmdBlock).Payload.(*block.Block)
		if b.Index != uint32(i) || b.Hash() != hdrs[i].Hash() {
			t.Fatalf("block %d: index %d hash %s", i, b.Index, b.Hash().StringLE())
		}
		if !bytes.Equal(b.Bytes(), blocks[i]) {
			t.Fatalf("block %d re-encodes differently from chain.acc", i)
		}
	}

	// Every frame read so far: decode and (uncompressed ones) re-encode
	// byte for byte. The first frame of each command (and the biggest
	// block) can be written as fuzz seeds of package message.
	all := rec.buf.Bytes()
	n := 0
	seeds := map[string][]byte{}
	for len(all) > 0 {
		m, size, err := splitFrame(all)
		if err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if m.Flags&message.Compressed == 0 {
			out, err := m.Bytes(false)
			if err != nil || !bytes.Equal(out, all[:size]) {
				t.Fatalf("frame %d (%s) does not re-encode byte for byte", n, m.Command)
			}
		}
		name := m.Command.String()
		if _, ok := seeds[name]; !ok || name == "block" && size > len(seeds[name]) {
			seeds[name] = bytes.Clone(all[:size])
		}
		all = all[size:]
		n++
	}
	t.Logf("%d neo-go frames decoded and re-encoded", n)
	if n == 0 {
		t.Fatal("no frames")
	}
	if os.Getenv(fuzzutil.EnvWriteCorpus) == "1" {
		dir := filepath.Join("message", "testdata", "fuzz", "FuzzDecode")
		for name, b := range seeds {
			body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(b)) + ")\n"
			if err := os.WriteFile(filepath.Join(dir, "neogo-"+name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// splitFrame decodes the first frame of b and returns its size.
func splitFrame(b []byte) (*message.Message, int, error) {
	if len(b) < 3 {
		return nil, 0, io.ErrUnexpectedEOF
	}
	n, hdr := uint64(b[2]), 3
	switch b[2] {
	case 0xfd:
		n, hdr = uint64(b[3])|uint64(b[4])<<8, 5
	case 0xfe:
		n, hdr = uint64(b[3])|uint64(b[4])<<8|uint64(b[5])<<16|uint64(b[6])<<24, 7
	}
	size := hdr + int(n)
	if size > len(b) {
		return nil, 0, io.ErrUnexpectedEOF
	}
	m, err := message.Decode(b[:size])
	return m, size, err
}

// TestInteropNeoGoSync runs a Server against neo-go: it dials neo-go as a
// seed, handshakes, and syncs every header and block into a fake ledger
// whose genesis is the reference chain's.
func TestInteropNeoGoSync(t *testing.T) {
	node, addr, blocks := startNeoGo(t)
	gen, err := block.NewBlockFromBytes(blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	l := newFakeLedger(gen)
	cfg := testConfig(7)
	cfg.Magic = refchainMagic
	cfg.Seeds = []string{addr}
	cfg.MinPeers = 1
	cfg.Addresses = []config.AnnounceableAddress{{Address: "127.0.0.1:0"}}
	cfg.PingInterval = 200 * time.Millisecond
	cfg.PingTimeout = 5 * time.Second
	s := startNode(t, cfg, l)
	eventually(t, 30*time.Second, "handshake with neo-go", func() bool { return s.HandshakedPeersCount() == 1 })
	eventually(t, 60*time.Second, "sync from neo-go", func() bool { return l.BlockHeight() == uint32(len(blocks)-1) })
	ctx := context.Background()
	for i := range blocks {
		var want string
		if err := node.RPC.Call(ctx, "getblockhash", &want, i); err != nil {
			t.Fatal(err)
		}
		l.mu.Lock()
		got := l.blocks[i].Hash()
		l.mu.Unlock()
		if "0x"+got.StringLE() != want {
			t.Fatalf("block %d: %s, neo-go %s", i, got.StringLE(), want)
		}
	}
	checkSynced(t, l, decodeAll(t, blocks))
	// Ping/pong keep the connection: after several ping intervals neo-go
	// is still there and answered.
	time.Sleep(time.Second)
	if s.HandshakedPeersCount() != 1 {
		t.Fatal("lost neo-go")
	}
	var peers struct {
		Connected []struct {
			Address string `json:"address"`
		} `json:"connected"`
	}
	if err := node.RPC.Call(ctx, "getpeers", &peers); err != nil {
		t.Fatal(err)
	}
	if len(peers.Connected) != 1 {
		t.Fatalf("neo-go peers: %+v", peers)
	}
}

func decodeAll(t *testing.T, raw [][]byte) []*block.Block {
	out := make([]*block.Block, len(raw))
	for i, b := range raw {
		var err error
		if out[i], err = block.NewBlockFromBytes(b); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestInteropNeoGoSyncsFromUs: we connect to a neo-go node that has only
// the genesis block, and it syncs the whole reference chain from our
// Server: neo-go accepts our version, asks for blocks with
// getblockbyindex, and verifies every block of our answers.
func TestInteropNeoGoSyncsFromUs(t *testing.T) {
	node, addr, blocks := startNeoGoWith(t, false)
	l := ledgerWith(decodeAll(t, blocks))
	cfg := testConfig(8)
	cfg.Magic = refchainMagic
	cfg.Seeds = []string{addr}
	cfg.MinPeers = 1
	s := startNode(t, cfg, l)
	eventually(t, 30*time.Second, "handshake with neo-go", func() bool { return s.HandshakedPeersCount() == 1 })
	ctx := context.Background()
	eventually(t, 60*time.Second, "neo-go synced from us", func() bool {
		var count int
		return node.RPC.Call(ctx, "getblockcount", &count) == nil && count == len(blocks)
	})
	for i := range blocks {
		var want string
		if err := node.RPC.Call(ctx, "getblockhash", &want, i); err != nil {
			t.Fatal(err)
		}
		if got := l.GetHeaderHash(uint32(i)); "0x"+got.StringLE() != want {
			t.Fatalf("block %d: neo-go has %s, we %s", i, want, got.StringLE())
		}
	}
}

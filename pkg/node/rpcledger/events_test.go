package rpcledger_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/stretchr/testify/require"
)

// The WebSocket event test: clients subscribe (with and without filters)
// to a node holding only the genesis block, every block of the reference
// chain is submitted (submitblock), then one transaction is sent; each
// client's messages must be neo-go's, in the same order.

const eventsFile = "testdata/neogo-events.json"

// wsConnRecord is one client: its subscribe requests, then every message
// it received (answers and notifications) in order.
type wsConnRecord struct {
	Subscriptions []json.RawMessage `json:"subscriptions"`
	Messages      []json.RawMessage `json:"messages"`
}

func eventSubscriptions() [][]string {
	gas := "0x" + nativenames.GasHash.StringLE()
	neo := "0x" + nativenames.NeoHash.StringLE()
	return [][]string{
		{`["block_added"]`, `["header_of_added_block"]`, `["transaction_added"]`, `["notification_from_execution"]`, `["transaction_executed"]`, `["mempool_event"]`},
		{`["block_added",{"primary":0,"since":5,"till":9}]`},
		{`["transaction_added",{"sender":"0xa8ef80bdb2abba80a51a2d6cfa0096e4be3765ba"}]`, `["header_of_added_block",{"since":30}]`},
		{`["notification_from_execution",{"contract":"` + gas + `","name":"Transfer"}]`},
		{`["notification_from_execution",{"contract":"` + neo + `"}]`, `["transaction_executed",{"state":"FAULT"}]`},
		{`["transaction_executed",{"container":"0xfe79a6926cb10c004a3b5f57e7e54ff79ff8f1a6020b38e50a406bad80d8b0bf"}]`},
		{`["notification_from_execution",{"name":"Transfer","parameters":[{"type":"Any","value":null},{"type":"Hash160","value":"0xa8ef80bdb2abba80a51a2d6cfa0096e4be3765ba"}]}]`},
		{`["mempool_event",{"type":"added"}]`, `["block_added",{"till":1}]`, `["nosuch"]`},
	}
}

type wsClient struct {
	c   *websocket.Conn
	rec wsConnRecord
}

func dialWS(t *testing.T, addr string, subs []string) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	require.NoError(t, err)
	if resp.Body != nil {
		resp.Body.Close()
	}
	c.SetReadLimit(1 << 24)
	t.Cleanup(func() { c.CloseNow() })
	w := &wsClient{c: c}
	for i, s := range subs {
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"subscribe","params":%s}`, i+1, s)
		require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(msg)))
		w.rec.Subscriptions = append(w.rec.Subscriptions, json.RawMessage(s))
	}
	return w
}

// readAll reads messages until n arrived (n < 0: until none comes for
// idle).
func (w *wsClient) readAll(t *testing.T, n int, idle time.Duration) {
	t.Helper()
	for n < 0 || len(w.rec.Messages) < n {
		ctx, cancel := context.WithTimeout(context.Background(), idle)
		_, b, err := w.c.Read(ctx)
		cancel()
		if err != nil {
			if n < 0 {
				return
			}
			t.Fatalf("read: %v after %d of %d messages", err, len(w.rec.Messages), n)
		}
		w.rec.Messages = append(w.rec.Messages, json.RawMessage(strings.TrimSpace(string(b))))
	}
}

// submitBlocks sends every block but the genesis.
func submitBlocks(t *testing.T, f *refchain.Fixtures, call refchain.Caller) {
	t.Helper()
	for _, b := range f.Blocks[1:] {
		params, _ := json.Marshal([]string{base64.StdEncoding.EncodeToString(b)})
		_, rerr, err := call(context.Background(), "submitblock", params)
		require.NoError(t, err)
		require.Nil(t, rerr, "submitblock: %s", rerr)
	}
}

// sendGoodTx sends the extra set's valid transaction.
func sendGoodTx(t *testing.T, f *refchain.Fixtures, call refchain.Caller) {
	t.Helper()
	params, _ := json.Marshal([]string{base64.StdEncoding.EncodeToString(goodTransaction(t, f).Bytes())})
	_, rerr, err := call(context.Background(), "sendrawtransaction", params)
	require.NoError(t, err)
	require.Nil(t, rerr, "sendrawtransaction: %s", rerr)
}

// blockPart is the number of messages a client got before the first
// mempool event (the block events arrive asynchronously, so the test waits
// for them before it sends the transaction).
func blockPart(msgs []json.RawMessage) int {
	for i, m := range msgs {
		if strings.Contains(string(m), `"method":"mempool_event"`) {
			return i
		}
	}
	return len(msgs)
}

func mustRoots(t testing.TB, f *refchain.Fixtures) []refchain.StateRoot {
	r, err := f.StateRoots()
	require.NoError(t, err)
	return r
}

// genesisChain opens a chain with the fixture's config holding only the
// genesis block (skipping without a NEO native, as restore does).
func genesisChain(t *testing.T, f *refchain.Fixtures) (*core.Blockchain, config.Config) {
	raw, err := os.ReadFile(filepath.Join(f.Dir, refchain.ProtocolFile))
	require.NoError(t, err)
	cfg, err := config.LoadBytes(refchain.ProtocolFile, raw)
	require.NoError(t, err)
	bcfg, err := cfg.Blockchain()
	require.NoError(t, err)
	bc, err := core.New(bcfg, storage.NewMemoryStore(), core.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	if bc.Natives().ByHash(nativenames.NeoHash) == nil {
		bc.Close()
		t.Skip("no NEO native contract in this tree: the reference chain cannot be replayed")
	}
	t.Cleanup(func() { bc.Close() })
	return bc, cfg
}

// startEventServer serves bc with a feeder of its events.
func startEventServer(t *testing.T, bc *core.Blockchain, cfg config.Config) string {
	url := startServer(t, bc, cfg, fakeNet{}, func(c *rpcserver.Config) {})
	return strings.TrimPrefix(url, "http://")
}

func TestNeoGoEventRecords(t *testing.T) {
	data, err := os.ReadFile(eventsFile)
	require.NoError(t, err)
	var want []wsConnRecord
	require.NoError(t, json.Unmarshal(data, &want))
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	bc, cfg := genesisChain(t, f)
	addr := startEventServer(t, bc, cfg)
	subs := eventSubscriptions()
	require.Len(t, want, len(subs))
	clients := make([]*wsClient, len(subs))
	for i := range subs {
		clients[i] = dialWS(t, addr, subs[i])
		clients[i].readAll(t, len(subs[i]), 5*time.Second) // subscription answers
	}
	call := httpCaller("http://" + addr)
	submitBlocks(t, f, call)
	for i, c := range clients {
		c.readAll(t, blockPart(want[i].Messages), 10*time.Second)
	}
	sendGoodTx(t, f, call)
	for i, c := range clients {
		c.readAll(t, len(want[i].Messages), 10*time.Second)
		compareMessages(t, i, want[i].Messages, c.rec.Messages)
	}
	total := 0
	for i := range want {
		total += len(want[i].Messages)
	}
	require.Greater(t, total, 300)
	t.Logf("%d clients, %d messages compared", len(want), total)
}

func compareMessages(t *testing.T, conn int, want, got []json.RawMessage) {
	t.Helper()
	for j := range want {
		if j >= len(got) {
			t.Errorf("client %d: %d messages, want %d", conn, len(got), len(want))
			return
		}
		rec := refchain.Record{Method: "ws", Result: want[j]}
		if d := refchain.Compare(rec, got[j], nil, refchain.ReplayOptions{}); d != "" {
			t.Errorf("client %d message %d: %s\nwant %.300s\ngot  %.300s", conn, j, d, want[j], got[j])
			return
		}
	}
	if len(got) != len(want) {
		t.Errorf("client %d: %d messages, want %d", conn, len(got), len(want))
	}
}

// TestNeoGoLiveEvents records the event streams of neo-go (N3NODE_NEOGO=1)
// and compares ours; N3NODE_NEOGO_UPDATE=1 writes them to eventsFile.
func TestNeoGoLiveEvents(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to run against neo-go 0.120.0 (make rpc-live)")
	}
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	ctx := context.Background()
	bin, err := neogo.Binary(ctx)
	require.NoError(t, err)
	tmpl, err := os.ReadFile(filepath.Join(f.Dir, refchain.ProtocolFile))
	require.NoError(t, err)
	rpcPort, p2pPort := freePort(t), freePort(t)
	cfgText, err := neogo.RenderConfig(tmpl, neogo.ConfigOptions{P2PPort: p2pPort, RPCPort: rpcPort, Consensus: false})
	require.NoError(t, err)
	dir := t.TempDir()
	w, err := os.ReadFile(filepath.Join(f.Dir, "wallet1_solo.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wallet1_solo.json"), w, 0o600))
	n, err := neogo.Start(ctx, neogo.StartOptions{Binary: bin, Dir: dir, Config: cfgText, RPCPort: rpcPort, P2PPort: p2pPort})
	require.NoError(t, err)
	t.Cleanup(func() { n.Stop() })
	refAddr := net.JoinHostPort("127.0.0.1", fmt.Sprint(rpcPort))

	subs := eventSubscriptions()
	refClients := make([]*wsClient, len(subs))
	for i := range subs {
		refClients[i] = dialWS(t, refAddr, subs[i])
		refClients[i].readAll(t, len(subs[i]), 5*time.Second)
	}
	refCall := httpCaller("http://" + refAddr)
	submitBlocks(t, f, refCall)
	for _, c := range refClients {
		c.readAll(t, -1, time.Second)
	}
	sendGoodTx(t, f, refCall)
	var recs []wsConnRecord
	for _, c := range refClients {
		c.readAll(t, -1, time.Second)
		recs = append(recs, c.rec)
	}

	bc, cfg := genesisChain(t, f)
	addr := startEventServer(t, bc, cfg)
	clients := make([]*wsClient, len(subs))
	for i := range subs {
		clients[i] = dialWS(t, addr, subs[i])
		clients[i].readAll(t, len(subs[i]), 5*time.Second)
	}
	call := httpCaller("http://" + addr)
	submitBlocks(t, f, call)
	for i, c := range clients {
		c.readAll(t, blockPart(recs[i].Messages), 10*time.Second)
	}
	sendGoodTx(t, f, call)
	for i, c := range clients {
		c.readAll(t, len(recs[i].Messages), 10*time.Second)
		compareMessages(t, i, recs[i].Messages, c.rec.Messages)
	}
	if os.Getenv("N3NODE_NEOGO_UPDATE") != "" {
		out := []byte("[\n")
		for i, r := range recs {
			b, err := json.Marshal(r)
			require.NoError(t, err)
			out = append(out, b...)
			if i < len(recs)-1 {
				out = append(out, ',')
			}
			out = append(out, '\n')
		}
		require.NoError(t, os.WriteFile(eventsFile, append(out, "]\n"...), 0o644))
	}
}

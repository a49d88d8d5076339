package node

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// waitTimeout bounds every wait for blocks (a 1-second network makes a
// block a second; the bound leaves room for a loaded machine).
const waitTimeout = 30 * time.Second

// testConfig is the embedded single-node privnet with loopback listeners
// on free ports and the database in dir.
func testConfig(t testing.TB, dir string) config.Config {
	t.Helper()
	cfg, err := config.LoadNetwork(config.DefaultNetwork)
	if err != nil {
		t.Fatal(err)
	}
	app := &cfg.ApplicationConfiguration
	app.P2P.Addresses = []string{"127.0.0.1:0"}
	app.RPC.Addresses = []string{"127.0.0.1:0"}
	if err := SetDatabase(&cfg, "", dir); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// fastBlocks makes a test network produce a block every 250 ms (the
// default network's 1 s is checked by TestNode and TestRunBinary).
func fastBlocks(p *config.ProtocolConfiguration) {
	p.TimePerBlock = 250 * time.Millisecond
	p.Genesis.TimePerBlock = p.TimePerBlock
}

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.DiscardHandler)
}

// startNode makes and starts a node; it is shut down at the end of the
// test unless the test does it.
func startNode(t testing.TB, cfg config.Config) *Node {
	t.Helper()
	n, err := New(&cfg, Options{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Shutdown(context.Background()) })
	return n
}

func rpcClient(t testing.TB, n *Node) *rpcclient.Client {
	t.Helper()
	addrs := n.RPCAddresses()
	if len(addrs) == 0 {
		t.Fatal("RPC is not listening")
	}
	c, err := rpcclient.New("http://"+addrs[0], rpcclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// waitBlockCount polls getblockcount until it reaches want.
func waitBlockCount(t testing.TB, c *rpcclient.Client, want uint32) uint32 {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		got, err := c.GetBlockCount(context.Background())
		if err == nil && got >= want {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("block count %d (err %v), want %d within %s", got, err, want, waitTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkBlocks verifies the witness of every block up to the height against
// the previous header's NextConsensus, and logs the block intervals.
func checkBlocks(t testing.TB, bc *core.Blockchain) {
	t.Helper()
	prev, err := bc.GetBlockByIndex(0)
	if err != nil {
		t.Fatal(err)
	}
	var gaps []string
	for i := uint32(1); i <= bc.BlockHeight(); i++ {
		b, err := bc.GetBlockByIndex(i)
		if err != nil {
			t.Fatal(err)
		}
		if b.PrevHash != prev.Hash() {
			t.Fatalf("block %d: previous hash mismatch", i)
		}
		if b.Timestamp <= prev.Timestamp {
			t.Fatalf("block %d: timestamp %d not after %d", i, b.Timestamp, prev.Timestamp)
		}
		if _, err := bc.VerifyWitness(prev.NextConsensus, &b.Header, &b.Witness, core.HeaderVerificationGasLimit); err != nil {
			t.Fatalf("block %d: witness: %v", i, err)
		}
		if i > 1 {
			gaps = append(gaps, (time.Duration(b.Timestamp-prev.Timestamp) * time.Millisecond).String())
		}
		prev = b
	}
	t.Logf("block intervals: %s", strings.Join(gaps, " "))
}

// committee returns the consensus key of the embedded privnet and its
// 1-of-1 multi-signature account (the validators' and committee address
// that holds the genesis GAS).
func committee(t testing.TB, cfg config.Config) (*keys.PrivateKey, []byte) {
	t.Helper()
	ks, err := consensus.UnlockWallet(cfg.ApplicationConfiguration.Consensus.UnlockWallet)
	if err != nil {
		t.Fatal(err)
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript([]*keys.PublicKey{ks[0].PublicKey()})
	if err != nil {
		t.Fatal(err)
	}
	return ks[0], script
}

// transferTx makes a GAS transfer from the committee account, signed.
// Fees are generous fixed values: the test checks the recipient only.
func transferTx(t testing.TB, k *keys.PrivateKey, verif []byte, magic uint32, to hash.Uint160, amount int64, vub uint32) *transaction.Transaction {
	t.Helper()
	from := hash.Hash160(verif)
	w := nio.NewBufBinWriter()
	emit.AppCall(w, nativenames.GasHash, "transfer", callflag.All, from, to, big.NewInt(amount), nil)
	emit.Opcodes(w, opcode.ASSERT)
	if w.Err != nil {
		t.Fatal(w.Err)
	}
	tx := transaction.New(w.Bytes(), uint32(time.Now().UnixNano()), 1_0000_0000, 1000_0000, vub)
	tx.Signers = []transaction.Signer{{Account: from, Scopes: transaction.CalledByEntry}}
	tx.Attributes = []transaction.Attribute{}
	sd := tx.SignData(magic)
	sig := k.Sign(sd[:])
	inv := append([]byte{byte(opcode.PUSHDATA1), byte(len(sig))}, sig...)
	tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: verif}}
	return tx
}

type appLog struct {
	Executions []struct {
		VMState   string `json:"vmstate"`
		Exception string `json:"exception"`
	} `json:"executions"`
}

// waitAppLog polls getapplicationlog until the transaction is in a block.
func waitAppLog(t testing.TB, c *rpcclient.Client, h hash.Uint256) appLog {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		var res appLog
		err := c.Call(context.Background(), "getapplicationlog", []any{h.StringLE()}, &res)
		if err == nil {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("transaction %s not in a block within %s: %v", h.StringLE(), waitTimeout, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// gasBalance asks the node for balanceOf over invokefunction.
func gasBalance(t testing.TB, c *rpcclient.Client, acc hash.Uint160) *big.Int {
	t.Helper()
	var res struct {
		State string `json:"state"`
		Stack []struct {
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"stack"`
	}
	args := []any{map[string]string{"type": "Hash160", "value": "0x" + acc.StringLE()}}
	if err := c.Call(context.Background(), "invokefunction", []any{nativenames.GasHash.StringLE(), "balanceOf", args}, &res); err != nil {
		t.Fatal(err)
	}
	if res.State != "HALT" || len(res.Stack) != 1 {
		t.Fatalf("balanceOf: %+v", res)
	}
	v, ok := new(big.Int).SetString(res.Stack[0].Value, 10)
	if !ok {
		t.Fatalf("balanceOf: %+v", res)
	}
	return v
}

func hasGAS(bc *core.Blockchain) bool {
	return bc.GetContractState(nativenames.GasHash) != nil
}

// TestNode runs the embedded privnet in-process: blocks come every second
// and carry valid witnesses, a GAS transfer sent over JSON-RPC lands, the
// node shuts down cleanly and a new node on the same database continues
// from the persisted height.
func TestNode(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	n := startNode(t, cfg)
	c := rpcClient(t, n)

	count := waitBlockCount(t, c, 4)
	checkBlocks(t, n.Chain())
	if got := n.ValidatorKeys(); len(got) != 1 || got[0].StringCompressed() != cfg.ProtocolConfiguration.StandbyCommittee[0] {
		t.Fatalf("validator keys %v", got)
	}

	var (
		to     = hash.Uint160{1, 2, 3, 4, 5}
		amount = int64(12_3456_7890)
		txHash hash.Uint256
	)
	if !hasGAS(n.Chain()) {
		t.Log("GasToken is not in this build yet: transfer skipped")
	} else {
		k, verif := committee(t, cfg)
		tx := transferTx(t, k, verif, uint32(cfg.ProtocolConfiguration.Magic), to, amount, count+100)
		var res struct {
			Hash string `json:"hash"`
		}
		if err := c.Call(context.Background(), "sendrawtransaction", []any{base64.StdEncoding.EncodeToString(tx.Bytes())}, &res); err != nil {
			t.Fatal(err)
		}
		if res.Hash != "0x"+tx.Hash().StringLE() {
			t.Fatalf("sendrawtransaction: %s, want 0x%s", res.Hash, tx.Hash().StringLE())
		}
		txHash = tx.Hash()
		log := waitAppLog(t, c, txHash)
		if len(log.Executions) != 1 || log.Executions[0].VMState != "HALT" {
			t.Fatalf("application log %+v", log)
		}
		if got := gasBalance(t, c, to); got.Int64() != amount {
			t.Fatalf("balance %s, want %d", got, amount)
		}
	}

	if err := n.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := n.Shutdown(context.Background()); err != nil { // idempotent
		t.Fatal(err)
	}
	height := n.Chain().BlockHeight()

	// A second node on the same data: everything is there and it goes on.
	n2 := startNode(t, cfg)
	if got := n2.Chain().BlockHeight(); got < height {
		t.Fatalf("restarted at height %d, was %d", got, height)
	}
	if !txHash.IsZero() {
		if got := n2.Chain().GetUtilityTokenBalance(to); got.Int64() != amount {
			t.Fatalf("balance after restart %s, want %d", got, amount)
		}
	}
	waitBlockCount(t, rpcClient(t, n2), height+3)
	checkBlocks(t, n2.Chain())
	if err := n2.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestLocked: a second node on the same database fails with a clear
// error while the first runs.
func TestLocked(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.ApplicationConfiguration.Consensus.Enabled = false
	n, err := New(&cfg, Options{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Shutdown(context.Background())
	_, err = New(&cfg, Options{Logger: testLogger(t)})
	if !errors.Is(err, ErrDatabaseLocked) {
		t.Fatalf("second node: %v, want ErrDatabaseLocked", err)
	}
	if !strings.Contains(err.Error(), "another node is running on the database "+cfg.ApplicationConfiguration.DBConfiguration.Path()) {
		t.Fatalf("error text: %v", err)
	}
}

// TestNotStarted: a node that was never started closes its chain.
func TestNotStarted(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	n, err := New(&cfg, Options{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); !errors.Is(err, ErrState) {
		t.Fatalf("Start after Shutdown: %v", err)
	}
	// The database was released.
	n, err = New(&cfg, Options{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	_ = n.Shutdown(context.Background())
}

// TestMetrics: with Prometheus and pprof on, the endpoints serve the
// chain's figures and the RPC calls are counted, under n3node's names and
// neo-go's.
func TestMetrics(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	app := &cfg.ApplicationConfiguration
	app.Prometheus = config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}
	app.Pprof.BasicService = config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}
	n := startNode(t, cfg)
	c := rpcClient(t, n)
	waitBlockCount(t, c, 2)
	if len(n.PrometheusAddresses()) != 1 || len(n.PprofAddresses()) != 1 {
		t.Fatal(n.PrometheusAddresses(), n.PprofAddresses())
	}
	body := httpGet(t, "http://"+n.PrometheusAddresses()[0]+"/metrics")
	for _, want := range []string{
		"n3node_block_height ", "n3node_header_height ", "n3node_mempool_unsorted_tx 0", "n3node_peers_connected 0",
		`n3node_block_add_seconds_count{origin="consensus"}`, "n3node_persists_total",
		`n3node_rpc_requests_total{method="getblockcount",result="ok"}`,
		// neo-go's names beside ours (pkg/metrics TestNeoGoNames lists them).
		"neogo_block_height ", "neogo_persisted_height ", "neogo_peers_connected 0",
		"neogo_rpc_getblockcount_time_count ", "neogo_rpc_getversion_time_count 0",
		"neogo_p2p_cmdblock_time_count 0", "neogo_verified_state_height ",
		`neogo_version{version="` + DefaultVersion + `"} 1`, "neogo_server_id{server_id=",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in the metrics", want)
		}
	}
	if body := httpGet(t, "http://"+n.PprofAddresses()[0]+"/debug/pprof/"); !strings.Contains(body, "goroutine") {
		t.Errorf("pprof index: %s", body)
	}
	if err := n.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + n.PrometheusAddresses()[0] + "/metrics"); err == nil {
		t.Fatal("metrics still served after Shutdown")
	}
}

func httpGet(t testing.TB, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(b)
}

// TestWatchOnlyPeer: a second node without consensus, seeded with the
// validator's P2P address, follows the chain: blocks arrive over P2P and
// are verified and added, the validator's consensus payloads pass the
// extensible check (a refused one would drop the peer).
func TestWatchOnlyPeer(t *testing.T) {
	acfg := testConfig(t, t.TempDir())
	fastBlocks(&acfg.ProtocolConfiguration)
	a := startNode(t, acfg)
	cfg := testConfig(t, t.TempDir())
	fastBlocks(&cfg.ProtocolConfiguration)
	cfg.ApplicationConfiguration.Consensus.Enabled = false
	cfg.ApplicationConfiguration.RPC.Enabled = false
	cfg.ProtocolConfiguration.SeedList = a.P2PAddresses()
	b := startNode(t, cfg)
	if len(b.ValidatorKeys()) != 0 || len(b.RPCAddresses()) != 0 {
		t.Fatal("watch-only node has keys or RPC")
	}
	deadline := time.Now().Add(waitTimeout)
	for b.Chain().BlockHeight() < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("watch-only node at %d, validator at %d", b.Chain().BlockHeight(), a.Chain().BlockHeight())
		}
		time.Sleep(50 * time.Millisecond)
	}
	h := b.Chain().BlockHeight()
	if b.Chain().CurrentBlockHash() != a.Chain().GetHeaderHash(h) {
		t.Fatalf("block %d differs", h)
	}
	checkBlocks(t, b.Chain())
	if b.Server().PeerCount() != 1 || a.Server().PeerCount() != 1 {
		t.Fatalf("peers: validator %d, watcher %d", a.Server().PeerCount(), b.Server().PeerCount())
	}
	if len(b.Server().BadPeers()) != 0 {
		t.Fatalf("bad peers: %v", b.Server().BadPeers())
	}
}

// TestFourValidators runs the embedded 4-node private network in one
// process: three validators find each other over P2P and agree on blocks
// (consensus payloads go through the extensible path both ways, each block
// carries the 3-of-4 multi-signature), then the fourth joins late, catches
// up through headers and blocks and takes part.
func TestFourValidators(t *testing.T) {
	if testing.Short() {
		t.Skip("four nodes")
	}
	var (
		nodes []*Node
		seeds []string
	)
	start := func(i int) {
		cfg, err := config.LoadNetwork(fmt.Sprintf("privnet4-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		cfg.ProtocolConfiguration.MaxTimePerBlock = 0 // a block every interval
		fastBlocks(&cfg.ProtocolConfiguration)
		cfg.ProtocolConfiguration.SeedList = append([]string(nil), seeds...)
		app := &cfg.ApplicationConfiguration
		app.P2P.Addresses = []string{"127.0.0.1:0"}
		app.RPC.Enabled = false
		if err := SetDatabase(&cfg, "", t.TempDir()); err != nil {
			t.Fatal(err)
		}
		n := startNode(t, cfg)
		nodes = append(nodes, n)
		seeds = append(seeds, n.P2PAddresses()...)
	}
	// waitAll waits until every node is at height h or more and returns
	// the lowest height.
	waitAll := func(h uint32) uint32 {
		deadline := time.Now().Add(waitTimeout)
		for {
			low := nodes[0].Chain().BlockHeight()
			for _, n := range nodes[1:] {
				low = min(low, n.Chain().BlockHeight())
			}
			if low >= h {
				return low
			}
			if time.Now().After(deadline) {
				t.Fatalf("lowest height %d, want %d", low, h)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	for i := 1; i <= 3; i++ {
		start(i)
	}
	h := waitAll(3)
	start(4)
	low := waitAll(h + 3)
	want := nodes[0].Chain().GetHeaderHash(low)
	for i, n := range nodes {
		if got := n.Chain().GetHeaderHash(low); got != want {
			t.Fatalf("node %d: block %d is %s, node 1 has %s", i+1, low, got.StringLE(), want.StringLE())
		}
		if len(n.Server().BadPeers()) != 0 {
			t.Fatalf("node %d: bad peers %v", i+1, n.Server().BadPeers())
		}
	}
	checkBlocks(t, nodes[3].Chain())
	primaries := map[byte]bool{}
	for i := uint32(1); i <= low; i++ {
		b, err := nodes[3].Chain().GetBlockByIndex(i)
		if err != nil {
			t.Fatal(err)
		}
		primaries[b.PrimaryIndex] = true
	}
	t.Logf("the fourth validator joined at height %d; height %d, primaries %v", h, low, primaries)
}

// TestStartFails: a listener that cannot be bound fails Start, and the
// node releases everything (the database opens again).
func TestStartFails(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	cfg := testConfig(t, t.TempDir())
	cfg.ApplicationConfiguration.Consensus.Enabled = false // no scrypt per New
	for _, set := range []func(){
		func() { cfg.ApplicationConfiguration.RPC.Addresses = []string{busy.Addr().String()} },
		func() {
			cfg.ApplicationConfiguration.RPC.Addresses = []string{"127.0.0.1:0"}
			cfg.ApplicationConfiguration.P2P.Addresses = []string{busy.Addr().String()}
		},
		func() {
			cfg.ApplicationConfiguration.P2P.Addresses = []string{"127.0.0.1:0"}
			cfg.ApplicationConfiguration.Prometheus = config.BasicService{Enabled: true, Addresses: []string{busy.Addr().String()}}
		},
	} {
		set()
		n, err := New(&cfg, Options{Logger: testLogger(t)})
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Start(context.Background()); err == nil || !strings.Contains(err.Error(), busy.Addr().String()) {
			t.Fatalf("Start: %v", err)
		}
		if err := n.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	n, err := New(&cfg, Options{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	_ = n.Shutdown(context.Background())
}

// TestBadConsensusWallet: a wrong password is an error of New.
func TestBadConsensusWallet(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.ApplicationConfiguration.Consensus.UnlockWallet.Password = "wrong"
	if _, err := New(&cfg, Options{Logger: testLogger(t)}); !errors.Is(err, consensus.ErrNoKeys) {
		t.Fatalf("New: %v", err)
	}
	// The database was closed.
	cfg.ApplicationConfiguration.Consensus.Enabled = false
	n, err := New(&cfg, Options{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	_ = n.Shutdown(context.Background())
}

// TestBlockLimits: the configured MaxTransactionsPerBlock and
// MaxBlockSystemFee bound the blocks the validator makes.
func TestBlockLimits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		set    func(*config.ProtocolConfiguration)
		perBlk int
	}{
		{"MaxTransactionsPerBlock", func(p *config.ProtocolConfiguration) { p.MaxTransactionsPerBlock = 2 }, 2},
		{"MaxBlockSystemFee", func(p *config.ProtocolConfiguration) { p.MaxBlockSystemFee = 3_5000_0000 }, 3}, // 1 GAS per transaction
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, t.TempDir())
			fastBlocks(&cfg.ProtocolConfiguration)
			tc.set(&cfg.ProtocolConfiguration)
			n := startNode(t, cfg)
			c := rpcClient(t, n)
			count := waitBlockCount(t, c, 2)
			k, verif := committee(t, cfg)
			var hashes []hash.Uint256
			for i := range 7 {
				tx := transferTx(t, k, verif, uint32(cfg.ProtocolConfiguration.Magic), hash.Uint160{byte(i + 1)}, 1, count+100)
				if err := n.Server().RelayTx(tx); err != nil {
					t.Fatal(err)
				}
				hashes = append(hashes, tx.Hash())
			}
			for _, h := range hashes {
				waitAppLog(t, c, h)
			}
			fullest := 0
			for i := uint32(1); i <= n.Chain().BlockHeight(); i++ {
				b, err := n.Chain().GetBlockByIndex(i)
				if err != nil {
					t.Fatal(err)
				}
				fullest = max(fullest, len(b.Transactions))
			}
			if fullest != tc.perBlk {
				t.Fatalf("fullest block has %d transactions, want %d", fullest, tc.perBlk)
			}
		})
	}
}

// TestWaitForSync: with MinPeers 1 and no peer, consensus and an RPC
// server with StartWhenSynchronized wait; Shutdown works all the same.
func TestWaitForSync(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.ApplicationConfiguration.P2P.MinPeers = 1
	cfg.ApplicationConfiguration.RPC.StartWhenSynchronized = true
	n := startNode(t, cfg)
	time.Sleep(300 * time.Millisecond)
	if h := n.Chain().BlockHeight(); h != 0 || len(n.RPCAddresses()) != 0 {
		t.Fatalf("height %d, RPC %v before sync", h, n.RPCAddresses())
	}
	if err := n.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestWebSocket: chain events reach WebSocket subscribers, and getversion
// describes the node.
func TestWebSocket(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	fastBlocks(&cfg.ProtocolConfiguration)
	n := startNode(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	ws, err := rpcclient.DialWS(ctx, "ws://"+n.RPCAddresses()[0]+"/ws", rpcclient.WSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ch := make(chan rpcclient.Notification, 16)
	if _, err := ws.Subscribe(ctx, neorpc.BlockEventID, nil, ch); err != nil {
		t.Fatal(err)
	}
	start := n.Chain().BlockHeight()
	for seen := 0; seen < 2; {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatal("subscription closed")
			}
			var b struct {
				Index uint32 `json:"index"`
				Hash  string `json:"hash"`
			}
			if err := json.Unmarshal(ev.Payload, &b); err != nil {
				t.Fatal(err)
			}
			if b.Index <= start || b.Hash != "0x"+n.Chain().GetHeaderHash(b.Index).StringLE() {
				t.Fatalf("block event %+v (start %d)", b, start)
			}
			seen++
		case <-ctx.Done():
			t.Fatal("no block events")
		}
	}
	c := rpcClient(t, n)
	v, err := c.GetVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(n.P2PAddresses()[0])
	if v.Protocol.Network != 56753 || fmt.Sprint(v.TCPPort) != port || v.UserAgent != "/n3node:"+DefaultVersion+"/" || v.Nonce != n.Server().ID() {
		t.Fatalf("getversion: %+v", v)
	}
}

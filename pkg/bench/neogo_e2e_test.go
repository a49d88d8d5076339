package bench_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/config"
)

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestNeoGoEndToEnd runs a short benchmark against a fresh neo-go 0.120.0
// single node with the benchmark configuration (make bench-neogo-e2e).
func TestNeoGoEndToEnd(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") != "1" {
		t.Skip("set N3NODE_NEOGO=1 to run against neo-go (scripts/get-neogo.sh fetches it)")
	}
	ctx := context.Background()
	bin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := os.ReadFile(filepath.Join("testdata", "neogo-single.yml"))
	if err != nil {
		t.Fatal(err)
	}
	rpcPort, p2pPort := freePort(t), freePort(t)
	cfg, err := neogo.RenderConfig(tmpl, neogo.ConfigOptions{RPCPort: rpcPort, P2PPort: p2pPort, Consensus: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	wallet, err := config.EmbeddedWallet("wallet1_solo.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wallet1_solo.json"), wallet, 0o600); err != nil {
		t.Fatal(err)
	}
	node, err := neogo.Start(ctx, neogo.StartOptions{Binary: bin, Dir: dir, Config: cfg, RPCPort: rpcPort, P2PPort: p2pPort})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Stop()

	out := filepath.Join(dir, "out")
	res, err := bench.Run(ctx, bench.Config{
		Endpoints:   []string{node.RPC.URL},
		Workers:     10,
		Count:       5000,
		TimeLimit:   30 * time.Second,
		CacheDir:    filepath.Join(dir, "cache"),
		OutDir:      out,
		Pid:         node.Pid(),
		Description: "neo-go 0.120.0 e2e",
		Log:         testLog{t},
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, node.LogTail(20))
	}
	if res.Funding.Skipped || len(res.Funding.TxHashes) != 2 {
		t.Errorf("funding: %+v", res.Funding)
	}
	if res.Send.Accepted != 5000 || res.Send.Errors != 0 || res.Send.Stopped != "workload used up" {
		t.Fatalf("send: %+v", res.Send)
	}
	if !res.Drain.Complete || res.InBlocks != 5000 || res.TPS.Txs != 5000 || res.TPS.TPS <= 0 {
		t.Fatalf("blocks: in %d, drain %+v, TPS %+v", res.InBlocks, res.Drain, res.TPS)
	}
	if res.Resources.Samples == 0 || res.Resources.RSSMeanMiB <= 0 {
		t.Errorf("no resource samples: %+v", res.Resources)
	}
	// Cross-check the window's edges with neo-go's verbose blocks.
	for _, want := range []bench.BlockStat{res.Blocks[0], res.Blocks[len(res.Blocks)-1]} {
		var b struct {
			Time  uint64 `json:"time"`
			Index uint32 `json:"index"`
			Size  int    `json:"size"`
			Tx    []any  `json:"tx"`
		}
		if err := node.RPC.Call(ctx, "getblock", &b, want.Index, true); err != nil {
			t.Fatal(err)
		}
		if b.Time != want.Timestamp || len(b.Tx) != want.Txs || b.Size != want.Size {
			t.Errorf("block %d: neo-go says time %d, %d txs, %d bytes; bench saw %+v", want.Index, b.Time, len(b.Tx), b.Size, want)
		}
	}
	for _, f := range []string{bench.ResultFile, bench.SummaryFile, bench.TPSPlotFile, bench.ResourcesFile} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	t.Logf("neo-go: TPS %.0f, RPS %.0f, CPU %.1f %%, RSS %.0f MiB over %d blocks",
		res.TPS.TPS, res.RPS, res.Resources.CPUMean, res.Resources.RSSMeanMiB, len(res.PerBlock))
}

type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(string(b[:len(b)-1]))
	return len(b), nil
}

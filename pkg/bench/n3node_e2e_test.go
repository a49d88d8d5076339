package bench_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/node"
)

// startN3node runs an n3node single consensus node in this process with the
// benchmark configuration (testdata/neogo-single.yml, as `n3node run --config
// F --relative-path dir --db pebble` would), P2P and RPC on free loopback
// ports. It returns the RPC URL; the node stops when the test ends.
func startN3node(t *testing.T, dir string) string {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "neogo-single.yml"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl = bytes.Replace(tmpl, []byte("127.0.0.1:40333"), []byte("127.0.0.1:0"), 1)
	tmpl = bytes.Replace(tmpl, []byte("127.0.0.1:40332"), []byte("127.0.0.1:0"), 1)
	cfg, err := config.LoadBytes("neogo-single.yml", tmpl)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ResolveRelativePaths(dir)
	if err := node.SetDatabase(&cfg, "pebble", filepath.Join(dir, "chain")); err != nil {
		t.Fatal(err)
	}
	wallet, err := config.EmbeddedWallet("wallet1_solo.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wallet1_solo.json"), wallet, 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	n, err := node.New(&cfg, node.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		_ = n.Shutdown(context.Background())
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := n.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	addrs := n.RPCAddresses()
	if len(addrs) == 0 {
		t.Fatal("the node has no RPC address")
	}
	return "http://" + addrs[0]
}

// TestN3nodeEndToEnd runs a short benchmark (2,000 transactions, one
// worker per core and a few more) against n3node started in this process on
// a fresh chain: the same preparation, load and measurement as against
// neo-go (TestNeoGoEndToEnd), in plain `go test`. The process samples itself,
// so its CPU figure includes the load generator.
func TestN3nodeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a node and produces blocks for a few seconds")
	}
	dir := t.TempDir()
	url := startN3node(t, dir)
	ctx := context.Background()
	out := filepath.Join(dir, "out")
	const count = 2000
	res, err := bench.Run(ctx, bench.Config{
		Endpoints:   []string{url},
		Workers:     4,
		Count:       count,
		TimeLimit:   30 * time.Second,
		OutDir:      out,
		Pid:         os.Getpid(),
		Description: "n3node e2e",
		Log:         testLog{t},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Node.UserAgent == "" || res.Node.Validators != 1 || res.Node.MSPerBlock != 1000 {
		t.Errorf("node facts: %+v", res.Node.NodeInfo)
	}
	if res.Funding.Skipped || len(res.Funding.TxHashes) != 2 {
		t.Errorf("funding: %+v", res.Funding)
	}
	if res.Send.Accepted != count || res.Send.Errors != 0 || res.Send.Stopped != "workload used up" {
		t.Fatalf("send: %+v", res.Send)
	}
	if !res.Drain.Complete || res.InBlocks != count || res.TPS.Txs != count || res.TPS.TPS <= 0 || res.RPS <= 0 {
		t.Fatalf("blocks: in %d, drain %+v, TPS %+v, RPS %v", res.InBlocks, res.Drain, res.TPS, res.RPS)
	}
	if res.Resources.Samples == 0 || res.Resources.RSSMeanMiB <= 0 {
		t.Errorf("no resource samples: %+v", res.Resources)
	}
	for _, f := range []string{bench.ResultFile, bench.SummaryFile, bench.TPSPlotFile, bench.ResourcesFile} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	t.Logf("n3node: TPS %.0f, RPS %.0f over %d blocks", res.TPS.TPS, res.RPS, len(res.PerBlock))
}

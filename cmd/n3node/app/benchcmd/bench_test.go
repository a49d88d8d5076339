package benchcmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/config"

	"github.com/urfave/cli/v3"
)

func TestBenchGenAndCompare(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) string {
		var out bytes.Buffer
		cmd := testRoot()
		cmd.Writer = &out
		if err := cmd.Run(context.Background(), append([]string{"n3node", "bench"}, args...)); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String()
	}
	if out := run("gen", "-n", "20", "--cache-dir", dir); !strings.HasPrefix(out, "generated 20 transactions of 245 bytes") {
		t.Fatalf("gen: %q", out)
	}
	if out := run("gen", "-n", "20", "--cache-dir", dir); !strings.HasPrefix(out, "found 20 transactions") {
		t.Fatalf("gen again: %q", out)
	}
	// compare over two result files.
	for i, tps := range []float64{100, 300} {
		r := &bench.Result{RPS: tps}
		r.TPS.TPS = tps
		d := filepath.Join(dir, "run"+string(rune('a'+i)))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := bench.WriteOutputs(d, r); err != nil {
			t.Fatal(err)
		}
	}
	out := run("compare", "a="+filepath.Join(dir, "runa"), "b="+filepath.Join(dir, "runb", bench.ResultFile))
	if !strings.Contains(out, "| TPS | 100 (100 … 100) | 300 (300 … 300) | 3.00 |") {
		t.Fatalf("compare:\n%s", out)
	}
	// report redraws from result.json.
	os.Remove(filepath.Join(dir, "runa", bench.SummaryFile))
	r := &bench.Result{Blocks: []bench.BlockStat{{Index: 1, Timestamp: 1000}, {Index: 2, Timestamp: 1500, Txs: 50}}}
	if err := bench.WriteOutputs(filepath.Join(dir, "runa"), r); err != nil {
		t.Fatal(err)
	}
	if out := run("report", filepath.Join(dir, "runa")); !strings.Contains(out, "TPS 100.0") {
		t.Fatalf("report: %q", out)
	}
	var out2 bytes.Buffer
	cmd := testRoot()
	cmd.Writer = &out2
	if err := cmd.Run(context.Background(), []string{"n3node", "bench", "compare", "nonsense"}); err == nil {
		t.Fatal("bad compare argument accepted")
	}
}

// TestWalletWIFs reads the privnet validator keys from the embedded NEP-6
// wallets and checks them against the built-in ones.
func TestWalletWIFs(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"wallet1.json", "wallet2.json", "wallet3.json", "wallet4.json"} {
		b, err := config.EmbeddedWallet(name)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	wifs, err := walletWIFs(paths, []string{"one", "two", "three", "four"})
	if err != nil {
		t.Fatal(err)
	}
	got, want := slices.Sorted(slices.Values(wifs)), slices.Sorted(slices.Values(bench.FourNodeWIFs))
	if !slices.Equal(got, want) {
		t.Fatalf("wallet keys %v, want %v", got, want)
	}
	if _, err := walletWIFs(paths[:1], []string{"wrong"}); err == nil {
		t.Fatal("wrong password accepted")
	}
	if _, err := walletWIFs(paths, []string{"one", "two"}); err == nil {
		t.Fatal("password count mismatch accepted")
	}
}

// testRoot is the n3node root command with this family only.
func testRoot() *cli.Command {
	return &cli.Command{Name: "n3node", Commands: []*cli.Command{Command()}}
}

package multinode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/bench"
)

// EnvBench enables TestFourNodeBench (`make bench-4node`).
const EnvBench = "N3NODE_MULTINODE_BENCH"

// Settings of TestFourNodeBench (the names of scripts/bench-vs-neogo.sh
// where it has them).
const (
	envBenchTxs     = "TXS"        // workload size, default 200000
	envBenchLimit   = "TIME_LIMIT" // send limit per run, default 60s
	envBenchRuns    = "RUNS"       // runs per implementation, default 2
	envBenchWorkers = "WORKERS"    // default 10
	envBenchOut     = "OUT"        // results directory, default $TMPDIR/n3node-bench-4node
	envBenchKinds   = "KINDS"      // "n3node,neo-go" (default) or one of them
	envBenchCache   = "CACHE_DIR"  // workload cache, default ~/.cache/n3node/bench
	// FROM lists directories (comma-separated) of earlier OUTs whose runs
	// join the tables; with RUNS=0 the test only redraws the tables.
	envBenchFrom = "FROM"
	// PPROF=1 enables every node's pprof server (ports in the log).
	envBenchPprof = "PPROF"
)

// loadBenchRuns reads the network.json of every run directory under dir.
func loadBenchRuns(t *testing.T, dir string) []*NetworkBenchResult {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*-run*", "network.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*NetworkBenchResult
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r NetworkBenchResult
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if r.Cores == 0 { // written before the field existed, on this machine
			r.Cores = runtime.NumCPU()
		}
		out = append(out, &r)
	}
	return out
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// TestFourNodeBench measures `n3node bench` against a 4-validator network
// with a separate RPC node (BenchProtocol, neo-bench's 4-node setup), for
// n3node and for neo-go 0.120.0, runs interleaved A B B A ..., and writes
// every run's outputs, comparison.md (RPC node: bench.WriteComparison,
// ratios n3node / neo-go) and network.md (every process and their sum)
// into OUT.
func TestFourNodeBench(t *testing.T) {
	if os.Getenv(EnvBench) != "1" {
		t.Skipf("set %s=1 (make bench-4node): starts ten node processes and loads them for minutes", EnvBench)
	}
	txs, err := strconv.Atoi(envOr(envBenchTxs, "200000"))
	if err != nil {
		t.Fatal(err)
	}
	limit, err := time.ParseDuration(envOr(envBenchLimit, "60s"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := strconv.Atoi(envOr(envBenchRuns, "2"))
	if err != nil {
		t.Fatal(err)
	}
	workers, err := strconv.Atoi(envOr(envBenchWorkers, "10"))
	if err != nil {
		t.Fatal(err)
	}
	out := envOr(envBenchOut, filepath.Join(os.TempDir(), "n3node-bench-4node"))
	cache := os.Getenv(envBenchCache)
	if cache == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(d, "n3node", "bench")
	}
	var kinds []Kind
	for k := range strings.SplitSeq(envOr(envBenchKinds, "n3node,neo-go"), ",") {
		switch Kind(k) {
		case N3Node, NeoGo:
			kinds = append(kinds, Kind(k))
		default:
			t.Fatalf("%s: unknown kind %q", envBenchKinds, k)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(out, 0o755))
	t.Logf("results in %s; %d txs, send limit %s, %d workers, %d runs of %v", out, txs, limit, workers, runs, kinds)

	results := make(map[Kind][]*NetworkBenchResult)
	if from := os.Getenv(envBenchFrom); from != "" {
		for d := range strings.SplitSeq(from, ",") {
			rs := loadBenchRuns(t, d)
			if len(rs) == 0 {
				t.Fatalf("%s: no runs in %s", envBenchFrom, d)
			}
			for _, r := range rs {
				results[r.Kind] = append(results[r.Kind], r)
			}
		}
	}
	var o Options
	for _, k := range kinds {
		if runs == 0 {
			break
		}
		switch k {
		case N3Node:
			o.N3Node = N3NodeForTest(t)
		case NeoGo:
			o.NeoGo = NeoGoForTest(t)
		}
	}
	ctx := context.Background()
	for run := 1; run <= runs; run++ {
		order := kinds
		if run%2 == 0 { // A B, B A, A B, ...
			order = []Kind{kinds[len(kinds)-1]}
			if len(kinds) > 1 {
				order = append(order, kinds[0])
			}
		}
		for _, k := range order {
			name := fmt.Sprintf("%s-run%d", k, run)
			r := benchOnce(ctx, t, o, k, name, bench.Config{
				Workers: workers, Count: txs, TimeLimit: limit, CacheDir: cache,
				OutDir: filepath.Join(out, name), DrainTimeout: 90 * time.Second,
				Description: fmt.Sprintf("%s, 4 validators + RPC node, 5 s blocks, run %d", k, run),
				Log:         testLog{t},
			})
			b, err := json.MarshalIndent(r, "", "  ")
			must(err)
			must(os.WriteFile(filepath.Join(out, name, "network.json"), b, 0o644))
			results[k] = append(results[k], r)
		}
	}

	var sums []bench.Summary
	for _, k := range []Kind{NeoGo, N3Node} { // ratios are n3node / neo-go
		if rs := results[k]; len(rs) > 0 {
			br := make([]*bench.Result, len(rs))
			for i, r := range rs {
				br[i] = r.Bench
			}
			sums = append(sums, bench.Summarize(string(k), br))
		}
	}
	var cmp bytes.Buffer
	bench.WriteComparison(&cmp, sums...)
	must(os.WriteFile(filepath.Join(out, "comparison.md"), cmp.Bytes(), 0o644))
	t.Logf("RPC node:\n%s", cmp.String())
	if len(results[NeoGo]) > 0 && len(results[N3Node]) > 0 {
		var nwc bytes.Buffer
		WriteNetworkComparison(&nwc, results[NeoGo], results[N3Node])
		must(os.WriteFile(filepath.Join(out, "network.md"), nwc.Bytes(), 0o644))
		t.Logf("network:\n%s", nwc.String())
	}
}

// benchOnce starts a fresh benchmark network of one kind, waits for its
// blocks, runs the benchmark against its RPC node and stops it
// (N3NODE_MULTINODE_KEEP keeps its directory).
func benchOnce(ctx context.Context, t *testing.T, o Options, k Kind, name string, cfg bench.Config) *NetworkBenchResult {
	t.Helper()
	o.Dir = filepath.Join(t.TempDir(), name)
	if keep := os.Getenv(EnvKeep); keep != "" {
		o.Dir = filepath.Join(keep, name)
		if err := os.RemoveAll(o.Dir); err != nil {
			t.Fatal(err)
		}
		t.Logf("network directory %s", o.Dir)
	}
	o.Nodes = BenchSpecs(k)
	var pprof []int
	if os.Getenv(envBenchPprof) == "1" {
		var err error
		if pprof, err = FreePorts(len(o.Nodes)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range o.Nodes {
		o.Nodes[i].LogLevel = os.Getenv(EnvLogLevel)
		if pprof != nil {
			o.Nodes[i].PprofPort = pprof[i]
		}
	}
	o.Protocol = BenchProtocol
	nw, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nw.Nodes {
		if n.Spec.PprofPort != 0 {
			t.Logf("%s: pprof on http://%s/debug/pprof/", n.Name, loopback(n.Spec.PprofPort))
		}
	}
	fail := func(err error) {
		t.Helper()
		for _, n := range nw.Nodes {
			t.Logf("--- %s log tail:\n%s", n.Name, n.LogTail(40))
		}
		nw.Kill()
		t.Fatal(err)
	}
	sctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if err := nw.Start(sctx); err != nil {
		fail(err)
	}
	if _, err := WaitBlocks(sctx, 1, nw.Nodes...); err != nil {
		fail(err)
	}
	start := time.Now()
	r, err := nw.RunBench(ctx, cfg)
	if err != nil {
		fail(err)
	}
	b := r.Bench
	// A figure of a network that forked would mean nothing: every node
	// must hold the same blocks and state roots up to the last one.
	cctx, cancel2 := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel2()
	if err := WaitHeight(cctx, b.TPS.LastBlock, nw.Nodes...); err != nil {
		fail(err)
	}
	if err := CompareChains(cctx, 0, b.TPS.LastBlock, nw.Nodes...); err != nil {
		fail(err)
	}
	t.Logf("%s: TPS %.0f, RPS %.0f, %d txs in blocks %d..%d; RPC node CPU %.1f %%, RSS %.0f MiB; all five CPU %.1f %%, RSS %.0f MiB (%s)",
		k, b.TPS.TPS, b.RPS, b.TPS.Txs, b.TPS.FirstBlock, b.TPS.LastBlock, b.Resources.CPUMean, b.Resources.RSSMeanMiB,
		r.Sum.CPUMean, r.Sum.RSSMeanMiB, time.Since(start).Round(time.Second))
	if err := nw.Close(); err != nil {
		t.Errorf("%s: stopping: %v", k, err)
	}
	return r
}

// testLog writes bench progress lines to the test log.
type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

package bench

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeConfig is a short run against a fake node.
func fakeConfig(n *fakeNode, dir string, count int) Config {
	return Config{
		Endpoints:    []string{n.srv.URL},
		Workers:      4,
		Count:        count,
		CacheDir:     filepath.Join(dir, "cache"),
		OutDir:       filepath.Join(dir, "out"),
		PollPeriod:   10 * time.Millisecond,
		SamplePeriod: 20 * time.Millisecond,
		Description:  "fake node",
	}
}

// expectTPS recomputes TPS from the fake node's own blocks after the
// reference block: Σ txs / (timestamp of the last non-empty block −
// timestamp of the block before the first non-empty one).
func expectTPS(n *fakeNode, ref uint32) (txs int, tps float64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	first, last := -1, -1
	for i := int(ref) + 1; i < len(n.blocks); i++ {
		if c := len(n.blocks[i].Transactions); c > 0 {
			txs += c
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	window := n.blocks[last].Timestamp - n.blocks[first-1].Timestamp
	return txs, float64(txs) * 1000 / float64(window)
}

func TestRunAgainstFakeNode(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	// Mempool of 40 and blocks of 50 every 20 ms: the four workers fill the
	// pool between blocks and get -502 answers, which must requeue.
	n := newFakeNode(t, fakeOpts{poolCap: 40, perBlock: 50, interval: 20 * time.Millisecond})
	cfg := fakeConfig(n, dir, 400)
	cfg.Pid = os.Getpid() // the fake node lives in this process
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.mu.Lock()
	rejected, full, received := n.rejected, n.full, len(n.received)
	n.mu.Unlock()
	if len(rejected) > 0 {
		t.Fatalf("the node rejected transactions: %v", rejected[:min(3, len(rejected))])
	}
	// Funding, then every workload transaction accepted exactly once.
	if res.Funding.Skipped || len(res.Funding.TxHashes) != 2 {
		t.Fatalf("funding: %+v", res.Funding)
	}
	s := res.Send
	if s.Accepted != 400 || s.Errors != 0 || s.Unsent != 0 || s.Stopped != "workload used up" || received != 402 {
		t.Fatalf("send: %+v (node received %d)", s, received)
	}
	// -502 backoff: answers were counted and every such tx went back.
	if s.MempoolFull == 0 || int(s.MempoolFull) != full {
		t.Fatalf("mempool-full answers: bench %d, node %d", s.MempoolFull, full)
	}
	if !res.Drain.Complete || res.InBlocks != 400 {
		t.Fatalf("drain: %+v, in blocks %d", res.Drain, res.InBlocks)
	}
	// TPS against the node's own blocks; RPS by its formula.
	txs, tps := expectTPS(n, res.TPS.StartBlock-1)
	if res.TPS.Txs != 400 || txs != 400 || math.Abs(res.TPS.TPS-tps) > 1e-9 {
		t.Fatalf("TPS %+v, expected %d txs at %v", res.TPS, txs, tps)
	}
	if res.TPS.WindowMS%1000 != 0 || res.TPS.MaxBlockTxs > 50 {
		t.Fatalf("window %+v", res.TPS)
	}
	if s.DurationMS <= 0 || math.Abs(res.RPS-float64(s.Accepted)*1000/s.DurationMS) > 1e-6 {
		t.Fatalf("RPS %v for %d in %v ms", res.RPS, s.Accepted, s.DurationMS)
	}
	if res.Workload.TxSize != 245 || res.Workload.RequiredNetFee != 1_228_520 || res.Workload.Cached {
		t.Fatalf("workload %+v", res.Workload)
	}
	if len(res.Samples) == 0 || res.Resources.Samples == 0 || res.Resources.RSSMaxMiB <= 0 {
		t.Fatalf("no resource samples: %+v", res.Resources)
	}
	for _, f := range []string{ResultFile, SummaryFile, TPSPlotFile, ResourcesFile} {
		st, err := os.Stat(filepath.Join(cfg.OutDir, f))
		if err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(cfg.OutDir, SummaryFile))
	for _, want := range []string{"**TPS**", "**RPS**", "/fake:0.0.1/", "Node CPU", "400 accepted"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	back, err := ReadResult(filepath.Join(cfg.OutDir, ResultFile))
	if err != nil || back.TPS != res.TPS || back.Send.Accepted != 400 {
		t.Fatalf("result.json: %v", err)
	}

	// A second node gets byte-identical transactions from the cache.
	n2 := newFakeNode(t, fakeOpts{poolCap: 1000, perBlock: 1000, interval: 20 * time.Millisecond})
	cfg2 := fakeConfig(n2, dir, 400)
	cfg2.OutDir = ""
	cfg2.Rate = 4000 // rate mode: paced, same outcome
	res2, err := Run(ctx, cfg2)
	if err != nil {
		t.Fatal(err)
	}
	if !res2.Workload.Cached || res2.Send.Accepted != 400 || res2.Load.Mode != "rate" {
		t.Fatalf("second run: cached %v, %+v", res2.Workload.Cached, res2.Send)
	}
	n.mu.Lock()
	n2.mu.Lock()
	for h, raw := range n.received {
		if raw2, ok := n2.received[h]; ok && string(raw2) != string(raw) {
			t.Fatalf("tx %s differs between the runs", h.StringLE())
		}
	}
	same := 0
	for h := range n2.received {
		if _, ok := n.received[h]; ok {
			same++
		}
	}
	n2.mu.Unlock()
	n.mu.Unlock()
	if same < 400 {
		t.Fatalf("only %d of 400 workload transactions are the same on both nodes", same)
	}
}

func TestRunTimeLimitAndErrors(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	// Slow blocks: the pool stays full, so the time limit ends the sending
	// with part of the workload unsent.
	n := newFakeNode(t, fakeOpts{poolCap: 20, perBlock: 20, interval: 30 * time.Millisecond})
	cfg := fakeConfig(n, dir, 3000)
	cfg.OutDir = ""
	cfg.TimeLimit = 150 * time.Millisecond
	cfg.Log = testWriter{t}
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Send.Stopped != "time limit" || res.Send.Unsent == 0 || res.Send.Accepted == 0 {
		t.Fatalf("time limit: %+v", res.Send)
	}
	if res.Send.Accepted != res.InBlocks || !res.Drain.Complete {
		t.Fatalf("drain after a time limit: accepted %d, in blocks %d, %+v", res.Send.Accepted, res.InBlocks, res.Drain)
	}

	// A network fee below the node's rules is refused before sending.
	cfg = fakeConfig(n, dir, 10)
	cfg.NetworkFee = 1_000_000
	if _, err := Run(ctx, cfg); err == nil || !strings.Contains(err.Error(), "network fee") {
		t.Fatalf("low fee: %v", err)
	}
	// A chain past the ValidUntilBlock is refused.
	cfg = fakeConfig(n, dir, 10)
	cfg.ValidUntilBlock = 5
	if _, err := Run(ctx, cfg); err == nil || !strings.Contains(err.Error(), "ValidUntilBlock") {
		t.Fatalf("low VUB: %v", err)
	}
	// Transactions the node rejects are counted as errors by message: the
	// workload signed for another network fails verification.
	n3 := newFakeNode(t, fakeOpts{poolCap: 100, perBlock: 100, interval: 20 * time.Millisecond})
	w, err := Generate(ctx, Params{Magic: 1, Token: neoToken, SenderWIF: DefaultSenderWIF, Amount: 1, Count: 5,
		ValidUntilBlock: 1200, SystemFee: DefaultSystemFee, NetworkFee: DefaultNetworkFee}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := NewSender(EncodeBodies(w), LoadConfig{Endpoints: []string{n3.srv.URL}, Workers: 2}).Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Accepted != 0 || st.Errors != 5 || len(st.ErrorKinds) != 1 {
		t.Fatalf("rejected workload: %+v", st)
	}
	// An unreachable node: transport errors.
	st, err = NewSender(EncodeBodies(w), LoadConfig{Endpoints: []string{"http://127.0.0.1:1"}, Workers: 1}).Run(ctx)
	if err != nil || st.Errors != 5 {
		t.Fatalf("unreachable: %+v %v", st, err)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

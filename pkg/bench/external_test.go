package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const sampleNeoBenchReport = `neo-go node, run 1 :: NEO-GO_0.120.0 / 10 wrk / 2m0s

TXs ≈ 811330
RPS ≈ 6761.250
RPC Errors  ≈ 3 / 0.000%
TPS ≈ 6732.500
DefaultMSPerBlock = 1000

CPU ≈ 0.000%
Mem ≈ 0.000MB

MillisecondsFromStart, CPU, Mem

DeltaTime, TransactionsCount, TPS
1000, 6000, 6000.000
`

func TestParseNeoBenchReport(t *testing.T) {
	rep, err := ParseNeoBenchReport([]byte(sampleNeoBenchReport))
	if err != nil {
		t.Fatal(err)
	}
	want := ClientReport{Name: "neo-bench", TPS: 6732.5, RPS: 6761.25, Txs: 811330, Errors: 3}
	if rep != want {
		t.Fatalf("got %+v, want %+v", rep, want)
	}
	for _, drop := range []string{"TXs", "RPS", "RPC Errors", "TPS"} {
		var kept []string
		for l := range strings.Lines(sampleNeoBenchReport) {
			if !strings.HasPrefix(l, drop+" ") {
				kept = append(kept, l)
			}
		}
		if _, err := ParseNeoBenchReport([]byte(strings.Join(kept, ""))); err == nil {
			t.Errorf("a report without %q parsed", drop)
		}
	}
	if _, err := ParseNeoBenchReport([]byte(strings.Replace(sampleNeoBenchReport, "TPS ≈ 6732.500", "TPS ≈ many", 1))); err == nil {
		t.Error("a report with a bad TPS parsed")
	}
}

func FuzzParseNeoBenchReport(f *testing.F) {
	f.Add([]byte(sampleNeoBenchReport))
	f.Add([]byte("RPC Errors ≈ /\nTXs ≈ -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseNeoBenchReport(data) // an error, never a panic
	})
}

// The fake client of TestRunExternal: this test binary run again with
// BENCH_FAKE_CLIENT set to the fake node's URL. It sends a workload with
// Run (whose log names the reference block) and writes a neo-bench-style
// report.
func TestFakeExternalClient(t *testing.T) {
	url := os.Getenv("BENCH_FAKE_CLIENT")
	if url == "" {
		t.Skip("run by TestRunExternal")
	}
	dir := t.TempDir()
	res, err := Run(context.Background(), Config{
		Endpoints: []string{url}, Workers: 2, Count: 200,
		CacheDir: filepath.Join(dir, "cache"), PollPeriod: 10 * time.Millisecond, Log: os.Stderr,
	})
	if err != nil {
		t.Fatal(err)
	}
	report := fmt.Sprintf("fake :: FAKE / 2 wrk / 0s\n\nTXs ≈ %d\nRPS ≈ %0.3f\nRPC Errors  ≈ %d / 0.000%%\nTPS ≈ %0.3f\nDefaultMSPerBlock = 20\n",
		res.Send.Accepted, res.RPS, res.Send.Errors, res.TPS.TPS)
	if err := os.WriteFile(os.Getenv("BENCH_FAKE_REPORT"), []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRunExternal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	dir := t.TempDir()
	n := newFakeNode(t, fakeOpts{poolCap: 100, perBlock: 50, interval: 20 * time.Millisecond})
	report := filepath.Join(dir, "client.log")
	t.Setenv("BENCH_FAKE_CLIENT", n.srv.URL)
	t.Setenv("BENCH_FAKE_REPORT", report)
	var log strings.Builder
	res, err := RunExternal(context.Background(), ExternalConfig{
		Endpoint:     n.srv.URL,
		Command:      []string{os.Args[0], "-test.run=^TestFakeExternalClient$", "-test.count=1"},
		Report:       report,
		Start:        regexp.MustCompile(`load: from block (\d+)`),
		OutDir:       filepath.Join(dir, "out"),
		Pid:          os.Getpid(), // the fake node lives in this process
		SamplePeriod: 20 * time.Millisecond,
		PollPeriod:   10 * time.Millisecond,
		Log:          &log,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if res.Client == nil || res.Client.Txs != 200 || res.Client.Errors != 0 || res.Client.TPS <= 0 {
		t.Fatalf("client report: %+v", res.Client)
	}
	// The same blocks give the same TPS by the one formula.
	if res.TPS.Txs != 200 || res.InBlocks != 200 {
		t.Fatalf("TPS window: %+v, in blocks %d", res.TPS, res.InBlocks)
	}
	if d := res.TPS.TPS - res.Client.TPS; d > 0.01*res.TPS.TPS || d < -0.01*res.TPS.TPS {
		t.Fatalf("TPS here %.3f, the client's %.3f", res.TPS.TPS, res.Client.TPS)
	}
	if len(res.Samples) == 0 || res.Load.Mode != "external" {
		t.Fatalf("samples %d, mode %q", len(res.Samples), res.Load.Mode)
	}
	got, err := ReadResult(filepath.Join(dir, "out", ResultFile))
	if err != nil || got.Client == nil || *got.Client != *res.Client {
		t.Fatalf("result file: %v, %+v", err, got)
	}
	var sb strings.Builder
	WriteComparison(&sb, Summarize("n3node-client", []*Result{got}), Summarize("neo-bench-client", []*Result{got}))
	if !strings.Contains(sb.String(), "TPS, the client's own report") {
		t.Fatalf("comparison lacks the client's TPS:\n%s", sb.String())
	}
}

// A client that exits before naming its start is an error, not a hang.
func TestRunExternalNoStart(t *testing.T) {
	n := newFakeNode(t, fakeOpts{poolCap: 10, perBlock: 10, interval: 50 * time.Millisecond})
	_, err := RunExternal(context.Background(), ExternalConfig{Endpoint: n.srv.URL, Command: []string{"true"}})
	if err == nil || !strings.Contains(err.Error(), "never said") {
		t.Fatalf("got %v", err)
	}
}

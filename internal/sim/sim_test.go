package sim

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

var (
	seedFlag   = flag.Uint64("seed", 0, "run only this seed (verbose)")
	seedsFlag  = flag.Int("seeds", 0, "run seeds first..first+N-1 (default: the smoke set)")
	firstFlag  = flag.Uint64("first", 1, "the first seed of -seeds")
	faultFlag  = flag.Duration("faults", 60*time.Second, "simulated time with faults per run")
	logFlag    = flag.Bool("simlog", false, "print the nodes' logs")
	strictFlag = flag.Bool("strict", false, "require liveness under conflicting Byzantine votes too")
	skipFlag   = flag.String("skip", "", "faults to leave out (comma-separated numbers, as the schedule shows them)")
)

func parseSkip(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// kind is the invariant a violation broke (its text up to the colon).
func kind(err error) string {
	var v *Violation
	if !errors.As(err, &v) {
		return err.Error()
	}
	k, _, _ := strings.Cut(v.What, ":")
	return k
}

// shrink leaves faults out, one at a time, while the run still breaks
// the same invariant, and returns the faults that can go.
func shrink(c Config, res *Result, err error) []int {
	want := kind(err)
	skip := slices.Clone(c.Skip)
	for _, f := range res.Faults {
		c.Skip = append(slices.Clone(skip), f)
		if _, err := Run(c); err != nil && kind(err) == want {
			skip = c.Skip
		}
	}
	return skip
}

// smokeSeeds is how many seeds `go test` runs by default (make sim-smoke).
const smokeSeeds = 3

// regressionSeeds found bugs; they run every time.
var regressionSeeds = []uint64{
	4,   // a primary's block must use the nonce it proposed (Config.Nonce); 7 validators, partitions
	3,   // an equivocating primary of 4 locks two honest validators: stalls (dBFT 2.0 commit lock), never forks
	33,  // a validator that commits and floods ChangeViews split 4 validators across views (stalled before findings 4 and 5 were fixed)
	41,  // a primary that restarts in its own round must not propose again (4 honest validators stalled)
	180, // two change-view flooders of 7 answered each other's floods with recovery messages (200,000 undelivered events)
	14,  // a restarted validator forgot its ChangeView and committed in the old view (7 honest, 2 | 4 split)
	30,  // the same, and a restarted validator whose own PrepareResponse came back ignored the transactions it lacked
	94,  // a restarted primary that took back its own proposal ignored the transactions its lost pool lacked
	37,  // the first fix of 94 took the proposal again in a loop (200,000 undelivered events)
	203, // a validator restarted inside a partition with one committed validator committed in the view it had left (4 honest, 2 | 2 split)
}

// configs are the network shapes each seed runs on: the seed's parity
// picks 4 or 7 validators, every third seed has Byzantine validators.
func configFor(seed uint64) Config {
	c := Config{Seed: seed, Validators: 4, Faults: *faultFlag, Calm: 3 * time.Minute}
	if seed%2 == 0 {
		c.Validators = 7
	}
	c.Byzantine = seed%3 == 0
	return c
}

func runSeed(t *testing.T, seed uint64, verbose bool) (*Result, bool) {
	c := configFor(seed)
	if *logFlag {
		c.Log = os.Stderr
	}
	c.Skip = parseSkip(*skipFlag)
	c.Strict = *strictFlag
	res, err := Run(c)
	if err != nil {
		t.Errorf("%v\nreproduce: make sim SEED=%d%s", err, seed, map[bool]string{true: " STRICT=1"}[c.Strict])
		if res != nil {
			skip := shrink(c, res, err)
			c.Skip = skip
			r2, err2 := Run(c)
			if err2 != nil && r2 != nil {
				var b strings.Builder
				for _, f := range skip {
					if b.Len() > 0 {
						b.WriteByte(',')
					}
					b.WriteString(strconv.Itoa(f))
				}
				strict := ""
				if c.Strict {
					strict = " STRICT=1"
				}
				t.Errorf("shrunk to %d of %d faults:\n  %s\nreproduce: make sim SEED=%d SKIP=%s%s",
					len(r2.Faults), len(res.Faults), strings.Join(r2.Schedule, "\n  "), seed, b.String(), strict)
			}
		}
		return res, false
	}
	if verbose {
		t.Logf("seed %d: %d validators, byzantine %v\n  %s", seed, c.Validators, c.Byzantine, strings.Join(res.Schedule, "\n  "))
		t.Logf("heights %v, recovery %s, events %d, payloads delivered %d dropped %d, transactions %d pooled %d on chain, refused %v",
			res.Heights, res.Recovery, res.Events, res.Delivered, res.Dropped, res.Txs, res.TxsOnChain, res.Refused)
	}
	if !verbose && testing.Verbose() {
		t.Logf("seed %d: %d validators, byzantine %v: heights %v, recovery %s, %d faults, %d txs on chain, waived %v",
			seed, c.Validators, c.Byzantine, res.Heights, res.Recovery.Round(time.Millisecond), len(res.Schedule)-1, res.TxsOnChain, res.LivenessWaived)
	}
	return res, true
}

// TestSim runs the seeds and checks the invariants; see the package doc.
func TestSim(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	if *seedFlag != 0 {
		runSeed(t, *seedFlag, true)
		return
	}
	n := *seedsFlag
	if n == 0 {
		n = smokeSeeds
	}
	seeds := append([]uint64{}, regressionSeeds...)
	for s := range uint64(n) {
		seeds = append(seeds, *firstFlag+s)
	}
	var worst time.Duration
	var failed, waived []uint64
	start := time.Now()
	for _, s := range seeds {
		res, ok := runSeed(t, s, testing.Verbose() && n <= 20)
		if !ok {
			failed = append(failed, s)
		}
		if res != nil {
			worst = max(worst, res.Recovery)
			if res.LivenessWaived {
				waived = append(waived, s)
			}
		}
	}
	t.Logf("%d seeds in %s: %d failed %v; stalled by conflicting votes (safety held) %v; slowest recovery after the faults %s",
		len(seeds), time.Since(start).Round(time.Second), len(failed), failed, waived, worst)
}

// TestDeterministic: a seed gives the same run twice.
func TestDeterministic(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := configFor(3)
	c.Faults = 20 * time.Second
	a, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(c)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a.Heights, a.Events, a.Delivered, a.Dropped, a.Recovery) != fmt.Sprint(b.Heights, b.Events, b.Delivered, b.Dropped, b.Recovery) {
		t.Fatalf("two runs of seed 3 differ:\n%v %d %d %d %s\n%v %d %d %d %s", a.Heights, a.Events, a.Delivered, a.Dropped, a.Recovery,
			b.Heights, b.Events, b.Delivered, b.Dropped, b.Recovery)
	}
}

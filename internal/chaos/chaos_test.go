package chaos

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/multinode"
)

// Environment of TestChaos (`make chaos`, `make chaos-smoke`).
const (
	// EnvChaos enables TestChaos: it starts node processes.
	EnvChaos = "N3NODE_CHAOS"
	// EnvDuration is the run's length (a time.ParseDuration string;
	// default 2m).
	EnvDuration = "CHAOS"
	// EnvSeed fixes the seed (default: the clock's nanoseconds, printed).
	EnvSeed = "CHAOS_SEED"
	// EnvStateRootInHeader=1 runs the network with StateRootInHeader.
	EnvStateRootInHeader = "CHAOS_SRIH"
	// EnvOut names a file the report is written to.
	EnvOut = "CHAOS_OUT"
)

func TestMain(m *testing.M) {
	code := m.Run()
	multinode.RemoveTestBinaries()
	os.Exit(code)
}

// TestChaos runs 2 n3node and 2 neo-go 0.120.0 validators through the
// proxy for $CHAOS and fails on any fork, state-root difference, unclean
// stop, failed restart, stuck network or recovery over the bound.
func TestChaos(t *testing.T) {
	if os.Getenv(EnvChaos) != "1" {
		t.Skipf("set %s=1 (make chaos): starts node processes", EnvChaos)
	}
	dur := 2 * time.Minute
	if v := os.Getenv(EnvDuration); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("%s=%q: %v", EnvDuration, v, err)
		}
		dur = d
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(EnvSeed); v != "" {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", EnvSeed, v, err)
		}
		seed = s
	}
	t.Logf("seed %d (repeat with %s=%d), duration %s", seed, EnvSeed, seed, dur)

	ports, err := multinode.FreePorts(2 * multinode.Validators)
	if err != nil {
		t.Fatal(err)
	}
	nodePorts := make([]multinode.Ports, multinode.Validators)
	p2p := make([]int, multinode.Validators)
	for i := range nodePorts {
		nodePorts[i] = multinode.Ports{P2P: ports[2*i], RPC: ports[2*i+1]}
		p2p[i] = ports[2*i]
	}
	proxy, err := NewProxy(seed, p2p, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close) // after the network's cleanup: cleanups run last first
	proto := multinode.Protocol{StateRootInHeader: os.Getenv(EnvStateRootInHeader) == "1"}
	nw := multinode.NewTestNetwork(t, multinode.Options{
		Nodes:    multinode.ValidatorSpecs(multinode.N3Node, multinode.N3Node, multinode.NeoGo, multinode.NeoGo),
		Protocol: proto,
		Ports:    nodePorts,
		Seed:     proxy.Addr,
	})
	t.Logf("StateRootInHeader %v; nodes in %s", proto.StateRootInHeader, nw.Dir)

	ctx, cancel := context.WithTimeout(context.Background(), dur+20*time.Minute)
	defer cancel()
	rep, err := Run(ctx, nw, proxy, Config{Seed: seed, Duration: dur, BlockTime: nw.Protocol.TimePerBlock, Log: t.Logf})
	t.Logf("\n%s", rep.Summary())
	if out := os.Getenv(EnvOut); out != "" {
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err == nil {
			_ = os.WriteFile(out, []byte(rep.Summary()), 0o644)
		}
	}
	if err != nil {
		t.Errorf("run: %v", err)
	}
	for _, v := range rep.Violations {
		t.Errorf("violation: %s", v)
	}
	for _, m := range rep.Misses() {
		t.Errorf("recovery over the bound: %s", m)
	}
}

package multinode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvMultinode enables the integration tests (`make multinode`).
const EnvMultinode = "N3NODE_MULTINODE"

// EnvLogLevel sets the log level of every node the tests start.
const EnvLogLevel = "N3NODE_MULTINODE_LOGLEVEL"

// EnvKeep names a directory where the tests leave their networks (node
// directories with configs, logs and databases) instead of deleting them.
const EnvKeep = "N3NODE_MULTINODE_KEEP"

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// needMultinode skips a test unless N3NODE_MULTINODE=1.
func needMultinode(t *testing.T) {
	t.Helper()
	if os.Getenv(EnvMultinode) != "1" {
		t.Skipf("set %s=1 (make multinode): starts node processes", EnvMultinode)
	}
}

// n3nodeBinary builds cmd/n3node once per test binary.
func n3nodeBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "multinode-bin-")
		if binErr != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		start := time.Now()
		binPath, binErr = BuildN3Node(ctx, binDir)
		if binErr == nil {
			t.Logf("n3node binary %s (%s)", binPath, time.Since(start).Round(time.Millisecond))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// neogoBinary returns neo-go 0.120.0 (fetched on first use).
func neogoBinary(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := NeoGoBinary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// newNetwork writes a network into a test directory; the test stops it
// at the end (and prints the log tails when it failed).
func newNetwork(t *testing.T, o Options) *Network {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
		if keep := os.Getenv(EnvKeep); keep != "" {
			o.Dir = filepath.Join(keep, strings.ReplaceAll(t.Name(), "/", "_"))
			if err := os.RemoveAll(o.Dir); err != nil {
				t.Fatal(err)
			}
			t.Logf("network directory %s", o.Dir)
		}
	}
	for i := range o.Nodes {
		if o.Nodes[i].LogLevel == "" {
			o.Nodes[i].LogLevel = os.Getenv(EnvLogLevel)
		}
	}
	for _, s := range o.Nodes {
		switch s.Kind {
		case N3Node:
			if o.N3Node == "" {
				o.N3Node = n3nodeBinary(t)
			}
		case NeoGo:
			if o.NeoGo == "" {
				o.NeoGo = neogoBinary(t)
			}
		}
	}
	nw, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, n := range nw.Nodes {
				t.Logf("--- %s (%s) log tail:\n%s", n.Name, n.Dir, n.LogTail(60))
			}
		}
		if err := nw.Close(); err != nil {
			t.Errorf("stopping the network: %v", err)
		}
	})
	return nw
}

// specs returns validator specs of the given kinds, validators 1..n.
func specs(kinds ...Kind) []NodeSpec {
	out := make([]NodeSpec, len(kinds))
	for i, k := range kinds {
		out[i] = NodeSpec{Kind: k, Validator: i + 1}
	}
	return out
}

// step logs a test step with the time since start.
type stepper struct {
	t     *testing.T
	start time.Time
}

func newStepper(t *testing.T) *stepper { return &stepper{t: t, start: time.Now()} }

func (s *stepper) log(format string, args ...any) {
	s.t.Helper()
	s.t.Logf("[%6.1fs] "+format, append([]any{time.Since(s.start).Seconds()}, args...)...)
}

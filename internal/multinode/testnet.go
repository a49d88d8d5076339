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

// EnvLogLevel sets the log level of every node a test network starts.
const EnvLogLevel = "N3NODE_MULTINODE_LOGLEVEL"

// EnvKeep names a directory where test networks are left (node
// directories with configs, logs and databases) instead of deleted.
const EnvKeep = "N3NODE_MULTINODE_KEEP"

// The n3node binary built for the tests of one process (N3NodeForTest).
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// RemoveTestBinaries deletes the n3node binary N3NodeForTest built;
// a TestMain calls it after m.Run.
func RemoveTestBinaries() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// N3NodeForTest builds cmd/n3node once per test binary (or returns
// $N3NODE_BIN).
func N3NodeForTest(t testing.TB) string {
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

// NeoGoForTest returns neo-go 0.120.0 (fetched on first use).
func NeoGoForTest(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := NeoGoBinary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// NewTestNetwork writes a network for a test: in a test directory (or
// $N3NODE_MULTINODE_KEEP/<test name>), with the binaries the node kinds
// need and $N3NODE_MULTINODE_LOGLEVEL. The network is stopped when the
// test ends (with the log tails printed if it failed).
func NewTestNetwork(t testing.TB, o Options) *Network {
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
				o.N3Node = N3NodeForTest(t)
			}
		case NeoGo:
			if o.NeoGo == "" {
				o.NeoGo = NeoGoForTest(t)
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

// ValidatorSpecs returns validator specs of the given kinds, validators
// 1..len(kinds) in order.
func ValidatorSpecs(kinds ...Kind) []NodeSpec {
	out := make([]NodeSpec, len(kinds))
	for i, k := range kinds {
		out[i] = NodeSpec{Kind: k, Validator: i + 1}
	}
	return out
}

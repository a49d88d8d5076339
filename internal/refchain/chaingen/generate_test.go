package chaingen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain"
)

// EnvNeoGo enables the tests that run neo-go (make refchain sets it).
const EnvNeoGo = "N3NODE_NEOGO"

// Ports of the generation test, away from the generator's defaults so that
// `make refchain-update` and this test do not collide.
const (
	testP2PPort = 40336
	testRPCPort = 40337
)

// TestGenerate builds the reference chain with neo-go into a temp dir: the
// scenario runs, the dump restores into a second neo-go node that answers
// every record identically, and the fixtures pass Check. Transactions are
// deterministic, so their hashes must equal the committed ones.
func TestGenerate(t *testing.T) {
	if os.Getenv(EnvNeoGo) != "1" {
		t.Skipf("set %s=1 to run neo-go (make refchain)", EnvNeoGo)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, work := t.TempDir(), t.TempDir()
	sc, err := Generate(ctx, Options{
		In: fixtureDir, Out: out, Work: work, Keep: true,
		P2PPort: testP2PPort, RPCPort: testRPCPort, Log: testLog{t},
	})
	if err != nil {
		// The work directory goes with the test: show the node logs now.
		logs, _ := filepath.Glob(filepath.Join(work, "*", "node.log"))
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			if len(lines) > 40 {
				lines = lines[len(lines)-40:]
			}
			t.Logf("%s (tail):\n%s", l, strings.Join(lines, "\n"))
		}
		t.Fatal(err)
	}
	committed, err := refchain.Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	want := make(map[string]string)
	for _, tx := range committed.Scenario.Transactions {
		want[tx.Hash] = tx.Description
	}
	for _, tx := range sc.Transactions {
		if _, ok := want[tx.Hash]; !ok {
			t.Errorf("new transaction %s (%s): regenerate testdata/refchain (make refchain-update) if the scenario changed", tx.Hash, tx.Description)
		}
		delete(want, tx.Hash)
	}
	for h, d := range want {
		t.Errorf("committed transaction %s (%s) was not generated", h, d)
	}
	t.Logf("%d blocks, %d transactions", sc.Height+1, len(sc.Transactions))
	checkLedger(t, out)
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(string(p))
	return len(p), nil
}

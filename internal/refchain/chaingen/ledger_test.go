package chaingen

import (
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/ledgerdiff"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
)

// checkLedger restores a freshly generated fixture directory (dump and
// neo-go's answers) into n3node's ledger and compares every state root and
// application log (issue 7's differential test on the live path).
func checkLedger(t *testing.T, dir string) {
	t.Helper()
	f, err := refchain.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ledgerdiff.ConfigFile(filepath.Join(fixtureDir, refchain.ProtocolFile))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ledgerdiff.RunConfig(f, cfg, storage.NewMemoryStore(), core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("n3node ledger: imported %d blocks (err %v); compared %d state roots and %d application logs; %d mismatches",
		rep.Imported, rep.Err, rep.Roots, rep.Logs, len(rep.Mismatches))
	for i, m := range rep.Mismatches {
		if i == 20 {
			t.Logf("... %d more", len(rep.Mismatches)-i)
			break
		}
		t.Logf("%s", m)
	}
	if rep.Err != nil || rep.Imported != int(f.Scenario.Height) || len(rep.Mismatches) != 0 {
		t.Errorf("n3node's ledger differs from neo-go on the generated chain; first: %v", rep.FirstMismatch())
	}
}

package compiler

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

// neoGoBinary returns neo-go 0.120.0 or skips the test.
func neoGoBinary(t *testing.T) string {
	t.Helper()
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to compare with neo-go 0.120.0's compiler")
	}
	bin, err := neogo.Binary(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// theirs compiles dir with neo-go's `contract compile`.
func theirs(t *testing.T, bin, dir, cfgPath string) (outputs, error) {
	t.Helper()
	return theirsFlags(t, bin, dir, cfgPath, false)
}

// TestNeoGoCorpus compiles the corpus with both compilers; with -update it
// rewrites testdata/expected from neo-go's outputs.
func TestNeoGoCorpus(t *testing.T) {
	bin := neoGoBinary(t)
	names := corpusCases(t)
	same := 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(corpusDir, name)
			cfg, cfgPath := caseConfig(t, dir)
			want, err := theirs(t, bin, dir, cfgPath)
			if err != nil {
				t.Fatalf("neo-go: %v: %s", err, err.(*exec.ExitError).Stderr)
			}
			if *update {
				base := filepath.Join("testdata", "expected", name)
				must(t, os.MkdirAll(filepath.Dir(base), 0o755))
				must(t, os.WriteFile(base+".nef", want.nef, 0o644))
				must(t, os.WriteFile(base+".manifest.json", want.manifest, 0o644))
				must(t, os.WriteFile(base+".debug.json", want.debug, 0o644))
			}
			got, err := ours(dir, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if d := compareOutputs(want, got); d != "" {
				t.Fatal(d)
			}
			same++
		})
	}
	t.Logf("corpus: %d of %d contracts identical to neo-go 0.120.0", same, len(names))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

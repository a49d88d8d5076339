package compiler

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNeoGoGeneratedPrograms compiles generated programs (genprog_test.go)
// with neo-go 0.120.0 and with this package: NEF, manifest and debug info
// must be equal (`make compiler-diff`; N3NODE_GENPROG_NEOGO_SEEDS=N runs N
// seeds). The programs have at most one function literal per function:
// neo-go emits several in map order, and now and then fails on one inside
// another (docs/compiler.md, "Deviations").
func TestNeoGoGeneratedPrograms(t *testing.T) {
	bin := neoGoBinary(t)
	seeds := genSeeds("N3NODE_GENPROG_NEOGO_SEEDS", 20)
	for seed := uint64(1); seed <= seeds; seed++ {
		src := programSource(genProgram(seed, 2, 12, true))
		dir := corpusModule(t, "gen.go", src)
		cfg := filepath.Join(dir, "gen.yml")
		must(t, os.WriteFile(cfg, []byte("name: gen\n"), 0o644))
		want, err := theirsFlags(t, bin, dir, cfg, true)
		if err != nil {
			t.Fatalf("seed %d: neo-go: %v: %s\n%s", seed, err, neoGoStderr(err), src)
		}
		got, err := oursOpts(dir, Options{Config: Config{Name: "gen"}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if d := compareOutputs(want, got); d != "" {
			t.Fatalf("seed %d: %s\n%s", seed, d, src)
		}
	}
	t.Logf("%d seeds (%d functions): identical to neo-go 0.120.0", seeds, seeds*12)
}

// neoGoStderr is what neo-go printed when it failed.
func neoGoStderr(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}

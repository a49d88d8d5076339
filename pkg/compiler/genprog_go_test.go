package compiler

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedProgramsGo checks the generator's interpreter against Go
// itself: the generated package, built as a Go program, must print what the
// interpreter computes (a panic where it says run-time panic; m[k] of a
// missing key is zero here, as in Go). A wrong interpreter would otherwise
// let TestGeneratedPrograms accept a compiler that agrees with it.
// N3NODE_GENPROG_GO_SEEDS=N runs N seeds (one `go build` each).
func TestGeneratedProgramsGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go programs")
	}
	seeds := genSeeds("N3NODE_GENPROG_GO_SEEDS", 2)
	inputs := []int64{0, 1, -3, 7}
	compared := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		fs := genProgram(seed, 2, 12, false)
		dir := t.TempDir()
		src := strings.Replace(programSource(fs), "package gen", "package main", 1)
		var main strings.Builder
		main.WriteString("package main\n\nimport \"fmt\"\n\nfunc call(f func(int) int, x int) (r string) {\n" +
			"\tdefer func() {\n\t\tif recover() != nil {\n\t\t\tr = \"panic\"\n\t\t}\n\t}()\n\tg = 0\n\treturn fmt.Sprint(f(x))\n}\n\nfunc main() {\n")
		for _, f := range fs[2:] {
			fmt.Fprintf(&main, "\tfor _, x := range %#v {\n\t\tfmt.Println(call(%s, x))\n\t}\n", []int{0, 1, -3, 7}, f.name)
		}
		main.WriteString("}\n")
		must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gen\n\ngo 1.24\n"), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "gen.go"), []byte(src), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(main.String()), 0o644))
		cmd := exec.Command("go", "run", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("seed %d: go run: %v\n%s", seed, err, src)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != len(inputs)*(len(fs)-2) {
			t.Fatalf("seed %d: %d lines of output", seed, len(lines))
		}
		for i, f := range fs[2:] {
			for j, x := range inputs {
				got := lines[i*len(inputs)+j]
				want, err := f.call(fs[:2], x, true)
				switch {
				case errors.Is(err, errOutOfSpan):
					continue
				case errors.Is(err, errGoPanic):
					if got != "panic" {
						t.Fatalf("seed %d, %s(%d): Go printed %s, the interpreter panics\n%s", seed, f.name, x, got, src)
					}
				case err != nil:
					t.Fatalf("seed %d, %s(%d): %v", seed, f.name, x, err)
				case got != fmt.Sprint(want):
					t.Fatalf("seed %d, %s(%d): Go printed %s, the interpreter says %d\n%s", seed, f.name, x, got, want, src)
				}
				compared++
			}
		}
	}
	t.Logf("%d seeds: %d results of the interpreter equal Go's", seeds, compared)
}

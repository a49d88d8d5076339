package compiler

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCompile compiles function bodies inside a contract of the corpus
// module. Inputs that do not type-check are rejected by the loader; the
// property checked is that no input reaches an internal error (a panic
// recovered by Compile). Every run starts the go command, so inputs are
// slow; the seeds run as plain tests.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		"return 1",
		"x := []int{1, 2}\nfor i := range x { x[i]++ }\nreturn len(x)",
		"m := map[string]int{}\nm[\"a\"] = 1\nv, ok := m[\"a\"]\nif ok { return v }\nreturn 0",
		"s := \"ab\"\nswitch s[0] { case 'a': return 1 }\nreturn 0",
		"defer func() { recover() }()\npanic(\"x\")",
		"f := func(a int) int { return a }\nreturn f(2)",
		"var p struct{ A int }\np.A = 3\nreturn p.A",
		"b := []byte{1}\nb = append(b, 2)\nreturn int(b[1])",
		"for {\nbreak\n}\nreturn -1",
		"type T struct{ X []int }\nt := T{}\nt.X = append(t.X, 1)\nreturn t.X[0]",
	} {
		f.Add(s)
	}
	ensureInterop(f)
	f.Fuzz(func(t *testing.T, body string) {
		src := "package fuzz\n\nfunc Main() int {\n" + body + "\n}\n"
		dir := corpusModule(t, "main.go", src)
		_, _, _, err := Compile(dir, Options{Config: Config{Name: "fuzz"}})
		if testing.Verbose() && err != nil {
			t.Log(err)
		}
		if errors.Is(err, ErrInternal) {
			t.Fatalf("%v\n%s", err, src)
		}
	})
}

// corpusModule makes a temporary module with the corpus module's go.mod and
// go.sum and one source file.
func corpusModule(t *testing.T, file, src string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		must(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	must(t, os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644))
	return dir
}

package compiler

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/smartcontract"
	bind "github.com/n3node/n3node/pkg/smartcontract/binding"
)

// oursBindings compiles dir and writes its bindings configuration.
func oursBindings(dir string, cfg *Config, guess bool) ([]byte, error) {
	o := Options{Config: *cfg}
	_, _, di, err := Compile(dir, o)
	if err != nil {
		return nil, err
	}
	bc, err := Bindings(di, o, guess)
	if err != nil {
		return nil, err
	}
	return bind.MarshalConfig(bc)
}

// TestBindings compares the bindings configuration (--guess-eventtypes)
// of every corpus contract with neo-go's (testdata/expected/*.bindings.yml).
func TestBindings(t *testing.T) {
	n := 0
	for _, name := range corpusCases(t) {
		want, err := os.ReadFile(filepath.Join("testdata", "expected", name+".bindings.yml"))
		if os.IsNotExist(err) {
			continue
		}
		must(t, err)
		n++
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(corpusDir, name)
			cfg, _ := caseConfig(t, dir)
			got, err := oursBindings(dir, cfg, true)
			must(t, err)
			if !bytes.Equal(got, want) {
				t.Errorf("differs from neo-go's:\n%s", got)
			}
		})
	}
	if n < 60 {
		t.Fatalf("only %d expected bindings files", n)
	}
}

// TestBindingsGuessErrors checks the event usage checks of
// --guess-eventtypes.
func TestBindingsGuessErrors(t *testing.T) {
	di := &DebugInfo{MainPkg: "x", EmittedEvents: map[string][]emittedEvent{
		"E": {{Params: []debugParam{{SC: smartcontract.IntegerType}}}},
	}}
	if _, err := Bindings(di, Options{}, true); err == nil || !strings.Contains(err.Error(), "not declared in the contract config") {
		t.Errorf("undeclared: %v", err)
	}
	if _, err := Bindings(di, Options{}, false); err != nil {
		t.Errorf("without guessing: %v", err)
	}
}

// bindingCase is a contract compiled with --bindings: its directory and
// configuration.
type bindingCase struct{ dir, config string }

// TestNeoGoBindings compares `contract compile --bindings` with and
// without --guess-eventtypes with neo-go's on the corpus (with -update it
// rewrites testdata/expected/*.bindings.yml), the rpcbindings contracts of
// neo-go's module (every configuration) and neo-go's examples when a
// repository snapshot is there.
func TestNeoGoBindings(t *testing.T) {
	bin := neoGoBinary(t)
	var cases []bindingCase
	for _, name := range corpusCases(t) {
		dir, _ := filepath.Abs(filepath.Join(corpusDir, name))
		_, path := caseConfig(t, dir)
		cases = append(cases, bindingCase{dir, path})
	}
	if out, err := exec.Command("go", "mod", "download", "-json", "github.com/nspcc-dev/neo-go@v0.120.0").Output(); err == nil {
		root := between(string(out), `"Dir": "`, `"`)
		ymls, _ := filepath.Glob(filepath.Join(root, "cli/smartcontract/testdata/rpcbindings/*/*.yml"))
		for _, y := range ymls {
			cases = append(cases, bindingCase{filepath.Dir(y), y})
		}
	}
	repo := os.Getenv("N3NODE_NEOGO_REPO")
	if repo == "" {
		repo = defaultNeoGoRepo
	}
	if _, err := os.Stat(repo); err == nil {
		tmp := t.TempDir()
		archive := exec.Command("sh", "-c", "git -C \"$1\" archive v0.120.0 examples | tar -x -C \"$2\"", "sh", repo, tmp)
		if out, err := archive.CombinedOutput(); err != nil {
			t.Fatalf("extracting examples: %v: %s", err, out)
		}
		err := filepath.WalkDir(filepath.Join(tmp, "examples"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yml") {
				cases = append(cases, bindingCase{filepath.Dir(p), p})
			}
			return err
		})
		must(t, err)
	}
	same, bothReject := 0, 0
	for _, c := range cases {
		for _, guess := range []bool{false, true} {
			tmp := t.TempDir()
			args := []string{"contract", "compile", "-i", c.dir, "-c", c.config, "-o", filepath.Join(tmp, "x.nef"),
				"-m", filepath.Join(tmp, "x.manifest.json"), "--bindings", filepath.Join(tmp, "x.yml")}
			if guess {
				args = append(args, "--guess-eventtypes")
			}
			cmd := exec.Command(bin, args...)
			cmd.Dir = c.dir
			out, theirErr := cmd.CombinedOutput()
			want, _ := os.ReadFile(filepath.Join(tmp, "x.yml"))
			data, err := os.ReadFile(c.config)
			must(t, err)
			cfg, err := ParseConfig(data)
			must(t, err)
			got, ourErr := oursBindings(c.dir, cfg, guess)
			switch {
			case theirErr != nil && ourErr != nil:
				bothReject++
			case theirErr != nil || ourErr != nil:
				t.Errorf("%s guess=%t: ours: %v; neo-go: %v %s", c.config, guess, ourErr, theirErr, out)
			case !bytes.Equal(got, want):
				t.Errorf("%s guess=%t differs:\n%s\nneo-go:\n%s", c.config, guess, got, want)
			default:
				same++
				if guess && *update && strings.HasPrefix(c.dir, mustAbs(t, corpusDir)) {
					must(t, os.WriteFile(filepath.Join("testdata", "expected", filepath.Base(c.dir)+".bindings.yml"), want, 0o644))
				}
			}
		}
	}
	t.Logf("bindings: %d identical, %d rejected by both, of %d", same, bothReject, 2*len(cases))
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	must(t, err)
	return a
}

// TestNoManifest: without a manifest the manifest's checks do not run (a
// contract emitting an undeclared event compiles, as with neo-go when no
// manifest file is asked for).
func TestNoManifest(t *testing.T) {
	ensureInterop(t)
	dir := filepath.Join(corpusDir, "nep17")
	cfg, _ := caseConfig(t, dir)
	cfg.Events = nil
	if _, _, _, err := Compile(dir, Options{Config: *cfg}); err == nil {
		t.Fatal("undeclared event accepted with a manifest")
	}
	f, m, _, err := Compile(dir, Options{Config: *cfg, NoManifest: true})
	if err != nil || m != nil || f == nil {
		t.Fatalf("without manifest: %v %v", m, err)
	}
}

package compiler

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/expected from neo-go's outputs")

const corpusDir = "testdata/corpus"

var interopOnce sync.Once

// ensureInterop downloads the corpus module's requirements (neo-go's
// interop module) into the module cache once, so that loading the
// contracts does not depend on what the cache happens to hold.
func ensureInterop(t testing.TB) {
	interopOnce.Do(func() {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = corpusDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Logf("go mod download in %s: %v: %s", corpusDir, err, out)
		}
	})
}

// corpusCases lists the corpus contracts (directories under corpusDir).
func corpusCases(t *testing.T) []string {
	t.Helper()
	ensureInterop(t)
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "lib" && e.Name() != "rejects" {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		t.Fatal("empty corpus")
	}
	return names
}

// caseConfig reads a corpus contract's contract.yml (or a default one).
func caseConfig(t *testing.T, dir string) (*Config, string) {
	t.Helper()
	path := filepath.Join(dir, "contract.yml")
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		data = []byte("name: " + filepath.Base(dir) + "\n")
		path = filepath.Join(t.TempDir(), "contract.yml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, path
}

// outputs are a compiler's three outputs, the debug info normalised.
type outputs struct {
	nef, manifest, debug []byte
}

// ours compiles a corpus directory with this package.
func ours(dir string, cfg *Config) (outputs, error) {
	return oursOpts(dir, Options{Config: *cfg})
}

func oursOpts(dir string, o Options) (outputs, error) {
	f, m, di, err := Compile(dir, o)
	if err != nil {
		return outputs{}, err
	}
	nb, err := f.Bytes()
	if err != nil {
		return outputs{}, err
	}
	mb, err := json.Marshal(m)
	if err != nil {
		return outputs{}, err
	}
	db, err := json.Marshal(di)
	if err != nil {
		return outputs{}, err
	}
	root := dir
	if strings.HasSuffix(dir, ".go") {
		root = filepath.Dir(dir)
	}
	nd, err := normaliseDebug(db, root)
	return outputs{nef: nb, manifest: mb, debug: nd}, err
}

var seqRe = regexp.MustCompile(`^(\d+)\[(\d+)\](.*)$`)

// normaliseDebug rewrites debug info JSON for comparison across machines
// and runs: document indexes become paths (module-cache paths from the
// module on, others relative to root) and the document list is dropped
// (neo-go numbers documents in parse order, which varies).
func normaliseDebug(data []byte, root string) ([]byte, error) {
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	absRoot, _ := filepath.Abs(root)
	var docs []string
	for _, x := range d["documents"].([]any) {
		p := x.(string)
		if i := strings.Index(p, "/pkg/mod/"); i >= 0 {
			p = p[i+len("/pkg/mod/"):]
		} else if r, err := filepath.Rel(absRoot, p); err == nil {
			p = r
		}
		docs = append(docs, p)
	}
	delete(d, "documents")
	delete(d, "hash")
	methods, _ := d["methods"].([]any)
	for _, m := range methods {
		mm := m.(map[string]any)
		pts, _ := mm["sequence-points"].([]any)
		for i, p := range pts {
			s := seqRe.FindStringSubmatch(p.(string))
			if s == nil {
				return nil, fmt.Errorf("bad sequence point %q", p)
			}
			var idx int
			fmt.Sscan(s[2], &idx)
			if idx < len(docs) {
				pts[i] = s[1] + "[" + docs[idx] + "]" + s[3]
			}
		}
	}
	return json.MarshalIndent(d, "", " ")
}

// compareOutputs describes the first difference between two outputs.
func compareOutputs(want, got outputs) string {
	var diffs []string
	if !bytes.Equal(want.nef, got.nef) {
		diffs = append(diffs, fmt.Sprintf("NEF differs:\n want %x\n got  %x", want.nef, got.nef))
	}
	if !jsonEqual(want.manifest, got.manifest) {
		diffs = append(diffs, fmt.Sprintf("manifest differs:\n want %s\n got  %s", want.manifest, got.manifest))
	}
	if !jsonEqual(want.debug, got.debug) {
		diffs = append(diffs, fmt.Sprintf("debug info differs:\n want %s\n got  %s", want.debug, got.debug))
	}
	return strings.Join(diffs, "\n")
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}

func readExpected(name string) (outputs, error) {
	base := filepath.Join("testdata", "expected", name)
	var o outputs
	var err error
	if o.nef, err = os.ReadFile(base + ".nef"); err != nil {
		return o, err
	}
	if o.manifest, err = os.ReadFile(base + ".manifest.json"); err != nil {
		return o, err
	}
	o.debug, err = os.ReadFile(base + ".debug.json")
	return o, err
}

// TestCorpus compiles every corpus contract and compares the outputs with
// neo-go's, committed under testdata/expected.
func TestCorpus(t *testing.T) {
	known := knownDiffs(t)
	same := 0
	names := corpusCases(t)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(corpusDir, name)
			cfg, _ := caseConfig(t, dir)
			want, err := readExpected(name)
			if err != nil {
				t.Fatalf("no expected output (regenerate with N3NODE_NEOGO=1 -update): %v", err)
			}
			got, err := ours(dir, cfg)
			if err != nil {
				if known[name] {
					t.Skipf("known difference: %v", err)
				}
				t.Fatal(err)
			}
			if d := compareOutputs(want, got); d != "" {
				if known[name] {
					t.Skipf("known difference")
				}
				t.Fatal(d)
			}
			same++
		})
	}
	t.Logf("corpus: %d of %d contracts identical to neo-go 0.120.0", same, len(names))
}

// knownDiffs reads testdata/corpus/KNOWN_DIFFS: contracts whose output
// still differs from neo-go's (one name a line, # comments).
func knownDiffs(t *testing.T) map[string]bool {
	data, err := os.ReadFile(filepath.Join(corpusDir, "KNOWN_DIFFS"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if l, _, _ = strings.Cut(l, "#"); strings.TrimSpace(l) != "" {
			m[strings.TrimSpace(l)] = true
		}
	}
	return m
}

// TestRejects compiles the contracts under testdata/corpus/rejects, each
// using something the compiler does not support, and checks the error
// names the file, line, column and construct (the "// want:" comment).
func TestRejects(t *testing.T) {
	ensureInterop(t)
	base := filepath.Join(corpusDir, "rejects")
	entries, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(base, e.Name())
			src, err := os.ReadFile(filepath.Join(dir, "main.go"))
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			want, ok := strings.CutPrefix(first, "// want: ")
			if !ok {
				t.Fatal("no // want: line")
			}
			_, _, _, err = Compile(dir, Options{Config: Config{Name: "x"}})
			if err == nil {
				t.Fatal("compiled")
			}
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("error %q does not contain %q", err, want)
			}
		})
	}
}

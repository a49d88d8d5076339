package compiler

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// moduleCase is a contract in the neo-go module: a directory or one file,
// with its configuration file if it has one.
type moduleCase struct {
	path, config string
}

// neoGoModuleCases lists the contracts of cli/smartcontract/testdata and
// pkg/compiler/testdata in the neo-go v0.120.0 module (read from the
// module cache; never copied into this repository).
func neoGoModuleCases(t *testing.T) []moduleCase {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/nspcc-dev/neo-go@v0.120.0").Output()
	if err != nil {
		t.Skipf("neo-go module not available: %v", err)
	}
	root := between(string(out), `"Dir": "`, `"`)
	if root == "" {
		t.Skip("neo-go module directory unknown")
	}
	var cases []moduleCase
	for _, sub := range []string{"cli/smartcontract/testdata", "pkg/compiler/testdata"} {
		base := filepath.Join(root, sub)
		err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			entries, _ := os.ReadDir(path)
			var gofiles, ymls []string
			for _, e := range entries {
				switch {
				case strings.HasSuffix(e.Name(), ".go"):
					gofiles = append(gofiles, e.Name())
				case strings.HasSuffix(e.Name(), ".yml") && !strings.HasSuffix(e.Name(), ".bindings.yml"):
					ymls = append(ymls, e.Name())
				}
			}
			if len(gofiles) == 0 {
				return nil
			}
			if path == base {
				// Top-level files are separate contracts.
				for _, f := range gofiles {
					c := moduleCase{path: filepath.Join(path, f)}
					if y := strings.TrimSuffix(c.path, ".go") + ".yml"; fileExists(y) {
						c.config = y
					}
					cases = append(cases, c)
				}
				return nil
			}
			c := moduleCase{path: path}
			if len(ymls) == 1 {
				c.config = filepath.Join(path, ymls[0])
			}
			cases = append(cases, c)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return cases
}

func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, to)
	return v
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestNeoGoModuleContracts compiles neo-go's own test contracts with both
// compilers. Contracts without a configuration are compiled with a default
// one and the event and permission checks off (both sides).
func TestNeoGoModuleContracts(t *testing.T) {
	bin := neoGoBinary(t)
	cases := neoGoModuleCases(t)
	var same, bothReject, differ int
	for _, c := range cases {
		name := strings.TrimPrefix(c.path, filepath.Dir(filepath.Dir(filepath.Dir(c.path)))+"/")
		t.Run(name, func(t *testing.T) {
			cfgPath := c.config
			loose := cfgPath == ""
			if loose {
				cfgPath = filepath.Join(t.TempDir(), "contract.yml")
				must(t, os.WriteFile(cfgPath, []byte("name: test\n"), 0o644))
			}
			data, err := os.ReadFile(cfgPath)
			must(t, err)
			cfg, cfgErr := ParseConfig(data)
			want, theirErr := theirsFlags(t, bin, c.path, cfgPath, loose)
			var got outputs
			var ourErr error
			if cfgErr != nil {
				ourErr = cfgErr
			} else {
				got, ourErr = oursOpts(c.path, Options{Config: *cfg, NoEventsCheck: loose, NoPermissionsCheck: loose})
			}
			switch {
			case theirErr != nil && ourErr != nil:
				bothReject++
				t.Logf("both reject: ours: %v; neo-go: %s", ourErr, theirErr.(*exec.ExitError).Stderr)
			case theirErr != nil:
				differ++
				t.Errorf("neo-go rejects (%s), we accept", theirErr.(*exec.ExitError).Stderr)
			case ourErr != nil:
				differ++
				t.Errorf("we reject: %v", ourErr)
			default:
				if d := compareOutputs(want, got); d != "" {
					differ++
					t.Error(firstLines(d, moduleDiffLines))
				} else {
					same++
				}
			}
		})
	}
	t.Logf("neo-go module contracts: %d identical, %d rejected by both, %d differ (of %d)", same, bothReject, differ, len(cases))
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// theirsFlags runs neo-go's compile, with the checks off when loose.
func theirsFlags(t *testing.T, bin, path, cfgPath string, loose bool) (outputs, error) {
	t.Helper()
	tmp := t.TempDir()
	nefPath, manPath, dbgPath := filepath.Join(tmp, "out.nef"), filepath.Join(tmp, "out.manifest.json"), filepath.Join(tmp, "out.debug.json")
	args := []string{"contract", "compile", "-i", path, "-o", nefPath, "-m", manPath, "-c", cfgPath, "-d", dbgPath}
	if loose {
		args = append(args, "--no-events", "--no-permissions", "--no-standards")
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		return outputs{}, &exec.ExitError{Stderr: out}
	}
	var o outputs
	var err error
	if o.nef, err = os.ReadFile(nefPath); err != nil {
		return o, err
	}
	if o.manifest, err = os.ReadFile(manPath); err != nil {
		return o, err
	}
	raw, err := os.ReadFile(dbgPath)
	if err != nil {
		return o, err
	}
	root := path
	if strings.HasSuffix(path, ".go") {
		root = filepath.Dir(path)
	}
	o.debug, err = normaliseDebug(raw, root)
	return o, err
}

// moduleDiffLines bounds the difference printed per contract.
var moduleDiffLines = 6

package compiler

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// defaultNeoGoRepo is where this project's machines keep a git snapshot of
// the neo-go repository; N3NODE_NEOGO_REPO overrides it.
const defaultNeoGoRepo = "/work/.mirror/nspcc-dev+neo-go/repo"

// TestNeoGoExamples compiles neo-go's examples/ (nested modules, so not in
// the module download) taken from a snapshot of the neo-go repository at
// v0.120.0, with both compilers.
func TestNeoGoExamples(t *testing.T) {
	bin := neoGoBinary(t)
	repo := os.Getenv("N3NODE_NEOGO_REPO")
	if repo == "" {
		repo = defaultNeoGoRepo
	}
	if _, err := os.Stat(repo); err != nil {
		t.Skipf("no neo-go repository snapshot at %s (set N3NODE_NEOGO_REPO)", repo)
	}
	tmp := t.TempDir()
	archive := exec.Command("sh", "-c", "git -C \"$1\" archive v0.120.0 examples | tar -x -C \"$2\"", "sh", repo, tmp)
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("extracting examples: %v: %s", err, out)
	}
	var ymls []string
	err := filepath.WalkDir(filepath.Join(tmp, "examples"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yml") {
			ymls = append(ymls, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for _, y := range ymls {
		dir := filepath.Dir(y)
		name, _ := filepath.Rel(filepath.Join(tmp, "examples"), y)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(y)
			must(t, err)
			cfg, err := ParseConfig(data)
			must(t, err)
			want, theirErr := theirsFlags(t, bin, dir, y, false)
			got, ourErr := oursOpts(dir, Options{Config: *cfg})
			switch {
			case theirErr != nil && ourErr != nil:
				t.Logf("both reject: ours: %v; neo-go: %s", ourErr, theirErr.(*exec.ExitError).Stderr)
			case theirErr != nil:
				t.Errorf("neo-go rejects (%s), we accept", theirErr.(*exec.ExitError).Stderr)
			case ourErr != nil:
				t.Errorf("we reject: %v", ourErr)
			default:
				if d := compareOutputs(want, got); d != "" {
					t.Error(firstLines(d, moduleDiffLines))
				} else {
					same++
				}
			}
		})
	}
	t.Logf("neo-go examples: %d of %d identical", same, len(ymls))
}

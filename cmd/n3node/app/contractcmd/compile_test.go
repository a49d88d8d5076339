package contractcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/urfave/cli/v3"
)

// TestCompile runs `contract compile` on a corpus contract of pkg/compiler
// and checks the NEF against neo-go's committed output.
func TestCompile(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "..", "pkg", "compiler", "testdata")
	src := filepath.Join(corpus, "corpus", "nep17")
	out := t.TempDir()
	nefPath, manPath, dbgPath := filepath.Join(out, "x.nef"), filepath.Join(out, "x.manifest.json"), filepath.Join(out, "x.debug.json")
	root := &cli.Command{Name: "n3node", Commands: []*cli.Command{Command()},
		ExitErrHandler: func(context.Context, *cli.Command, error) {}}
	bindPath := filepath.Join(out, "x.bindings.yml")
	err := root.Run(context.Background(), []string{"n3node", "contract", "compile", "-i", src, "-o", nefPath,
		"-m", manPath, "-c", filepath.Join(src, "contract.yml"), "-d", dbgPath, "--bindings", bindPath, "--guess-eventtypes"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(nefPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(corpus, "expected", "nep17.nef"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("NEF differs from neo-go's:\n got  %x\n want %x", got, want)
	}
	gotB, _ := os.ReadFile(bindPath)
	wantB, _ := os.ReadFile(filepath.Join(corpus, "expected", "nep17.bindings.yml"))
	if !bytes.Equal(gotB, wantB) {
		t.Errorf("bindings differ from neo-go's:\n%s", gotB)
	}
	gotM, _ := os.ReadFile(manPath)
	wantM, _ := os.ReadFile(filepath.Join(corpus, "expected", "nep17.manifest.json"))
	if !bytes.Equal(gotM, wantM) {
		t.Errorf("manifest differs:\n got  %s\n want %s", gotM, wantM)
	}
	var di map[string]any
	if data, err := os.ReadFile(dbgPath); err != nil || json.Unmarshal(data, &di) != nil || di["methods"] == nil {
		t.Errorf("bad debug info: %v", err)
	}
	err = root.Run(context.Background(), []string{"n3node", "contract", "compile", "-i", src, "-m", manPath})
	if err == nil {
		t.Error("-m without -c accepted")
	}
}

package contractcmd

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

// The expected outputs in testdata were made by neo-go 0.120.0 (the NEF
// and manifest are its compilation of the compiler corpus' nep17):
//
//	neo-go contract inspect -i nep17.nef > nep17.inspect
//	neo-go contract init -n sample                      (testdata/init, main.go as main.go.txt)
//	neo-go contract manifest add-group --wallet-config C -n nep17.nef \
//	    -m nep17.manifest.json -a Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn \
//	    -s NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq           (nep17.grouped.manifest.json)
//
// with C naming pkg/config/wallets/wallet1.json (password "one").
// TestToolsNeoGo (N3NODE_NEOGO=1) compares with the live binary.

const testSender = "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq"

// run runs `n3node contract args...` and returns its output.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	root := &cli.Command{Name: "n3node", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
	err := root.Run(context.Background(), append([]string{"n3node", "contract"}, args...))
	return out.String(), err
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := run(t, args...)
	if err != nil {
		t.Fatalf("contract %v: %v\n%s", args, err, out)
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestInspect(t *testing.T) {
	got := mustRun(t, "inspect", "-i", "testdata/nep17.nef")
	if want := readFile(t, "testdata/nep17.inspect"); got != want {
		t.Fatalf("inspect differs from neo-go's:\n%s", got)
	}
}

func TestInspectSources(t *testing.T) {
	dir := t.TempDir()
	src := "package c\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "c.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	di := `{"documents":["` + filepath.Join(dir, "c.go") + `"],"methods":[{"sequence-points":["0[0]4:2-4:14"]}]}`
	if err := os.WriteFile(filepath.Join(dir, "c.debug.json"), []byte(di), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "inspect", "-i", "testdata/nep17.nef", "-d", filepath.Join(dir, "c.debug.json"))
	lines := strings.Split(out, "\n")
	if lines[1] != "; c.go:4: return a + b" {
		t.Fatalf("no source line before offset 0:\n%s", strings.Join(lines[:4], "\n"))
	}
	// The columns are neo-go's, the source line inserted.
	plain := readFile(t, "testdata/nep17.inspect")
	if strings.Join(append(lines[:1:1], lines[2:]...), "\n") != plain {
		t.Fatal("source lines changed the listing")
	}
}

func TestCalcHash(t *testing.T) {
	got := mustRun(t, "calc-hash", "--in", "testdata/nep17.nef", "-m", "testdata/nep17.manifest.json", "-s", testSender)
	if want := "Contract hash: 41f544fc600fd9c0264c9473f5bd2f1b8581692b\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if _, err := run(t, "calc-hash", "--in", "testdata/nope.nef", "-m", "testdata/nep17.manifest.json", "-s", testSender); err == nil ||
		!strings.Contains(err.Error(), "can't read .nef file") {
		t.Fatalf("missing NEF: %v", err)
	}
}

func TestInit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if out := mustRun(t, "init", "-n", "sample"); out != "Successfully initialized smart contract [sample]\n" {
		t.Fatalf("output %q", out)
	}
	for _, f := range []string{"neo-go.yml", "go.mod", "main.go"} {
		golden := f
		if f == "main.go" {
			golden += ".txt" // not gofmt'ed: neo-go indents its body with spaces
		}
		want := readFile(t, filepath.Join(testdataDir, "init", golden))
		if got := readFile(t, filepath.Join(dir, "sample", f)); got != want {
			t.Errorf("%s differs from neo-go's:\n%s", f, got)
		}
	}
	if _, err := run(t, "init", "-n", "sample"); err == nil || err.Error() != errFileExists.Error() {
		t.Fatalf("existing directory: %v", err)
	}
}

func TestManifestAddGroup(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.json")
	if err := os.WriteFile(m, []byte(readFile(t, "testdata/nep17.manifest.json")), 0o644); err != nil {
		t.Fatal(err)
	}
	wc := filepath.Join(dir, "wallet.yml")
	if err := os.WriteFile(wc, []byte("Path: embedded:wallet1.json\nPassword: one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"manifest", "add-group", "--wallet-config", wc, "-n", "testdata/nep17.nef", "-m", m,
		"-a", "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn", "-s", testSender}
	mustRun(t, args...)
	want := readFile(t, "testdata/nep17.grouped.manifest.json")
	if got := readFile(t, m); got != want {
		t.Fatalf("manifest differs from neo-go's:\n%s", got)
	}
	// Signing again replaces the group's signature (deterministic: same file).
	mustRun(t, args...)
	if got := readFile(t, m); got != want {
		t.Fatal("second add-group changed the manifest")
	}
}

// testdataDir is the absolute testdata path (tests may change directory).
var testdataDir = func() string {
	d, err := filepath.Abs("testdata")
	if err != nil {
		panic(err)
	}
	return d
}()

// TestToolsNeoGo compares the tools with neo-go 0.120.0's binary on the
// compiler corpus' NEF files.
func TestToolsNeoGo(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to compare with neo-go 0.120.0")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nefs, _ := filepath.Glob("../../../../pkg/compiler/testdata/expected/*.nef")
	if len(nefs) == 0 {
		t.Fatal("no NEF files")
	}
	for _, f := range nefs {
		ref, err := exec.CommandContext(ctx, bin, "contract", "inspect", "-i", f).Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := mustRun(t, "inspect", "-i", f); got != string(ref) {
			t.Errorf("inspect %s differs", f)
		}
		mf := strings.TrimSuffix(f, ".nef") + ".manifest.json"
		ref, err = exec.CommandContext(ctx, bin, "contract", "calc-hash", "--in", f, "-m", mf, "-s", testSender).Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := mustRun(t, "calc-hash", "--in", f, "-m", mf, "-s", testSender); got != string(ref) {
			t.Errorf("calc-hash %s: %q, neo-go %q", f, got, ref)
		}
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if err := exec.CommandContext(ctx, bin, "contract", "init", "-n", "ref").Run(); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "init", "-n", "ours")
	for _, f := range []string{"neo-go.yml", "go.mod", "main.go"} {
		ref := strings.ReplaceAll(readFile(t, filepath.Join("ref", f)), "ref", "ours")
		if got := readFile(t, filepath.Join("ours", f)); got != ref {
			t.Errorf("init %s differs", f)
		}
	}
}

func TestGenerateWrapper(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.go")
	mustRun(t, "generate-wrapper", "-m", "testdata/nep17.manifest.json", "-o", out, "--hash", "0x41f544fc600fd9c0264c9473f5bd2f1b8581692b")
	// neo-go 0.120.0's output for the same flags.
	if got, want := readFile(t, out), readFile(t, "testdata/nep17.wrapper.go.txt"); got != want {
		t.Fatalf("wrapper differs from neo-go's:\n%s", got)
	}
	if _, err := run(t, "generate-wrapper", "-m", "testdata/nep17.manifest.json", "-o", out, "--hash", "zz"); err == nil ||
		!strings.Contains(err.Error(), "invalid contract hash") {
		t.Fatalf("bad hash: %v", err)
	}
}

func TestGenerateRPCWrapper(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.go")
	td := "../../../../pkg/smartcontract/binding/testdata/rpc/"
	mustRun(t, "generate-rpcwrapper", "-m", td+"nep17.manifest.json", "-c", td+"nep17.bindings.yml", "-o", out, "--hash", "0x41f544fc600fd9c0264c9473f5bd2f1b8581692b")
	// neo-go 0.120.0's output for the same flags.
	if got, want := readFile(t, out), readFile(t, td+"nep17.go.txt"); got != want {
		t.Fatalf("RPC wrapper differs from neo-go's:\n%s", got)
	}
}

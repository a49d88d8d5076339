package binding_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/binding"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
)

// The *.go.txt files are neo-go 0.120.0's `contract generate-wrapper`
// output for the manifests here (the compiler corpus' nep17 and
// overloads, compiled by neo-go):
//
//	nep17.dynamic.go.txt   -m nep17.manifest.json
//	nep17.static.go.txt    -m nep17.manifest.json --hash 0x41f544fc600fd9c0264c9473f5bd2f1b8581692b
//	nep17.config.go.txt    the same with -c nep17.bindings.yml
//	overloads.go.txt       -m overloads.manifest.json

const nep17Hash = "41f544fc600fd9c0264c9473f5bd2f1b8581692b"

func readManifest(t *testing.T, path string) *manifest.Manifest {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.FromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGenerateGolden(t *testing.T) {
	h, err := hash.Uint160DecodeStringLE(nep17Hash)
	if err != nil {
		t.Fatal(err)
	}
	cfgData, err := os.ReadFile("testdata/nep17.bindings.yml")
	if err != nil {
		t.Fatal(err)
	}
	withConfig, err := binding.ParseConfig(cfgData)
	if err != nil {
		t.Fatal(err)
	}
	if withConfig.Types["transfer.data"].Value == nil || len(withConfig.NamedTypes["token.Pair"].Fields) != 1 {
		t.Fatalf("types not read: %+v", withConfig)
	}
	withConfig.Hash = h
	for _, c := range []struct {
		golden, manifest string
		cfg              binding.Config
	}{
		{"nep17.dynamic.go.txt", "nep17.manifest.json", binding.Config{}},
		{"nep17.static.go.txt", "nep17.manifest.json", binding.Config{Hash: h}},
		{"nep17.config.go.txt", "nep17.manifest.json", withConfig},
		{"overloads.go.txt", "overloads.manifest.json", binding.Config{}},
	} {
		c.cfg.Manifest = readManifest(t, filepath.Join("testdata", c.manifest))
		var out bytes.Buffer
		if err := binding.Generate(c.cfg, &out); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", c.golden))
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != string(want) {
			t.Errorf("%s differs:\n%s", c.golden, out.String())
		}
	}
}

func TestParseOverride(t *testing.T) {
	for in, want := range map[string]binding.Override{
		"int":               {TypeName: "int"},
		"iterator.Iterator": {Package: "github.com/nspcc-dev/neo-go/pkg/interop/iterator", TypeName: "iterator.Iterator"},
		"github.com/nspcc-dev/neo-go/pkg/interop.Hash160":     {Package: "github.com/nspcc-dev/neo-go/pkg/interop", TypeName: "interop.Hash160"},
		"[]github.com/nspcc-dev/neo-go/pkg/interop.PublicKey": {Package: "github.com/nspcc-dev/neo-go/pkg/interop", TypeName: "[]interop.PublicKey"},
		"*ledger.Block": {Package: "github.com/nspcc-dev/neo-go/pkg/interop/native/ledger", TypeName: "**ledger.Block"},
	} {
		if got := binding.ParseOverride(in); got != want {
			t.Errorf("%q: %+v, want %+v", in, got, want)
		}
	}
	if _, err := binding.ParseConfig([]byte("nosuchkey: 1\n")); err == nil {
		t.Error("unknown key accepted")
	}
}

// TestGenerateNeoGo compares with neo-go 0.120.0's generator on the
// manifests of its module's CLI testdata (read from the module cache),
// with and without a hash and its bindings configuration.
func TestGenerateNeoGo(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to compare with neo-go 0.120.0")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	td := filepath.Join(strings.TrimSpace(string(modcache)), "github.com/nspcc-dev/neo-go@v0.120.0/cli/smartcontract/testdata")
	var manifests []string
	_ = filepath.WalkDir(td, func(p string, _ os.DirEntry, _ error) error {
		if strings.HasSuffix(p, ".manifest.json") {
			manifests = append(manifests, p)
		}
		return nil
	})
	local, _ := filepath.Glob("testdata/*.manifest.json")
	manifests = append(manifests, local...)
	if len(manifests) < 5 {
		t.Fatalf("only %d manifests", len(manifests))
	}
	dir := t.TempDir()
	for _, m := range manifests {
		for _, extra := range [][]string{nil, {"--hash", "0x" + nep17Hash}, {"-c", filepath.Join(td, "verify.bindings.yml")}} {
			ref := filepath.Join(dir, "ref.go")
			args := append([]string{"contract", "generate-wrapper", "-m", m, "-o", ref}, extra...)
			if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
				t.Logf("neo-go refuses %s %v: %s", m, extra, out)
				continue
			}
			want, _ := os.ReadFile(ref)
			raw, _ := os.ReadFile(m)
			man, err := manifest.FromJSON(raw)
			if err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			var cfg binding.Config
			for i := 0; i+1 < len(extra); i += 2 {
				switch extra[i] {
				case "-c":
					data, _ := os.ReadFile(extra[i+1])
					if cfg, err = binding.ParseConfig(data); err != nil {
						t.Fatal(err)
					}
					cfg.Hash = hash.Uint160{}
				case "--hash":
					cfg.Hash, _ = hash.Uint160DecodeStringLE(nep17Hash)
				}
			}
			cfg.Manifest = man
			var got bytes.Buffer
			if err := binding.Generate(cfg, &got); err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("%s %v differs from neo-go", m, extra)
			}
		}
	}
}

package binding_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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

// testdata/rpc holds contracts of the compiler corpus compiled by neo-go
// 0.120.0 (`contract compile --bindings --guess-eventtypes`: manifest and
// bindings configuration) and neo-go's `contract generate-rpcwrapper`
// output for them (*.go.txt; with --hash for those in rpcHashed).
// structs.raw.go.txt is the output for structs with its first method
// renamed by unparsable (see unparsable), which neo-go writes unformatted.
var rpcHashed = map[string]bool{"nep17": true, "notifyconv": true, "iterators": true}

// rpcConfig reads testdata/rpc/<name>'s manifest and configuration.
func rpcConfig(t *testing.T, manifestPath, configPath string) binding.Config {
	t.Helper()
	var cfg binding.Config
	if configPath != "" {
		data, err := os.ReadFile(configPath)
		if err != nil {
			t.Fatal(err)
		}
		if cfg, err = binding.ParseConfig(data); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Hash = hash.Uint160{}
	cfg.Manifest = readManifest(t, manifestPath)
	return cfg
}

func TestGenerateRPCGolden(t *testing.T) {
	goldens, _ := filepath.Glob("testdata/rpc/*.go.txt")
	if len(goldens) < 5 {
		t.Fatalf("only %d golden files", len(goldens))
	}
	h, _ := hash.Uint160DecodeStringLE(nep17Hash)
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), ".go.txt")
		t.Run(name, func(t *testing.T) {
			raw := strings.HasSuffix(name, ".raw")
			base := filepath.Join("testdata", "rpc", strings.TrimSuffix(name, ".raw"))
			cfg := rpcConfig(t, base+".manifest.json", base+".bindings.yml")
			if raw {
				unparsable(cfg.Manifest)
			}
			if rpcHashed[name] {
				cfg.Hash = h
			}
			var out bytes.Buffer
			if err := binding.GenerateRPC(cfg, &out); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != string(want) {
				t.Errorf("differs from neo-go's:\n%s", out.String())
			}
		})
	}
}

func TestGenerateRPCErrors(t *testing.T) {
	cfg := rpcConfig(t, "testdata/rpc/structs.manifest.json", "testdata/rpc/structs.bindings.yml")
	for name, et := range cfg.NamedTypes {
		et.Fields = append(et.Fields, et.Fields[0])
		et.Fields[len(et.Fields)-1].Field = strings.ToLower(et.Fields[0].Field[:1]) + et.Fields[0].Field[1:]
		cfg.NamedTypes[name] = et
		break
	}
	err := binding.GenerateRPC(cfg, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "has two fields with identical resulting binding name") {
		t.Fatalf("duplicate field: %v", err)
	}
	if err := binding.GenerateRPC(binding.Config{}, &bytes.Buffer{}); err == nil {
		t.Fatal("no manifest accepted")
	}
}

// neoGoModule is neo-go v0.120.0's module directory in the module cache.
func neoGoModule(t *testing.T) string {
	t.Helper()
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(strings.TrimSpace(string(modcache)), "github.com/nspcc-dev/neo-go@v0.120.0")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("neo-go module not in the module cache: %v", err)
	}
	return dir
}

// TestGenerateRPCNeoGo compares with neo-go 0.120.0 (and the contract
// wrapper where there is a configuration): every manifest of its
// module (read from the module cache) and ours, with and without a hash;
// the corpus contracts with the bindings configurations neo-go wrote;
// the contracts of its CLI rpcbindings testdata and of its examples/ (from
// a repository snapshot, when there is one) compiled by neo-go with
// --bindings (and --guess-eventtypes), with their configurations; and the
// outputs its own tests expect for nex, nns, gas, verify and nonepiter.
func TestGenerateRPCNeoGo(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to compare with neo-go 0.120.0")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mod := neoGoModule(t)
	cli := filepath.Join(mod, "cli", "smartcontract")
	dir := t.TempDir()
	type job struct{ manifest, config string }
	var jobs []job
	_ = filepath.WalkDir(mod, func(p string, _ os.DirEntry, _ error) error {
		if strings.HasSuffix(p, ".manifest.json") {
			jobs = append(jobs, job{manifest: p})
		}
		return nil
	})
	local, _ := filepath.Glob("testdata/*.manifest.json")
	local2, _ := filepath.Glob("testdata/rpc/*.manifest.json")
	for _, m := range append(local, local2...) {
		jobs = append(jobs, job{manifest: m})
	}
	corpus, _ := filepath.Glob("../../compiler/testdata/expected/*.bindings.yml")
	for _, c := range corpus {
		jobs = append(jobs, job{manifest: strings.TrimSuffix(c, ".bindings.yml") + ".manifest.json", config: c})
	}
	for _, m := range local2 {
		jobs = append(jobs, job{manifest: m, config: strings.TrimSuffix(m, ".manifest.json") + ".bindings.yml"})
	}
	srcs, _ := filepath.Glob(filepath.Join(cli, "testdata", "rpcbindings", "*", "config*.yml"))
	srcs = append(srcs, neoGoExamples(t)...)
	for _, cfgFile := range srcs {
		src := filepath.Dir(cfgFile)
		if strings.Contains(src, "invalid") {
			continue
		}
		for _, guess := range []bool{false, true} {
			base := filepath.Join(dir, strings.Join([]string{filepath.Base(src), filepath.Base(cfgFile), map[bool]string{true: "g"}[guess]}, "-"))
			args := []string{"contract", "compile", "-i", src, "-c", cfgFile, "-o", base + ".nef", "-m", base + ".manifest.json", "--bindings", base + ".yml"}
			if guess {
				args = append(args, "--guess-eventtypes")
			}
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Dir = src
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("neo-go compile %s: %v: %s", cfgFile, err, out)
			}
			jobs = append(jobs, job{base + ".manifest.json", base + ".yml"})
		}
	}
	if len(jobs) < 30 {
		t.Fatalf("only %d cases", len(jobs))
	}
	// The same with a method name that is not an identifier (unformatted
	// output), for the jobs with a configuration.
	for _, j := range jobs {
		if j.config == "" {
			continue
		}
		m := readManifest(t, j.manifest)
		unparsable(m)
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, fmt.Sprintf("unparsable%d.manifest.json", len(jobs)))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, job{name, j.config})
	}
	compared := 0
	type generator struct {
		command string
		gen     func(binding.Config, io.Writer) error
	}
	for _, j := range jobs {
		gens := []generator{{"generate-rpcwrapper", binding.GenerateRPC}}
		if j.config != "" {
			// The contract wrapper with the configurations of compiled
			// contracts (the others are TestGenerateNeoGo's).
			gens = append(gens, generator{"generate-wrapper", binding.Generate})
		}
		for _, g := range gens {
			compared += compareGenerator(ctx, t, bin, dir, g.command, g.gen, j.manifest, j.config)
		}
	}
	// The outputs neo-go's own tests expect.
	for _, c := range [][3]string{
		{"testdata/nex/nex.manifest.json", "0xa2a67f09e8cf22c6bfd5cea24adc0f4bf0a11aa8", "testdata/nex/nex.go"},
		{"testdata/nameservice/nns.manifest.json", "0x50ac1c37690cc2cfc594472833cf57505d5f46de", "testdata/nameservice/nns.go"},
		{"testdata/gas/gas.manifest.json", "0xd2a4cff31913016155e38e474a2c06d08be276cf", "testdata/gas/gas.go"},
		{"testdata/verifyrpc/verify.manifest.json", "0x00112233445566778899aabbccddeeff00112233", "rpcbindings/verify/rpcbindings_test.go"},
		{"testdata/nonepiter/iter.manifest.json", "0x00112233445566778899aabbccddeeff00112233", "testdata/nonepiter/iter.go"},
	} {
		cfg := rpcConfig(t, filepath.Join(cli, c[0]), "")
		cfg.Hash, _ = hash.Uint160DecodeStringLE(strings.TrimPrefix(c[1], "0x"))
		var got bytes.Buffer
		if err := binding.GenerateRPC(cfg, &got); err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(cli, c[2]))
		if err != nil {
			t.Fatal(err)
		}
		compared++
		if got.String() != string(want) {
			t.Errorf("%s differs from neo-go's expected %s", c[0], c[2])
		}
	}
	t.Logf("%d outputs compared with neo-go's", compared)
}

// compareGenerator runs neo-go's generator command and gen on a manifest
// (and configuration), without and with a hash, and reports differences;
// it returns how many outputs it compared.
func compareGenerator(ctx context.Context, t *testing.T, bin, dir, command string, gen func(binding.Config, io.Writer) error, manifestPath, configPath string) int {
	t.Helper()
	compared := 0
	for _, hashArg := range []string{"", "0x00112233445566778899aabbccddeeff00112233"} {
		ref := filepath.Join(dir, "ref.go")
		args := []string{"contract", command, "-m", manifestPath, "-o", ref}
		if configPath != "" {
			args = append(args, "-c", configPath)
		}
		if hashArg != "" {
			args = append(args, "--hash", hashArg)
		}
		if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
			t.Logf("neo-go refuses %s %s: %s", manifestPath, hashArg, out)
			continue
		}
		want, _ := os.ReadFile(ref)
		cfg := rpcConfig(t, manifestPath, configPath)
		cfg.Hash, _ = hash.Uint160DecodeStringLE(strings.TrimPrefix(hashArg, "0x"))
		var got bytes.Buffer
		if err := gen(cfg, &got); err != nil {
			t.Errorf("%s %s %s: %v", command, manifestPath, hashArg, err)
			continue
		}
		compared++
		if got.String() != string(want) {
			t.Errorf("%s %s %s %s differs from neo-go", command, manifestPath, configPath, hashArg)
		}
	}
	return compared
}

// neoGoExamples extracts neo-go's examples/ at v0.120.0 from a repository
// snapshot (N3NODE_NEOGO_REPO, default the project machines' mirror) and
// returns their configuration files; none without a snapshot.
func neoGoExamples(t *testing.T) []string {
	t.Helper()
	repo := os.Getenv("N3NODE_NEOGO_REPO")
	if repo == "" {
		repo = "/work/.mirror/nspcc-dev+neo-go/repo"
	}
	if _, err := os.Stat(repo); err != nil {
		t.Logf("no neo-go repository snapshot at %s: examples skipped", repo)
		return nil
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
	return ymls
}

// unparsable renames the first public method of m to a name that is not
// a Go identifier ("name-x"), so the generated code does not parse and
// is written unformatted: the comparison then covers the generator's
// text before gofmt, spaces included.
func unparsable(m *manifest.Manifest) {
	for i := range m.ABI.Methods {
		if !strings.HasPrefix(m.ABI.Methods[i].Name, "_") {
			m.ABI.Methods[i].Name += "-x"
			return
		}
	}
}

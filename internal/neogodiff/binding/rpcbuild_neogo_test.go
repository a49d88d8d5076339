package binding_test

// Build check against neo-go 0.120.0's packages (test-only module).

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/binding"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
)

// rpcTestdata is the RPC binding generator's testdata in the main module:
// manifests and bindings configurations of compiler corpus contracts.
const rpcTestdata = "../../../pkg/smartcontract/binding/testdata/rpc"

// TestRPCBindingsBuild generates the RPC binding of every manifest of
// rpcTestdata (with its configuration, with and without a hash) into a
// package of this module and builds them all against neo-go's rpcclient.
func TestRPCBindingsBuild(t *testing.T) {
	manifests, _ := filepath.Glob(filepath.Join(rpcTestdata, "*.manifest.json"))
	if len(manifests) < 5 {
		t.Fatalf("only %d manifests", len(manifests))
	}
	root, err := os.MkdirTemp(".", "generated-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	h, _ := hash.Uint160DecodeStringLE("41f544fc600fd9c0264c9473f5bd2f1b8581692b")
	for _, mf := range manifests {
		name := strings.TrimSuffix(filepath.Base(mf), ".manifest.json")
		raw, err := os.ReadFile(mf)
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.FromJSON(raw)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(rpcTestdata, name+".bindings.yml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, static := range []bool{false, true} {
			cfg, err := binding.ParseConfig(data)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Manifest, cfg.Hash = m, hash.Uint160{}
			dir := filepath.Join(root, name+"dynamic")
			if static {
				cfg.Hash, dir = h, filepath.Join(root, name+"static")
			}
			var out bytes.Buffer
			if err := binding.GenerateRPC(cfg, &out); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "binding.go"), out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, _ := exec.Command("go", "vet", "./"+filepath.ToSlash(root)+"/...").CombinedOutput()
	for _, mf := range manifests {
		name := strings.TrimSuffix(filepath.Base(mf), ".manifest.json")
		for _, variant := range []string{"dynamic", "static"} {
			pkg := "/" + name + variant + "/binding.go:"
			var errs []string
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, pkg) {
					errs = append(errs, line[strings.Index(line, pkg)+len(pkg):])
				}
			}
			known, defect := neoGoDefects[name]
			switch {
			case defect && (len(errs) != 1 || !strings.HasSuffix(errs[0], known)):
				t.Errorf("%s%s: want neo-go's defect %q, got %q", name, variant, known, errs)
			case !defect && len(errs) != 0:
				t.Errorf("%s%s does not build: %q", name, variant, errs)
			}
		}
	}
}

// neoGoDefects are the bindings that do not build because neo-go 0.120.0's
// generator, whose output ours reproduces byte for byte, imports a
// package the code does not use: the element type of an iterator result
// (a safe method returning an iterator of integers imports math/big), and
// stackitem for map-typed parameters of methods that are not safe.
var neoGoDefects = map[string]string{
	"iterators": `"math/big" imported and not used`,
	"maps":      `"github.com/nspcc-dev/neo-go/pkg/vm/stackitem" imported and not used`,
}

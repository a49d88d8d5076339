package layering

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/n3node/n3node"

// rule forbids packages matching from (a path prefix under the module) to
// depend, directly or transitively, on packages matching to. A prefix
// ending in "/" matches the package itself and everything below it; without
// it, it matches only that exact package and its subpackages.
type rule struct {
	from, to string
	why      string
}

var rules = []rule{
	{"pkg/io", "pkg/", "binary I/O is the bottom layer"},
	{"pkg/crypto", "pkg/core", "crypto knows nothing of the ledger"},
	{"pkg/crypto", "pkg/vm", "crypto knows nothing of the VM"},
	{"pkg/vm", "pkg/core", "the VM does not import the ledger; syscalls come through a hook"},
	{"pkg/vm", "pkg/network", "the VM does not know the network"},
	{"pkg/core/storage", "pkg/core/", "storage is below every ledger package"},
	{"pkg/core/storage", "pkg/vm", "storage is below the VM"},
	{"pkg/core/mpt", "pkg/vm", "the trie is independent of the VM"},
	{"pkg/core/bintrie", "pkg/vm", "the binary trie is independent of the VM"},
	{"pkg/core/mpt", "pkg/core/native", "the trie is below the native contracts"},
	{"pkg/core/bintrie", "pkg/core/native", "the binary trie is below the native contracts"},
	{"pkg/core/transaction", "pkg/core/storage", "wire formats do not touch storage"},
	{"pkg/core/block", "pkg/core/storage", "wire formats do not touch storage"},
	{"pkg/consensus", "pkg/network", "consensus declares what it needs of the network (it may use the wire formats of pkg/network/payload)"},
	{"pkg/network", "pkg/rpcserver", "the network does not know RPC"},
	{"pkg/network", "pkg/consensus", "the network does not know consensus"},
	{"pkg/core", "pkg/network", "the ledger does not know the network; pkg/node adapts its payloads (VerifyExtensible takes sender, hash and witness)"},
	{"pkg/core", "pkg/rpcserver", "the ledger does not know RPC; chainrpc declares what it needs"},
	{"pkg/core", "pkg/services", "the ledger does not know the services; they query it"},
	{"pkg/core", "pkg/consensus", "the ledger does not know consensus"},
	{"pkg/compiler", "pkg/core", "the compiler is a toolchain: it needs the VM's opcodes and the contract formats, never the ledger"},
	{"pkg/compiler", "pkg/network", "the compiler is a toolchain and knows nothing of the network"},
	{"pkg/", "cmd/", "libraries never import commands"},
	{"pkg/", "internal/", "production code does not use test helpers"},
	{"pkg/fee", "pkg/vm/stackitem", "prices sit below the VM, which imports them (only pkg/vm/opcode)"},
	{"pkg/fee", "pkg/smartcontract", "prices sit below the VM, which imports them (only pkg/vm/opcode)"},
}

// engines are the storage engines, which only the node's storage may pull
// in.
var engines = []string{"github.com/cockroachdb/pebble", "go.etcd.io/bbolt", "github.com/syndtr/goleveldb"}

// engineFree are the packages that must not depend on a storage engine:
// the client and the wire types it shares with the server (a client binary
// carries no database).
var engineFree = []string{"pkg/rpcclient", "pkg/neorpc"}

// allowed are exceptions to rules: pure wire-format packages below a
// forbidden tree that a package may use.
var allowed = []rule{
	{"pkg/consensus", "pkg/network/payload", "the extensible payload is the consensus envelope"},
	{"pkg/consensus", "pkg/network/capability", "imported by pkg/network/payload"},
}

func isAllowed(pkg, dep string) bool {
	for _, a := range allowed {
		if matches(pkg, a.from) && matches(dep, a.to) {
			return true
		}
	}
	return false
}

// exactCore is the Blockchain package itself; network and consensus must
// declare the small Ledger interface they need instead of importing it.
var exactForbidden = []rule{
	{"pkg/network", "pkg/core", "network declares its Ledger interface instead of importing core"},
	{"pkg/consensus", "pkg/core", "consensus declares its Ledger interface instead of importing core"},
}

func matches(pkg, pattern string) bool {
	p := module + "/" + strings.TrimSuffix(pattern, "/")
	if strings.HasSuffix(pattern, "/") {
		return pkg == p || strings.HasPrefix(pkg, p+"/")
	}
	return pkg == p || strings.HasPrefix(pkg, p+"/")
}

func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", module+"/...").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	if len(lines) == 0 {
		t.Fatal("go list returned no packages")
	}
	checked := 0
	for _, line := range lines {
		fields := strings.Fields(string(line))
		pkg, deps := fields[0], fields[1:]
		checked++
		for _, dep := range deps {
			if !strings.HasPrefix(dep, module+"/") {
				for _, from := range engineFree {
					for _, e := range engines {
						if matches(pkg, from) && strings.HasPrefix(dep, e) && !strings.HasSuffix(pkg, "_test") {
							t.Errorf("%s depends on %s: the RPC client and its types carry no storage engine", pkg, dep)
						}
					}
				}
				continue
			}
			for _, r := range rules {
				if matches(pkg, r.from) && matches(dep, r.to) && !matches(dep, r.from) && !isAllowed(pkg, dep) {
					t.Errorf("%s depends on %s: %s", pkg, dep, r.why)
				}
			}
			for _, r := range exactForbidden {
				if matches(pkg, r.from) && dep == module+"/"+r.to {
					t.Errorf("%s depends on %s: %s", pkg, dep, r.why)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no packages checked")
	}
}

// neoGo is the reference implementation's module path.
const neoGo = "github.com/nspcc-dev/neo-go"

// TestNoNeoGo: no package of the main module, test files included, imports
// neo-go, and the module graph does not hold it. Differential tests against
// neo-go live in the nested module internal/neogodiff (make neogo-diff).
func TestNoNeoGo(t *testing.T) {
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}",
		module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkgs++
		for _, imp := range fields[1:] {
			if imp == neoGo || strings.HasPrefix(imp, neoGo+"/") {
				t.Errorf("%s imports %s: neo-go belongs in internal/neogodiff", fields[0], imp)
			}
		}
	}
	if pkgs == 0 {
		t.Fatal("go list returned no packages")
	}
	mods, err := exec.Command("go", "list", "-m", "all").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	for line := range strings.Lines(string(mods)) {
		if f := strings.Fields(line); len(f) > 0 && f[0] == neoGo {
			t.Errorf("the main module requires %s; it belongs in internal/neogodiff's go.mod", line)
		}
	}
}

func TestMatches(t *testing.T) {
	cases := []struct {
		pkg, pattern string
		want         bool
	}{
		{module + "/pkg/vm", "pkg/vm", true},
		{module + "/pkg/vm/stackitem", "pkg/vm", true},
		{module + "/pkg/vmx", "pkg/vm", false},
		{module + "/pkg/core/mpt", "pkg/core/", true},
		{module + "/pkg/core", "pkg/core/", true},
	}
	for _, c := range cases {
		if got := matches(c.pkg, c.pattern); got != c.want {
			t.Errorf("matches(%q, %q) = %v, want %v", c.pkg, c.pattern, got, c.want)
		}
	}
}

// TestREADMEListsPackages: the README's layout table names every package
// under pkg/ and internal/ (in backquotes).
func TestREADMEListsPackages(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "list", module+"/pkg/...", module+"/internal/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(p, module+"/")
		if !bytes.Contains(readme, []byte("`"+rel+"`")) {
			t.Errorf("README.md does not list %s", rel)
		}
	}
}

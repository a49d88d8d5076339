package neotest

import (
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/n3node/n3node/pkg/compiler"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
)

// CompilerName is the compiler string neotest writes into the NEF files it
// compiles: the one neo-go's neotest writes, so that contract hashes (which
// depend on the NEF checksum) are the same under both frameworks.
const CompilerName = "neo-go-neotest"

// Contract is a compiled contract ready to deploy.
type Contract struct {
	// Hash is the hash the contract gets when deployed by the sender it
	// was compiled or read for.
	Hash     hash.Uint160
	NEF      *nef.File
	Manifest *manifest.Manifest
	// DebugInfo is set for compiled contracts (coverage needs it).
	DebugInfo *compiler.DebugInfo
}

// compiled caches contracts by source (and sender for ReadNEF) across the
// tests of a process: compiling is the slow part of a contract test.
var (
	compiledMu sync.Mutex
	compiled   = map[string]*Contract{}
)

func cached(key string, build func() *Contract) *Contract {
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if c, ok := compiled[key]; ok {
		return c
	}
	c := build()
	if c != nil {
		compiled[key] = c
	}
	return c
}

func newContract(t testing.TB, sender hash.Uint160, path string, o compiler.Options) *Contract {
	t.Helper()
	if o.CompilerName == "" {
		o.CompilerName = CompilerName
	}
	f, m, di, err := compiler.Compile(path, o)
	if err != nil {
		t.Fatalf("neotest: compiling %s: %v", path, err)
		return nil
	}
	return &Contract{Hash: smartcontract.GetContractHash(sender, f.Checksum, m.Name), NEF: f, Manifest: m, DebugInfo: di}
}

// CompileFile compiles the contract at srcPath (a .go file or a package
// directory) with the configuration file configPath, for deployment by
// sender. Results are cached by the two paths for the whole test binary.
func CompileFile(t testing.TB, sender hash.Uint160, srcPath string, configPath string) *Contract {
	t.Helper()
	return cached(srcPath+"|"+configPath, func() *Contract {
		data, err := os.ReadFile(configPath)
		if err != nil {
			t.Fatalf("neotest: %v", err)
		}
		cfg, err := compiler.ParseConfig(data)
		if err != nil {
			t.Fatalf("neotest: %s: %v", configPath, err)
		}
		return newContract(t, sender, srcPath, compiler.Options{Config: *cfg})
	})
}

// CompileSource compiles the single-file contract read from src with opts
// (nil: defaults). The compiler loads Go packages from disk, so the source
// is written to a temporary directory under the current one, which must
// be inside a module that requires neo-go's interop package (as a
// contract's test directory is). Its document is "contract.go" in that
// directory: disable coverage for such contracts.
func CompileSource(t testing.TB, sender hash.Uint160, src io.Reader, opts *compiler.Options) *Contract {
	t.Helper()
	data, err := io.ReadAll(src)
	if err != nil {
		t.Fatalf("neotest: %v", err)
	}
	dir, err := os.MkdirTemp(".", "neotest-src-")
	if err != nil {
		t.Fatalf("neotest: %v", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "contract.go")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatalf("neotest: %v", err)
	}
	var o compiler.Options
	if opts != nil {
		o = *opts
	}
	return newContract(t, sender, file, o)
}

// ReadNEF loads a contract from its NEF and manifest files, for
// deployment by sender, and checks the manifest against the hash.
func ReadNEF(t testing.TB, sender hash.Uint160, nefPath, manifestPath string) *Contract {
	t.Helper()
	return cached(sender.StringLE()+"|"+nefPath+"|"+manifestPath, func() *Contract {
		raw, err := os.ReadFile(nefPath)
		if err != nil {
			t.Fatalf("neotest: %v", err)
		}
		f, err := nef.FileFromBytes(raw)
		if err != nil {
			t.Fatalf("neotest: %s: %v", nefPath, err)
		}
		mraw, err := os.ReadFile(manifestPath)
		if err != nil {
			t.Fatalf("neotest: %v", err)
		}
		m, err := manifest.FromJSON(mraw)
		if err != nil {
			t.Fatalf("neotest: %s: %v", manifestPath, err)
		}
		h := smartcontract.GetContractHash(sender, f.Checksum, m.Name)
		if err := m.IsValid(h, true); err != nil {
			t.Fatalf("neotest: %s: %v", manifestPath, err)
		}
		return &Contract{Hash: h, NEF: f, Manifest: m}
	})
}

package neotest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/neotest"
	"github.com/n3node/n3node/pkg/neotest/chain"
)

// TestCompilerCorpus deploys every contract of the compiler's corpus
// (pkg/compiler/testdata/corpus, compiled here with neotest's compiler
// name) on one chain and test-invokes each method without parameters:
// deployment must HALT (ContractManagement checks the NEF and manifest,
// _deploy runs) and so must those calls.
func TestCompilerCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the whole corpus")
	}
	root := filepath.Join("..", "compiler", "testdata", "corpus")
	dirs, err := filepath.Glob(filepath.Join(root, "*", "main.go"))
	if err != nil || len(dirs) < 20 {
		t.Fatalf("corpus: %d contracts, %v", len(dirs), err)
	}
	// Methods that FAULT by design, with the expected message.
	faults := map[string]string{
		"contractcall.static": "not found: key not found", // calls an undeployed hash (neo-go's text)
	}
	bc, acc := chain.NewSingle(t)
	e := neotest.NewExecutor(t, bc, acc, acc)
	tmp := t.TempDir()
	for _, mainGo := range dirs {
		dir := filepath.Dir(mainGo)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			cfg := filepath.Join(dir, "contract.yml")
			if _, err := os.Stat(cfg); err != nil {
				cfg = filepath.Join(tmp, name+".yml")
				if err := os.WriteFile(cfg, []byte("name: "+name+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c := neotest.CompileFile(t, e.Validator.ScriptHash(), dir, cfg)
			e.DeployContract(t, c, nil)
			inv := e.ValidatorInvoker(c.Hash)
			for _, m := range c.Manifest.ABI.Methods {
				if len(m.Parameters) != 0 || m.Name[0] == '_' || m.Name == "verify" {
					continue
				}
				_, err := inv.TestInvoke(t, m.Name)
				want, faulty := faults[name+"."+m.Name]
				switch {
				case faulty && (err == nil || !strings.Contains(err.Error(), want)):
					t.Errorf("%s.%s: %v, want a FAULT with %q", name, m.Name, err, want)
				case !faulty && err != nil:
					t.Errorf("%s.%s: %v", name, m.Name, err)
				}
			}
			if name == "iterators" {
				// An iterator left on the stack is a *neotest.Iterator
				// (neo-go's *storage.Iterator): the contract's storage is
				// empty, so it has nothing.
				st, err := inv.TestInvoke(t, "raw", "")
				if err != nil || st.Len() != 1 {
					t.Fatalf("iterators.raw: %v, %d items", err, st.Len())
				}
				it, ok := st.Pop().Interop().Value().(*neotest.Iterator)
				if !ok || it.Next() || it.Value() != nil {
					t.Errorf("iterators.raw: %v", it)
				}
			}
		})
	}
}

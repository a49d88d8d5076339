package vm

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/vm/vmstate"
)

const fuzzGasLimit = 1_000_000 // datoshi

// FuzzVM runs arbitrary scripts with a GAS limit: the VM must never panic
// and must stop in HALT or FAULT within the limit (plus the price of the
// instruction that crossed it). The seeds are the JSON suite's scripts.
func FuzzVM(f *testing.F) {
	_ = filepath.WalkDir(filepath.Join("testdata", "neovm"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var jf jsonFile
		if json.Unmarshal(data, &jf) != nil {
			return nil
		}
		for _, t := range jf.Tests {
			if s, err := decodeScript(t.Script); err == nil {
				f.Add(s)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, script []byte) {
		v := New()
		v.SetHooks(Hooks{Syscall: jsonTestSyscall})
		v.SetExecFeeFactor(30 * FeeFactor)
		v.SetGasLimit(fuzzGasLimit)
		if _, err := v.LoadScript(NewScript(script)); err != nil {
			t.Fatal(err)
		}
		st := v.Execute()
		if st != vmstate.Halt && st != vmstate.Fault {
			t.Fatalf("state %s", st)
		}
		if max := int64(fuzzGasLimit) + 30*(1<<15); v.GasConsumed() > max {
			t.Fatalf("consumed %d > %d", v.GasConsumed(), max)
		}
		if v.Refs() < 0 {
			t.Fatalf("negative refs %d", v.Refs())
		}
		// The same script on a reused VM gives the same outcome.
		state, gas := st, v.GasConsumed()
		v.Reset()
		v.SetExecFeeFactor(30 * FeeFactor)
		v.SetGasLimit(fuzzGasLimit)
		if _, err := v.LoadScript(NewScript(script)); err != nil {
			t.Fatal(err)
		}
		if st := v.Execute(); st != state || v.GasConsumed() != gas {
			t.Fatalf("reused VM: %s %d, first run %s %d", st, v.GasConsumed(), state, gas)
		}
	})
}

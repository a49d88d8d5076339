package vmcmd

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/n3node/n3node/pkg/compiler"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	sccontext "github.com/n3node/n3node/pkg/smartcontract/context"
	"github.com/n3node/n3node/pkg/vm/emit"

	nio "github.com/n3node/n3node/pkg/io"
)

var (
	chainOnce sync.Once
	chain     *core.Blockchain
	chainErr  error
	chainCfg  config.Config
)

// repl runs the REPL over the given lines and returns stdout and stderr.
func repl(t *testing.T, lines ...string) (string, string) {
	t.Helper()
	chainOnce.Do(func() { chain, chainCfg, chainErr = memoryChain() })
	if chainErr != nil {
		t.Fatal(chainErr)
	}
	var out, errw bytes.Buffer
	if err := runREPL(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errw, chain, chainCfg); err != nil {
		t.Fatal(err)
	}
	return out.String(), errw.String()
}

func TestREPLStepping(t *testing.T) {
	out, errs := repl(t, "loadhex 11121340", "ops", "break 2", "run", "estack", "ip", "step", "cont", "exit", "ip")
	want := strings.Join([]string{
		replPrompt + "READY: loaded 4 instructions",
		replPrompt + "INDEX    OPCODE    PARAMETER",
		"0        PUSH1         <<",
		"1        PUSH2     ",
		"2        PUSH3     ",
		"3        RET       ",
		replPrompt + "breakpoint added at instruction 2",
		replPrompt + "at breakpoint 2 (PUSH3)",
		replPrompt + "[",
		`    {`, `        "type": "Integer",`, `        "value": "2"`, `    },`,
		`    {`, `        "type": "Integer",`, `        "value": "1"`, `    }`, `]`,
		replPrompt + "instruction pointer at 2 (PUSH3)",
		replPrompt + "at breakpoint 3 (RET)",
		replPrompt + "[",
		`    {`, `        "type": "Integer",`, `        "value": "3"`, `    },`,
		`    {`, `        "type": "Integer",`, `        "value": "2"`, `    },`,
		`    {`, `        "type": "Integer",`, `        "value": "1"`, `    }`, `]`,
		replPrompt,
	}, "\n")
	if out != want || errs != "" {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr:\n%s", out, want, errs)
	}
}

// TestREPLChain runs syscalls and a native contract call against the
// in-memory chain.
func TestREPLChain(t *testing.T) {
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.Syscall(w, "System.Runtime.Platform")
		emit.AppCall(w, nativenames.GasHash, "symbol", callflag.ReadOnly)
		emit.String(w, "hello")
		emit.Syscall(w, "System.Runtime.Log")
	})
	if err != nil {
		t.Fatal(err)
	}
	out, errs := repl(t, "run", "loadhex "+hex.EncodeToString(script), "run", "run",
		"loaddeployed gas", "storage gas 14", "loadhex 0a", "run", "nonsense")
	for _, s := range []string{`"value": "R0FT"`, `"value": "TkVP"`, "READY: loaded", "14"} {
		if !strings.Contains(out, s) {
			t.Errorf("no %q in\n%s", s, out)
		}
	}
	for _, s := range []string{"no program loaded", "VM has halted", "at instruction 0", `unknown command "nonsense"`} {
		if !strings.Contains(errs, s) {
			t.Errorf("no %q in stderr\n%s", s, errs)
		}
	}
}

// TestREPLChanges runs a committee transaction (loadtx: the container's
// signers satisfy CheckWitness) and lists its storage change.
func TestREPLChanges(t *testing.T) {
	repl(t) // the chain
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.PolicyHash, "setFeePerByte", callflag.All, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	tx := &transaction.Transaction{Script: script, ValidUntilBlock: 100, SystemFee: 1_0000_0000,
		Signers:   []transaction.Signer{{Account: chain.GetCommitteeAddress(), Scopes: transaction.Global}},
		Witnesses: []transaction.Witness{{}}}
	out, errs := repl(t, "loadtx "+base64.StdEncoding.EncodeToString(tx.Bytes()), "changes", "run", "changes policy", "changes gas")
	want := "Contract ID: -7\nState: Changed\nKey: 0a\nValue: 01\n"
	if !strings.Contains(out, want) || strings.Count(out, "State:") != 1 || errs != "" {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
}

// TestREPLConfigFile opens the chain of a configuration's database.
func TestREPLConfigFile(t *testing.T) {
	yml, err := config.EmbeddedConfig("privnet")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	yml = bytes.Replace(yml, []byte(`"./data/privnet"`), []byte(`"`+filepath.Join(dir, "db")+`"`), 1)
	cfgPath := filepath.Join(dir, "protocol.yml")
	if err := os.WriteFile(cfgPath, yml, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		bc, cfg, err := configChain(config.Load(cfgPath))
		if err != nil {
			t.Fatal(err)
		}
		var out, errw bytes.Buffer
		err = runREPL(strings.NewReader("loaddeployed neo\nexit\n"), &out, &errw, bc, cfg)
		bc.Close()
		if err != nil || !strings.Contains(out.String(), "READY: loaded") || errw.Len() != 0 {
			t.Fatalf("%v\n%s\n%s", err, out.String(), errw.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "db")); err != nil {
		t.Errorf("no database: %v", err)
	}
}

// TestREPLContract: loadgo compiles a contract with pkg/compiler; run
// calls its methods by name (with _initialize first) with parameters in
// testinvokefunction's syntax, keeping a breakpoint; '_' pushes
// parameters; jump, parse and env as neo-go's VM CLI.
func TestREPLContract(t *testing.T) {
	out, errs := repl(t, "loadgo testdata/adder.go", "run add 1 2", "run greet string:neo", "exit")
	if errs != "" {
		t.Fatalf("stderr: %s", errs)
	}
	for _, want := range []string{
		"READY: loaded",
		`"value": "43"`,
		`"value": "aGVsbG8sIG5lbw=="`, // "hello, neo"
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	_, errs = repl(t, "loadgo testdata/adder.go", "run nope")
	if !strings.Contains(errs, "method not found") {
		t.Errorf("stderr: %s", errs)
	}
	_, errs = repl(t, "loadhex 11", "run add 1 2")
	if !strings.Contains(errs, "manifest is not loaded") {
		t.Errorf("stderr: %s", errs)
	}

	// A breakpoint set before run <method> stays.
	_, m, _, err := compiler.Compile("testdata/adder.go", compiler.Options{Config: compiler.Config{Name: "testdata/adder"}})
	if err != nil {
		t.Fatal(err)
	}
	off := m.ABI.GetMethod("add", 2).Offset
	out, errs = repl(t, "loadgo testdata/adder.go", fmt.Sprintf("break %d", off), "run add 1 2", "cont")
	if errs != "" || !strings.Contains(out, fmt.Sprintf("at breakpoint %d", off)) || !strings.Contains(out, `"value": "43"`) {
		t.Errorf("breakpoint in a method: %s %s", out, errs)
	}

	// run _ pushes the parameters: PUSH2 then ADD over them.
	out, errs = repl(t, "loadhex 9e40", "run _ 5 7")
	if errs != "" || !strings.Contains(out, `"value": "12"`) {
		t.Errorf("run _: %s %s", out, errs)
	}

	// jump skips PUSH1.
	out, errs = repl(t, "loadhex 111240", "jump 1", "run")
	if errs != "" || !strings.Contains(out, "jumped to instruction 1") || strings.Contains(out, `"value": "1"`) {
		t.Errorf("jump: %s %s", out, errs)
	}
	_, errs = repl(t, "loadhex 111240", "jump 9")
	if !strings.Contains(errs, "out of range") {
		t.Errorf("jump 9: %s", errs)
	}

	out, _ = repl(t, "parse 0x0102")
	if !strings.Contains(out, "Hex to Integer\t\t513") && !strings.Contains(out, "Hex to Integer") {
		t.Errorf("parse: %s", out)
	}
	out, _ = repl(t, "env")
	if !strings.Contains(out, "Chain height: 0\nVM height (may differ from chain height in case of historic call): 0\nNetwork magic: 56753\nDB type: inmemory\n") {
		t.Errorf("env: %q", out)
	}
	out, _ = repl(t, "env -v")
	if !strings.Contains(out, "Node config:") {
		t.Errorf("env -v: %q", out)
	}
}

// TestREPLLoadOptions: neo-go's load options (--gas, --historic, --hash,
// signers after "--"), ib, reset --historic, loaddeployed by ID, loadtx
// from a parameter context file, storage --diff/--backwards and changes
// with a prefix.
func TestREPLLoadOptions(t *testing.T) {
	repl(t) // the chain
	committee := chain.GetCommitteeAddress()
	witness, err := emit.Script(func(w *nio.BinWriter) {
		emit.Bytes(w, committee.BytesBE())
		emit.Syscall(w, "System.Runtime.CheckWitness")
	})
	if err != nil {
		t.Fatal(err)
	}
	wh := hex.EncodeToString(witness)
	// A signer after "--" is the fake transaction's: CheckWitness holds
	// (without signers it faults, as in neo-go).
	out, errs := repl(t, "loadhex "+wh, "run", "loadhex "+wh+" -- "+committee.StringLE()+":Global", "run")
	if strings.Count(out, `"value": true`) != 1 || !strings.Contains(errs, "no valid signers") {
		t.Errorf("signers:\n%s\n%s", out, errs)
	}
	// --gas limits the run; --historic 0 runs on the genesis state; a
	// height past the chain is refused.
	out, errs = repl(t, "loadhex --gas 10 11121340", "run", "loadhex --historic=0 11", "run", "loadhex --historic 100 11", "loadhex --bogus 1 11")
	if !strings.Contains(errs, "insufficient GAS") || !strings.Contains(out, `"value": "1"`) ||
		!strings.Contains(errs, "failed to create historic VM for height 100") || !strings.Contains(errs, "flag provided but not defined: -bogus") {
		t.Errorf("gas/historic:\n%s\n%s", out, errs)
	}
	// ib lists the breakpoints in order; reset unloads.
	out, errs = repl(t, "loadhex 11121340", "break 3", "break 1", "ib", "reset --historic 0", "ip", "reset --historic 100")
	if !strings.Contains(out, replPrompt+"1\n3\n") || !strings.Contains(errs, "no program loaded") || !strings.Contains(errs, "height 100") {
		t.Errorf("ib/reset:\n%s\n%s", out, errs)
	}
	// loaddeployed by ID (-6: GAS), storage by ID, backwards, --diff.
	out, errs = repl(t, "loaddeployed -6", "storage -6 14", "storage --backwards gas", "storage --diff gas")
	if !strings.Contains(out, "READY: loaded") || errs != "" {
		t.Errorf("loaddeployed/storage:\n%s\n%s", out, errs)
	}
	// The prefix is not printed (as neo-go's DAO.Seek trims it);
	// backwards reverses the order; --diff shows nothing unchanged.
	blocks := strings.Split(out, replPrompt)
	if len(blocks) != 6 {
		t.Fatalf("storage:\n%s", out)
	}
	byID, back := strings.Fields(blocks[2]), strings.Fields(blocks[3])
	if len(byID) != 4 || !strings.HasPrefix(byID[0], "d8cc") || len(back) != 6 || back[0] != "14ee9ea22c27e34bd0148fc4108e08f74e8f5048b2:" || blocks[4] != "" {
		t.Errorf("storage:\n%q", blocks)
	}
	// loadtx from a parameter context file; changes with a prefix.
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.PolicyHash, "setFeePerByte", callflag.All, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	tx := &transaction.Transaction{Script: script, ValidUntilBlock: 100, SystemFee: 1_0000_0000,
		Signers: []transaction.Signer{{Account: committee, Scopes: transaction.Global}}}
	pc := sccontext.NewParameterContext(uint32(chain.Config().Magic), tx)
	data, err := json.Marshal(pc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "tx.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs = repl(t, "loadtx "+file, "run", "changes policy 0a", "changes policy 0b", "storage --diff policy")
	if strings.Count(out, "State: Changed") != 1 || !strings.Contains(out, "0a: 01\n") || errs != "" {
		t.Errorf("loadtx context/changes:\n%s\n%s", out, errs)
	}
}

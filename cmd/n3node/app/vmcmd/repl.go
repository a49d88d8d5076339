package vmcmd

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// The interactive VM (`n3node vm` without a subcommand): one line, one
// command, read from the standard input (a terminal or a pipe). Scripts
// run in an Application-trigger test context over a chain (an in-memory
// private network by default, --config-file's database otherwise), so
// syscalls and native contracts work; nothing is ever persisted.

// replPrompt is printed before every command (neo-go's, without colour).
const replPrompt = "NEO-GO-VM > "

// replGas is the GAS limit of a loaded script (datoshi).
const replGas = 100_0000_0000

// session is the state of a REPL: the chain and the loaded script's
// context (nil until something is loaded).
type session struct {
	out, errw io.Writer
	chain     *core.Blockchain
	cfg       config.Config // the chain's configuration (env)
	ic        *interop.Context
	tx        *transaction.Transaction
	// cs is the loaded contract (loadgo, loadnef with a manifest,
	// loaddeployed): run <method> calls its methods; nil for plain scripts.
	cs *state.Contract
	// script is the loaded entry script; breaks are its breakpoints (kept
	// when run <method> reloads it).
	script *vm.Script
	breaks map[int]struct{}
	exit   bool
}

type replCommand struct {
	usage string
	run   func(s *session, args []string) error
}

var replCommands map[string]replCommand

func init() {
	replCommands = map[string]replCommand{
		"exit":         {"exit the VM prompt", func(s *session, _ []string) error { s.exit = true; return nil }},
		"ip":           {"show the current instruction", cmdIP},
		"break":        {"break <ip>: place a breakpoint", cmdBreak},
		"delete":       {"delete <ip>: remove a breakpoint", cmdDelete},
		"estack":       {"show the evaluation stack", func(s *session, _ []string) error { return s.dumpStack(s.vm().Estack()) }},
		"istack":       {"show the invocation stack", cmdIStack},
		"sslot":        {"show the static slot", func(s *session, _ []string) error { return s.dumpSlot(s.vm().Context().StaticFields()) }},
		"lslot":        {"show the local slot", func(s *session, _ []string) error { return s.dumpSlot(s.vm().Context().LocalVariables()) }},
		"aslot":        {"show the arguments slot", func(s *session, _ []string) error { return s.dumpSlot(s.vm().Context().Arguments()) }},
		"loadnef":      {"loadnef <file> [<manifest>]: load the script of a NEF file (with a manifest: its methods for run)", cmdLoadNEF},
		"loadbase64":   {"loadbase64 <script>: load a base64 script", cmdLoadBase64},
		"loadhex":      {"loadhex <script>: load a hex script", cmdLoadHex},
		"loadtx":       {"loadtx <base64 tx>: load a transaction's script, with it as the container", cmdLoadTx},
		"loaddeployed": {"loaddeployed <hash|native name>: load a deployed contract's script", cmdLoadDeployed},
		"reset":        {"unload the script", func(s *session, _ []string) error { s.ic = nil; return nil }},
		"run":          {"run the loaded script (until HALT, FAULT or a breakpoint)", func(s *session, _ []string) error { return s.execute((*vm.VM).Run) }},
		"cont":         {"continue after a breakpoint", func(s *session, _ []string) error { return s.execute((*vm.VM).Run) }},
		"step":         {"step [n]: execute n instructions (1)", cmdStep},
		"stepinto":     {"execute one instruction, entering calls", func(s *session, _ []string) error { return s.execute((*vm.VM).StepInto) }},
		"stepout":      {"run until the current context returns", func(s *session, _ []string) error { return s.execute((*vm.VM).StepOut) }},
		"stepover":     {"execute one instruction, running calls through", func(s *session, _ []string) error { return s.execute((*vm.VM).StepOver) }},
		"ops":          {"list the current script's instructions", cmdOps},
		"events":       {"show the notifications sent", cmdEvents},
		"storage":      {"storage <hash|native name> [prefix-hex]: show a contract's storage (the script's changes included)", cmdStorage},
		"changes":      {"changes [contract]: show the storage changes the script made (of one contract)", cmdChanges},
		"help":         {"list the commands", cmdHelp},
	}
}

// runREPL reads commands from in until EOF or exit.
func runREPL(in io.Reader, out, errw io.Writer, chain *core.Blockchain, cfg config.Config) error {
	s := &session{out: out, errw: errw, chain: chain, cfg: cfg}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for !s.exit {
		fmt.Fprint(out, replPrompt)
		if !sc.Scan() {
			fmt.Fprintln(out)
			return sc.Err()
		}
		words := strings.Fields(sc.Text())
		if len(words) == 0 {
			continue
		}
		cmd, ok := replCommands[words[0]]
		if !ok {
			fmt.Fprintf(errw, "Error: unknown command %q (try help)\n", words[0])
			continue
		}
		if err := cmd.run(s, words[1:]); err != nil {
			fmt.Fprintf(errw, "Error: %v\n", err)
		}
	}
	return nil
}

var errNotReady = errors.New("VM is not ready: no program loaded")

func (s *session) vm() *vm.VM { return s.ic.VM }

func (s *session) ready() error {
	if s.ic == nil || s.ic.VM.Context() == nil {
		return errNotReady
	}
	return nil
}

// load makes a fresh test context over the chain's current state and
// loads script with all call flags.
func (s *session) load(script []byte, tx *transaction.Transaction) error {
	ic, err := s.chain.GetTestVM(trigger.Application, tx, nil)
	if err != nil {
		return err
	}
	ic.VM.SetGasLimit(replGas)
	if err := ic.LoadScript(script, callflag.All); err != nil {
		return err
	}
	s.ic, s.tx, s.cs, s.breaks = ic, tx, nil, nil
	s.script = ic.VM.Context().Script()
	fmt.Fprintf(s.out, "READY: loaded %d instructions\n", countInstructions(script))
	return nil
}

func countInstructions(script []byte) int {
	ins, _ := vm.Instructions(script)
	return len(ins)
}

// execute runs one debugger action and reports where the VM stopped:
// the stack and the events after HALT, the error after FAULT, the next
// instruction at a breakpoint.
func (s *session) execute(step func(*vm.VM) vmstate.State) error {
	if s.ic == nil {
		return errNotReady
	}
	v := s.vm()
	switch {
	case v.HasFailed():
		return errors.New("VM has failed")
	case v.HasHalted():
		return errors.New("VM has halted: load a script again")
	case v.Context() == nil:
		return errNotReady
	}
	switch st := step(v); st {
	case vmstate.Fault:
		fmt.Fprintf(s.errw, "Error: at instruction %d: %v\n", v.Context().IP(), v.FaultError())
		return s.dumpEvents()
	case vmstate.Halt:
		if err := s.dumpStack(v.ResultStack()); err != nil {
			return err
		}
		return s.dumpEvents()
	default:
		c := v.Context()
		if c == nil {
			fmt.Fprintln(s.out, "execution has finished")
			return nil
		}
		op, _, err := c.NextInstruction()
		if err != nil {
			fmt.Fprintln(s.out, "execution has finished")
			return nil
		}
		fmt.Fprintf(s.out, "at breakpoint %d (%s)\n", c.IP(), op)
	}
	return nil
}

// dumpStack prints a stack top first as JSON items with types.
func (s *session) dumpStack(st *vm.Stack) error {
	items := st.Items()
	out := make([]json.RawMessage, len(items))
	for i := range items {
		b, err := stackitem.ToJSONWithTypes(items[len(items)-1-i], stackitem.MaxSize)
		if err != nil {
			return err
		}
		out[i] = b
	}
	return s.printJSON(out)
}

func (s *session) dumpSlot(items []stackitem.Item) error {
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		if it == nil {
			it = stackitem.Null{}
		}
		b, err := stackitem.ToJSONWithTypes(it, stackitem.MaxSize)
		if err != nil {
			return err
		}
		out[i] = b
	}
	return s.printJSON(out)
}

func (s *session) printJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return err
	}
	fmt.Fprintln(s.out, string(b))
	return nil
}

func (s *session) dumpEvents() error {
	if len(s.ic.Notifications) == 0 {
		return nil
	}
	fmt.Fprintln(s.out, "Events:")
	return s.printJSON(s.ic.Notifications)
}

func intArg(args []string, what string) (int, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("%s: one argument expected", what)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s: invalid instruction number %q", what, args[0])
	}
	return n, nil
}

func cmdIP(s *session, _ []string) error {
	if err := s.ready(); err != nil {
		return err
	}
	c := s.vm().Context()
	op, _, err := c.NextInstruction()
	if err != nil {
		fmt.Fprintln(s.out, "execution has finished")
		return nil
	}
	fmt.Fprintf(s.out, "instruction pointer at %d (%s)\n", c.IP(), op)
	return nil
}

func cmdBreak(s *session, args []string) error {
	if err := s.ready(); err != nil {
		return err
	}
	n, err := intArg(args, "break")
	if err != nil {
		return err
	}
	s.vm().AddBreakPoint(s.vm().Context().Script(), n)
	if s.vm().Context().Script() == s.script {
		if s.breaks == nil {
			s.breaks = make(map[int]struct{})
		}
		s.breaks[n] = struct{}{}
	}
	fmt.Fprintf(s.out, "breakpoint added at instruction %d\n", n)
	return nil
}

func cmdDelete(s *session, args []string) error {
	if err := s.ready(); err != nil {
		return err
	}
	n, err := intArg(args, "delete")
	if err != nil {
		return err
	}
	if !s.vm().RemoveBreakPoint(s.vm().Context().Script(), n) {
		return fmt.Errorf("no breakpoint at instruction %d", n)
	}
	if s.vm().Context().Script() == s.script {
		delete(s.breaks, n)
	}
	fmt.Fprintf(s.out, "breakpoint removed at instruction %d\n", n)
	return nil
}

func cmdIStack(s *session, _ []string) error {
	if err := s.ready(); err != nil {
		return err
	}
	type frame struct {
		Hash string `json:"hash"`
		IP   int    `json:"ip"`
	}
	var fs []frame
	ctxs := s.vm().InvocationStack()
	for i := len(ctxs) - 1; i >= 0; i-- {
		fs = append(fs, frame{ctxs[i].ScriptHash().String(), ctxs[i].IP()})
	}
	return s.printJSON(fs)
}

func cmdStep(s *session, args []string) error {
	n := 1
	if len(args) > 0 {
		var err error
		if n, err = intArg(args, "step"); err != nil {
			return err
		}
	}
	if err := s.ready(); err != nil {
		return err
	}
	return s.execute(func(v *vm.VM) vmstate.State {
		st := v.State()
		for i := 0; i < n; i++ {
			if st = v.StepInto(); st == vmstate.Halt || st == vmstate.Fault {
				break
			}
		}
		return st
	})
}

func cmdOps(s *session, _ []string) error {
	if err := s.ready(); err != nil {
		return err
	}
	c := s.vm().Context()
	ins, derr := vm.Instructions(c.Script().Bytes())
	w := tabwriter.NewWriter(s.out, 0, 0, 4, ' ', 0)
	fmt.Fprintln(w, "INDEX\tOPCODE\tPARAMETER")
	for _, in := range ins {
		cursor := ""
		if in.IP == c.IP() {
			cursor = "\t<<"
		}
		param := ""
		if len(in.Operand) > 0 {
			param = hex.EncodeToString(in.Operand)
		}
		fmt.Fprintf(w, "%d\t%s\t%s%s\n", in.IP, in.Op, param, cursor)
	}
	if derr != nil {
		fmt.Fprintf(w, "\tERROR: %v\n", derr)
	}
	return w.Flush()
}

func cmdEvents(s *session, _ []string) error {
	if err := s.ready(); err != nil && s.ic == nil {
		return err
	}
	return s.printJSON(s.ic.Notifications)
}

func cmdLoadHex(s *session, args []string) error {
	if len(args) != 1 {
		return errors.New("loadhex: one script expected")
	}
	b, err := hex.DecodeString(strings.TrimPrefix(args[0], "0x"))
	if err != nil {
		return fmt.Errorf("invalid hex script: %w", err)
	}
	return s.load(b, nil)
}

func cmdLoadBase64(s *session, args []string) error {
	if len(args) != 1 {
		return errors.New("loadbase64: one script expected")
	}
	b, err := base64.StdEncoding.DecodeString(args[0])
	if err != nil {
		return fmt.Errorf("invalid base64 script: %w", err)
	}
	return s.load(b, nil)
}

func cmdLoadNEF(s *session, args []string) error {
	if len(args) == 2 {
		return s.loadNEFWithManifest(args[0], args[1])
	}
	if len(args) != 1 {
		return errors.New("loadnef: a NEF file and an optional manifest expected")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	script, err := nefScript(data)
	if err != nil {
		return err
	}
	return s.load(script, nil)
}

func cmdLoadTx(s *session, args []string) error {
	if len(args) != 1 {
		return errors.New("loadtx: one transaction (base64) expected")
	}
	b, err := base64.StdEncoding.DecodeString(args[0])
	if err != nil {
		return fmt.Errorf("invalid base64 transaction: %w", err)
	}
	tx, err := transaction.NewTransactionFromBytes(b)
	if err != nil {
		return fmt.Errorf("invalid transaction: %w", err)
	}
	return s.load(tx.Script, tx)
}

// contractOf resolves a contract hash, address or native name.
func (s *session) contractOf(arg string) (*state.Contract, error) {
	h, err := txsend.ContractHash(arg)
	if err != nil {
		return nil, err
	}
	cs := s.chain.GetContractState(h)
	if cs == nil {
		return nil, fmt.Errorf("contract %s is not deployed", h.StringLE())
	}
	return cs, nil
}

func cmdLoadDeployed(s *session, args []string) error {
	if len(args) != 1 {
		return errors.New("loaddeployed: one contract expected")
	}
	cs, err := s.contractOf(args[0])
	if err != nil {
		return err
	}
	return s.loadContract(cs)
}

func cmdStorage(s *session, args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return errors.New("storage: a contract and an optional prefix expected")
	}
	cs, err := s.contractOf(args[0])
	if err != nil {
		return err
	}
	var prefix []byte
	if len(args) == 2 {
		if prefix, err = hex.DecodeString(args[1]); err != nil {
			return fmt.Errorf("invalid prefix: %w", err)
		}
	}
	d := s.chain.DAO()
	if s.ic != nil {
		d = s.ic.DAO
	}
	d.Seek(cs.ID, storage.SeekRange{Prefix: prefix}, func(k, v []byte) bool {
		fmt.Fprintf(s.out, "%s: %s\n", hex.EncodeToString(append(prefix[:len(prefix):len(prefix)], k...)), hex.EncodeToString(v))
		return true
	})
	return nil
}

func cmdChanges(s *session, args []string) error {
	if s.ic == nil {
		return errNotReady
	}
	prefix := dao.StorageKey(0, nil)[:1]
	if len(args) > 0 {
		cs, err := s.contractOf(args[0])
		if err != nil {
			return err
		}
		prefix = dao.StorageKey(cs.ID, nil)
	}
	base := s.chain.DAO()
	s.ic.DAO.Store.SeekChanges(storage.SeekRange{Prefix: prefix}, func(k, v []byte) bool {
		id := int32(binary.LittleEndian.Uint32(k[1:5]))
		key := k[5:]
		what := "Changed"
		switch {
		case v == nil:
			what = "Deleted"
		case base.GetStorageItem(id, key) == nil:
			what = "Added"
		}
		fmt.Fprintf(s.out, "%s: contract %d, key %s, value %s\n", what, id, hex.EncodeToString(key), hex.EncodeToString(v))
		return true
	})
	return nil
}

func cmdHelp(s *session, _ []string) error {
	names := make([]string, 0, len(replCommands))
	for n := range replCommands {
		names = append(names, n)
	}
	slices.Sort(names)
	w := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	for _, n := range names {
		fmt.Fprintf(w, "%s\t%s\n", n, replCommands[n].usage)
	}
	return w.Flush()
}

// configChain opens the chain database a configuration file names (as
// the node would; created with its genesis if empty).
func configChain(path string) (*core.Blockchain, config.Config, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, cfg, err
	}
	bc, err := cfg.Blockchain()
	if err != nil {
		return nil, cfg, err
	}
	so, err := storage.OptionsFromConfig(cfg.ApplicationConfiguration.DBConfiguration, "", "")
	if err != nil {
		return nil, cfg, err
	}
	st, err := storage.Open(so)
	if err != nil {
		return nil, cfg, fmt.Errorf("database %s: %w", so.Path, err)
	}
	chain, err := core.New(bc, st, core.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		st.Close()
		return nil, cfg, err
	}
	return chain, cfg, nil
}

// memoryChain is a private network (the embedded privnet configuration)
// in memory, at its genesis block.
func memoryChain() (*core.Blockchain, config.Config, error) {
	cfg, err := config.LoadNetwork("privnet")
	if err != nil {
		return nil, cfg, err
	}
	cfg.ApplicationConfiguration.DBConfiguration.Type = config.DBInMemory
	bc, err := cfg.Blockchain()
	if err != nil {
		return nil, cfg, err
	}
	chain, err := core.New(bc, storage.NewMemoryStore(), core.Options{Logger: slog.New(slog.DiscardHandler)})
	return chain, cfg, err
}

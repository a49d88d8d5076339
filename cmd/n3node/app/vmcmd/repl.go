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
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
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
	// flags are the loaded script's --historic and --gas and gas its GAS
	// limit, for run <method>.
	flags loadFlags
	gas   int64
	exit  bool
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
		"ib":           {"list the breakpoints", cmdListBreaks},
		"estack":       {"show the evaluation stack", func(s *session, _ []string) error { return s.dumpStack(s.vm().Estack()) }},
		"istack":       {"show the invocation stack", cmdIStack},
		"sslot":        {"show the static slot", func(s *session, _ []string) error { return s.dumpSlot(s.vm().Context().StaticFields()) }},
		"lslot":        {"show the local slot", func(s *session, _ []string) error { return s.dumpSlot(s.vm().Context().LocalVariables()) }},
		"aslot":        {"show the arguments slot", func(s *session, _ []string) error { return s.dumpSlot(s.vm().Context().Arguments()) }},
		"loadnef":      {"loadnef [--historic N] [--gas N] [--hash H] <file> [<manifest>] [-- <signer>...]: load a NEF file with its manifest (default: file.manifest.json, if present)", cmdLoadNEF},
		"loadbase64":   {"loadbase64 <script>: load a base64 script", cmdLoadBase64},
		"loadhex":      {"loadhex [--historic N] [--gas N] <script> [-- <signer>...]: load a hex script", cmdLoadHex},
		"loadtx":       {"loadtx [--historic N] [--gas N] <hash|context file|base64 tx>: load a transaction (from the chain, a parameter context file or base64) with it as the container; GAS limit: its system fee", cmdLoadTx},
		"loaddeployed": {"loaddeployed [--historic N] [--gas N] <hash|address|ID|native name> [-- <signer>...]: load a deployed contract's script", cmdLoadDeployed},
		"reset":        {"reset [--historic N]: unload the script (and make a fresh context, at block N)", cmdReset},
		"run":          {"run the loaded script (until HALT, FAULT or a breakpoint)", func(s *session, _ []string) error { return s.execute((*vm.VM).Run) }},
		"cont":         {"continue after a breakpoint", func(s *session, _ []string) error { return s.execute((*vm.VM).Run) }},
		"step":         {"step [n]: execute n instructions (1)", cmdStep},
		"stepinto":     {"execute one instruction, entering calls", func(s *session, _ []string) error { return s.execute((*vm.VM).StepInto) }},
		"stepout":      {"run until the current context returns", func(s *session, _ []string) error { return s.execute((*vm.VM).StepOut) }},
		"stepover":     {"execute one instruction, running calls through", func(s *session, _ []string) error { return s.execute((*vm.VM).StepOver) }},
		"ops":          {"list the current script's instructions", cmdOps},
		"events":       {"show the notifications sent", cmdEvents},
		"storage":      {"storage [--backwards] [--diff] <hash|address|ID|native name> [prefix-hex]: show a contract's storage as the script sees it (--diff: only what it added or changed)", cmdStorage},
		"changes":      {"changes [<contract> [prefix-hex]]: show the storage changes the script made", cmdChanges},
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

// load makes a fresh test context (load flags f) with tx as the
// container (nil: a fake transaction with f's signers) and loads script
// with all call flags.
func (s *session) load(script []byte, tx *transaction.Transaction, f loadFlags) error {
	gas := int64(replGas)
	if tx == nil {
		tx = s.fakeTx(script, f)
	} else {
		gas = tx.SystemFee
	}
	ic, err := s.context(tx, f, gas)
	if err != nil {
		return err
	}
	if err := ic.LoadScript(script, callflag.All); err != nil {
		return err
	}
	s.ic, s.tx, s.cs, s.breaks, s.flags, s.gas = ic, tx, nil, nil, f, gas
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

// scriptArg is the one positional argument of loadhex and loadbase64.
func scriptArg(cmd string, args []string) (string, loadFlags, error) {
	f, pos, err := parseLoadFlags(args, flagsLoad)
	if err != nil {
		return "", f, err
	}
	if len(pos) != 1 {
		return "", f, fmt.Errorf("%s: one script expected", cmd)
	}
	return pos[0], f, nil
}

func cmdLoadHex(s *session, args []string) error {
	arg, f, err := scriptArg("loadhex", args)
	if err != nil {
		return err
	}
	b, err := hex.DecodeString(strings.TrimPrefix(arg, "0x"))
	if err != nil {
		return fmt.Errorf("invalid hex script: %w", err)
	}
	return s.load(b, nil, f)
}

func cmdLoadBase64(s *session, args []string) error {
	arg, f, err := scriptArg("loadbase64", args)
	if err != nil {
		return err
	}
	b, err := base64.StdEncoding.DecodeString(arg)
	if err != nil {
		return fmt.Errorf("invalid base64 script: %w", err)
	}
	return s.load(b, nil, f)
}

func cmdLoadNEF(s *session, args []string) error {
	f, pos, err := parseLoadFlags(args, flagsLoadContract)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 1:
		// As neo-go: the manifest beside the NEF file; without one, the
		// script alone.
		m := strings.TrimSuffix(pos[0], ".nef") + ".manifest.json"
		if _, err := os.Stat(m); err == nil {
			return s.loadNEFWithManifest(pos[0], m, f)
		}
	case 2:
		return s.loadNEFWithManifest(pos[0], pos[1], f)
	default:
		return errors.New("loadnef: a NEF file and an optional manifest expected")
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	script, err := nefScript(data)
	if err != nil {
		return err
	}
	return s.load(script, nil, f)
}

// cmdLoadTx loads a transaction: by hash from the chain, from a
// parameter context file (neo-go's two forms) or as base64.
func cmdLoadTx(s *session, args []string) error {
	f, pos, err := parseLoadFlags(args, flagsLoad)
	if err != nil {
		return err
	}
	if len(f.signers) != 0 {
		return errNoSigners
	}
	if len(pos) != 1 {
		return errors.New("missing parameter: <file-or-hash>")
	}
	tx, err := s.txOf(pos[0])
	if err != nil {
		return err
	}
	return s.load(tx.Script, tx, f)
}

func (s *session) txOf(arg string) (*transaction.Transaction, error) {
	if h, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(arg, "0x")); err == nil {
		tx, _, err := s.chain.GetTransaction(h)
		if err != nil {
			return nil, fmt.Errorf("failed to get transaction from chain: %w", err)
		}
		return tx, nil
	}
	if _, err := os.Stat(arg); err == nil {
		pc, err := txsend.ReadContext(arg)
		if err != nil {
			return nil, fmt.Errorf("invalid tx hash or path to parameter context: %w", err)
		}
		if pc.Tx == nil {
			return nil, errors.New("failed to retrieve transaction from parameter context: verifiable item is not a transaction")
		}
		return pc.Tx, nil
	}
	b, err := base64.StdEncoding.DecodeString(arg)
	if err != nil {
		return nil, fmt.Errorf("invalid tx hash or path to parameter context: %s", arg)
	}
	tx, err := transaction.NewTransactionFromBytes(b)
	if err != nil {
		return nil, fmt.Errorf("invalid transaction: %w", err)
	}
	return tx, nil
}

// contractOf resolves a contract hash, address, ID or native name, as the
// state ic (nil: the chain's) holds it.
func (s *session) contractOf(arg string, ic *interop.Context) (*state.Contract, error) {
	h, err := txsend.ContractHash(arg)
	if err != nil {
		id, ierr := strconv.ParseInt(arg, 10, 32)
		if ierr != nil {
			return nil, fmt.Errorf("failed to parse contract hash, address or ID: %w", err)
		}
		cs := s.chain.GetContractStateByID(int32(id))
		if cs == nil {
			return nil, fmt.Errorf("no contract with ID %d", id)
		}
		h = cs.Hash
	}
	if ic == nil {
		if cs := s.chain.GetContractState(h); cs != nil {
			return cs, nil
		}
		return nil, fmt.Errorf("contract %s not found", h.StringLE())
	}
	cs, err := ic.GetContract(h)
	if err != nil {
		return nil, fmt.Errorf("contract %s not found: %w", h.StringLE(), err)
	}
	return cs, nil
}

func cmdLoadDeployed(s *session, args []string) error {
	f, pos, err := parseLoadFlags(args, flagsLoad)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("contract hash, address or ID is mandatory argument")
	}
	// The contract as the (possibly historic) state has it.
	ic, err := s.context(nil, f, replGas)
	if err != nil {
		return err
	}
	cs, err := s.contractOf(pos[0], ic)
	if err != nil {
		return err
	}
	return s.loadContract(cs, f)
}

func cmdReset(s *session, args []string) error {
	f, pos, err := parseLoadFlags(args, flagsHistoric)
	if err != nil {
		return err
	}
	if len(pos) != 0 || len(f.signers) != 0 {
		return errors.New("reset: only --historic is accepted")
	}
	if f.historic != nil {
		// Check that the state exists, as neo-go makes the context now.
		if _, err := s.context(nil, f, replGas); err != nil {
			return err
		}
	}
	s.ic, s.tx, s.cs, s.script, s.breaks, s.flags = nil, nil, nil, nil, nil, f
	return nil
}

func cmdListBreaks(s *session, _ []string) error {
	if err := s.ready(); err != nil {
		return err
	}
	for _, ip := range s.vm().BreakPoints(s.vm().Context().Script()) {
		fmt.Fprintf(s.out, "%d\n", ip)
	}
	return nil
}

func cmdStorage(s *session, args []string) error {
	var backwards, diff bool
	var pos []string
	for _, a := range args {
		switch a {
		case "--backwards", "-b":
			backwards = true
		case "--diff", "-d":
			diff = true
		default:
			pos = append(pos, a)
		}
	}
	id, prefix, err := s.dumpArgs(pos)
	if err != nil {
		return err
	}
	print := func(k, v []byte) bool {
		fmt.Fprintf(s.out, "%s: %s\n", hex.EncodeToString(k), hex.EncodeToString(v))
		return true
	}
	if s.ic == nil {
		s.chain.DAO().Seek(id, storage.SeekRange{Prefix: prefix, Backwards: backwards}, print)
		return nil
	}
	if !diff {
		s.ic.DAO.Seek(id, storage.SeekRange{Prefix: prefix, Backwards: backwards}, print)
		return nil
	}
	// Only the script's own layer: what it added or changed.
	full := dao.StorageKey(id, prefix)
	s.ic.DAO.Store.SeekChanges(storage.SeekRange{Prefix: full, Backwards: backwards}, func(k, v []byte) bool {
		if v == nil {
			return true
		}
		return print(k[len(full):], v)
	})
	return nil
}

// dumpArgs reads storage's and changes' arguments: a contract (hash,
// address, ID or native name) and an optional hex prefix.
func (s *session) dumpArgs(args []string) (int32, []byte, error) {
	if len(args) < 1 || len(args) > 2 {
		return 0, nil, errors.New("contract hash, address or ID is mandatory argument")
	}
	var id int32
	if n, err := strconv.ParseInt(args[0], 10, 32); err == nil {
		id = int32(n)
	} else {
		cs, err := s.contractOf(args[0], s.ic)
		if err != nil {
			return 0, nil, err
		}
		id = cs.ID
	}
	var prefix []byte
	if len(args) == 2 {
		var err error
		if prefix, err = hex.DecodeString(args[1]); err != nil {
			return 0, nil, fmt.Errorf("failed to decode prefix from hex: %w", err)
		}
	}
	return id, prefix, nil
}

// cmdChanges lists the script's storage changes as neo-go's VM CLI does:
// additions and changes first, then deletions of existing items.
func cmdChanges(s *session, args []string) error {
	if s.ic == nil {
		return errNotReady
	}
	prefix := dao.StorageKey(0, nil)[:1]
	if len(args) > 0 {
		id, p, err := s.dumpArgs(args)
		if err != nil {
			return err
		}
		prefix = dao.StorageKey(id, p)
	}
	lower := s.ic.DAO.Store.Lower()
	type change struct {
		id         int32
		key, value []byte
		state      string
	}
	var puts, dels []change
	s.ic.DAO.Store.SeekChanges(storage.SeekRange{Prefix: prefix}, func(k, v []byte) bool {
		_, err := lower.Get(k)
		existed := err == nil
		c := change{id: int32(binary.LittleEndian.Uint32(k[1:5])), key: slices.Clone(k[5:]), value: slices.Clone(v)}
		switch {
		case v == nil && existed:
			c.state = "Deleted"
			dels = append(dels, c)
		case v != nil && existed:
			c.state = "Changed"
			puts = append(puts, c)
		case v != nil:
			c.state = "Added"
			puts = append(puts, c)
		}
		return true
	})
	for i, c := range append(puts, dels...) {
		if i > 0 {
			fmt.Fprintln(s.out)
		}
		fmt.Fprintf(s.out, "Contract ID: %d\nState: %s\nKey: %s\n", c.id, c.state, hex.EncodeToString(c.key))
		if c.value != nil {
			fmt.Fprintf(s.out, "Value: %s\n", hex.EncodeToString(c.value))
		}
	}
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

// configChain opens the chain database a configuration names (as the
// node would; created with its genesis if empty); it takes config.Load's
// or config.LoadNetwork's results.
func configChain(cfg config.Config, err error) (*core.Blockchain, config.Config, error) {
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

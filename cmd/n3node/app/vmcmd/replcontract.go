package vmcmd

// REPL commands around a loaded contract (a script with its manifest:
// loadgo, loadnef with a manifest, loaddeployed): run <method>, and
// jump, parse and env.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/cmd/n3node/app/utilcmd"
	"github.com/n3node/n3node/pkg/compiler"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

func init() {
	replCommands["loadgo"] = replCommand{"loadgo <file.go>: compile a Go contract and load it with its manifest", cmdLoadGo}
	replCommands["run"] = replCommand{"run [<method> [<param>...]]: run the loaded script; with a method of the loaded manifest, call it with the parameters (testinvokefunction syntax); '_' pushes the parameters and runs on from the current instruction", cmdRun}
	replCommands["jump"] = replCommand{"jump <ip>: move the instruction pointer to ip", cmdJump}
	replCommands["parse"] = replCommand{"parse <arg>: show arg read as integer, hex, script hash, public key, address, base64 and string", cmdParse}
	replCommands["env"] = replCommand{"env [-v]: show the chain the VM runs against (-v: with the node configuration)", cmdEnv}
}

// loadContract loads cs's script as load does and remembers the contract
// (its manifest names the methods run can call).
func (s *session) loadContract(cs *state.Contract, f loadFlags) error {
	if err := s.load(cs.NEF.Script, nil, f); err != nil {
		return err
	}
	s.cs = cs
	return nil
}

func cmdLoadGo(s *session, args []string) error {
	f, pos, err := parseLoadFlags(args, flagsLoadContract)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New("loadgo: one Go file expected")
	}
	name := strings.TrimSuffix(pos[0], ".go")
	// As neo-go: no checks of events, permissions or standards, just load.
	nf, m, _, err := compiler.Compile(pos[0], compiler.Options{
		Config:             compiler.Config{Name: name},
		NoEventsCheck:      true,
		NoPermissionsCheck: true,
		NoStandardCheck:    true,
	})
	if err != nil {
		return fmt.Errorf("failed to compile: %w", err)
	}
	return s.loadContract(loadedContract(nf, m, f), f)
}

// loadedContract is a loaded contract: its hash is --hash (zero without).
func loadedContract(nf *nef.File, m *manifest.Manifest, f loadFlags) *state.Contract {
	cs := &state.Contract{ContractBase: state.ContractBase{NEF: *nf, Manifest: *m}}
	if f.hash != nil {
		cs.Hash = *f.hash
	}
	return cs
}

// loadNEFWithManifest is loadnef <file> <manifest>.
func (s *session) loadNEFWithManifest(nefPath, manifestPath string, lf loadFlags) error {
	data, err := os.ReadFile(nefPath)
	if err != nil {
		return err
	}
	f, err := nef.FileFromBytes(data)
	if err != nil {
		return err
	}
	mdata, err := os.ReadFile(manifestPath)
	if err != nil {
		return err
	}
	m := new(manifest.Manifest)
	if err := json.Unmarshal(mdata, m); err != nil {
		return fmt.Errorf("can't parse manifest: %w", err)
	}
	return s.loadContract(loadedContract(f, m, lf), lf)
}

func cmdRun(s *session, args []string) error {
	if len(args) == 0 {
		return s.execute((*vm.VM).Run)
	}
	if s.ic == nil {
		return errNotReady
	}
	_, ps, err := txsend.ParseParams(args[1:], true)
	if err != nil {
		return fmt.Errorf("invalid parameter: %w", err)
	}
	items, err := paramItems(ps)
	if err != nil {
		return err
	}
	if args[0] != "_" {
		if s.cs == nil {
			return errors.New("manifest is not loaded; either use 'run' command to run loaded script from the start or use 'loadgo', 'loadnef' or 'loaddeployed' commands to provide manifest")
		}
		if err := s.callMethod(args[0], len(items)); err != nil {
			return err
		}
	} else if err := s.ready(); err != nil {
		return err
	}
	for i := len(items) - 1; i >= 0; i-- {
		s.vm().Estack().Push(items[i])
	}
	return s.execute((*vm.VM).Run)
}

// callMethod replaces the loaded context by a call of the loaded
// contract's method with n parameters (its _initialize first), in a fresh
// test context with the same container, keeping the breakpoints.
func (s *session) callMethod(name string, n int) error {
	md := s.cs.Manifest.ABI.GetMethod(name, n)
	if md == nil {
		return errors.New("invalid parameter: method not found")
	}
	ic, err := s.context(s.tx, s.flags, s.gas)
	if err != nil {
		return err
	}
	rv := 0
	if md.ReturnType != smartcontract.VoidType {
		rv = 1
	}
	script := vm.NewScript(s.cs.NEF.Script)
	if _, err := ic.VM.LoadScriptWith(script, vm.LoadParams{
		RVCount:    rv,
		Offset:     md.Offset,
		ScriptHash: s.cs.Hash,
		CallFlags:  callflag.All,
		Data:       &interop.Invocation{Contract: s.cs},
	}); err != nil {
		return err
	}
	if init := s.cs.Manifest.ABI.GetMethod(manifest.MethodInit, 0); init != nil {
		if _, err := ic.VM.Call(init.Offset); err != nil {
			return err
		}
	}
	for ip := range s.breaks {
		ic.VM.AddBreakPoint(script, ip)
	}
	s.ic, s.script = ic, script
	return nil
}

// paramItems turns parameters into stack items as a script pushing them
// with emit.Any would (so their encoding is the one invocations use).
func paramItems(ps []smartcontract.Parameter) ([]stackitem.Item, error) {
	w := io.NewBufBinWriter()
	for i, p := range ps {
		v, err := p.Emitable()
		if err != nil {
			return nil, fmt.Errorf("failed to convert parameter #%d to stackitem: %w", i, err)
		}
		emit.Any(w, v)
	}
	if w.Err != nil {
		return nil, w.Err
	}
	v := vm.New()
	if _, err := v.LoadScript(vm.NewScript(w.Bytes())); err != nil {
		return nil, err
	}
	if st := v.Run(); st != vmstate.Halt {
		return nil, fmt.Errorf("parameters: %v", v.FaultError())
	}
	return v.ResultStack().Items(), nil
}

func cmdJump(s *session, args []string) error {
	if err := s.ready(); err != nil {
		return err
	}
	if len(args) != 1 {
		return errors.New("missing parameter: <ip>")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return fmt.Errorf("invalid parameter: %w", err)
	}
	if err := s.vm().Context().Jump(n); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "jumped to instruction %d\n", n)
	return nil
}

func cmdParse(s *session, args []string) error {
	if len(args) < 1 {
		return errors.New("missing parameter")
	}
	fmt.Fprintln(s.out, utilcmd.Readings(args[0]))
	return nil
}

func cmdEnv(s *session, args []string) error {
	verbose := len(args) == 1 && (args[0] == "-v" || args[0] == "--verbose")
	if len(args) > 1 || len(args) == 1 && !verbose {
		return errors.New("env: only -v is accepted")
	}
	vmHeight := s.chain.BlockHeight()
	if s.ic != nil && s.ic.Block != nil {
		vmHeight = s.ic.Block.Index - 1
	}
	fmt.Fprintf(s.out, "Chain height: %d\nVM height (may differ from chain height in case of historic call): %d\nNetwork magic: %d\nDB type: %s\n",
		s.chain.BlockHeight(), vmHeight, uint32(s.chain.Config().Magic), s.cfg.ApplicationConfiguration.DBConfiguration.Type)
	if verbose {
		b, err := json.MarshalIndent(s.cfg, "", "\t")
		if err != nil {
			return fmt.Errorf("failed to marshal node configuration: %w", err)
		}
		fmt.Fprintf(s.out, "Node config:\n%s\n", b)
	}
	return nil
}

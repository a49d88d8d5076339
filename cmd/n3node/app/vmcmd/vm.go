package vmcmd

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/n3node/n3node/cmd/n3node/app/neogocfg"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"

	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/interopid"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Command is `n3node vm`.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "vm",
		Usage: "NeoVM tools; without a subcommand, an interactive VM (type help)",
		Description: `Without a subcommand, reads VM commands (loadhex, loadbase64, loadnef,
   loadtx, loadgo, loaddeployed, run, step, stepinto, stepout, stepover, break,
   delete, ib, jump, ip, ops, estack, istack, sslot, lslot, aslot, events,
   storage, changes, parse, env, reset, exit; help lists them) one per line
   from the standard input, a terminal or a pipe. Scripts run
   with syscalls and native contracts against an in-memory private network,
   or against the database of the configuration neo-go's flags name
   (--config-file, --config-path, -p, -m, -t, --unittest; read at its
   current height; nothing is written but the genesis block of an empty
   database).`,
		// neo-go's configuration flags: without any, an in-memory private
		// network; with them, the database of the configuration they name.
		Flags: neogocfg.Flags(),
		Action: func(ctx context.Context, c *cli.Command) error {
			open := memoryChain
			if neogocfg.Used(c) {
				file, network, err := neogocfg.Source(c)
				if err != nil {
					return err
				}
				open = func() (*core.Blockchain, config.Config, error) {
					if file != "" {
						return configChain(config.Load(file))
					}
					return configChain(config.LoadNetwork(network))
				}
			}
			chain, cfg, err := open()
			if err != nil {
				return err
			}
			defer chain.Close()
			return runREPL(console.Stdin(c), console.Stdout(c), console.Stderr(c), chain, cfg)
		},
		Commands: []*cli.Command{
			{
				Name:      "run",
				Usage:     "run a script (hex, base64, a raw script file or a .nef file) and print the result",
				ArgsUsage: "<script-hex|script-base64|file>",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "gas", Value: "20", Usage: "GAS limit in GAS (up to 8 decimals)"},
					&cli.Int64Flag{Name: "exec-fee-factor", Value: 30, Usage: "Policy exec fee factor (datoshi per opcode price unit)"},
					&cli.StringFlag{Name: "rules", Value: "latest", Usage: "opcode behaviour: latest, pre-gorgon or pre-echidna"},
					&cli.BoolFlag{Name: "trace", Usage: "print every instruction to stderr"},
				},
				Action: func(ctx context.Context, c *cli.Command) error {
					if c.Args().Len() != 1 {
						return fmt.Errorf("vm run takes exactly one script")
					}
					script, err := loadScript(c.Args().First())
					if err != nil {
						return err
					}
					gas, err := parseGAS(c.String("gas"))
					if err != nil {
						return err
					}
					rules, err := parseRules(c.String("rules"))
					if err != nil {
						return err
					}
					opts := runOptions{gas: gas, feeFactor: c.Int64("exec-fee-factor"), rules: rules}
					if c.Bool("trace") {
						opts.trace = c.ErrWriter
						if opts.trace == nil {
							opts.trace = os.Stderr
						}
					}
					res, err := runScript(script, opts)
					if err != nil {
						return err
					}
					out := c.Writer
					if out == nil {
						out = os.Stdout
					}
					enc := json.NewEncoder(out)
					enc.SetIndent("", "  ")
					return enc.Encode(res)
				},
			},
		},
	}
}

type runOptions struct {
	gas       int64 // datoshi
	feeFactor int64 // datoshi per price unit
	rules     vm.Rules
	trace     io.Writer
}

// runResult is printed as JSON, in the shape of an RPC invoke result.
type runResult struct {
	State       string            `json:"state"`
	GasConsumed string            `json:"gasconsumed"`
	Script      string            `json:"script"`
	Exception   *string           `json:"exception"`
	Stack       []json.RawMessage `json:"stack"`
}

// syscallNames are the syscalls of the C# node, to name them in faults.
var syscallNames = []string{
	"System.Contract.Call", "System.Contract.CallNative", "System.Contract.GetCallFlags",
	"System.Contract.CreateStandardAccount", "System.Contract.CreateMultisigAccount",
	"System.Contract.NativeOnPersist", "System.Contract.NativePostPersist",
	"System.Crypto.CheckSig", "System.Crypto.CheckMultisig",
	"System.Iterator.Next", "System.Iterator.Value",
	"System.Runtime.Platform", "System.Runtime.GetNetwork", "System.Runtime.GetAddressVersion",
	"System.Runtime.GetTrigger", "System.Runtime.GetTime", "System.Runtime.GetScriptContainer",
	"System.Runtime.GetExecutingScriptHash", "System.Runtime.GetCallingScriptHash",
	"System.Runtime.GetEntryScriptHash", "System.Runtime.LoadScript", "System.Runtime.CheckWitness",
	"System.Runtime.GetInvocationCounter", "System.Runtime.GetRandom", "System.Runtime.Log",
	"System.Runtime.Notify", "System.Runtime.GetNotifications", "System.Runtime.GasLeft",
	"System.Runtime.BurnGas", "System.Runtime.CurrentSigners",
	"System.Storage.GetContext", "System.Storage.GetReadOnlyContext", "System.Storage.AsReadOnly",
	"System.Storage.Get", "System.Storage.Find", "System.Storage.Put", "System.Storage.Delete",
	"System.Storage.Local.Get", "System.Storage.Local.Find", "System.Storage.Local.Put",
	"System.Storage.Local.Delete",
}

var errSyscallUnavailable = errors.New("syscalls are not available in vm run")

func syscallName(id uint32) string {
	for _, n := range syscallNames {
		if interopid.FromName(n) == id {
			return n
		}
	}
	return fmt.Sprintf("unknown syscall 0x%08x", id)
}

func runScript(script []byte, o runOptions) (*runResult, error) {
	v := vm.New()
	v.SetRules(o.rules)
	v.SetExecFeeFactor(uint64(o.feeFactor) * vm.FeeFactor)
	v.SetGasLimit(o.gas)
	v.SetHooks(vm.Hooks{
		Syscall: func(_ *vm.VM, id uint32) error {
			return fmt.Errorf("%w: %s", errSyscallUnavailable, syscallName(id))
		},
		CallT: func(_ *vm.VM, token uint16) error {
			return fmt.Errorf("%w: CALLT %d needs a deployed contract", errSyscallUnavailable, token)
		},
		PreStep: func(v *vm.VM, ctx *vm.Context, op opcode.Opcode) {
			if o.trace == nil {
				return
			}
			_, arg, _ := ctx.NextInstruction()
			fmt.Fprintf(o.trace, "%5d  %-12s %x\n", ctx.IP(), op, arg)
		},
	})
	if _, err := v.LoadScript(vm.NewScript(script)); err != nil {
		return nil, err
	}
	v.Execute()
	res := &runResult{
		State:       v.State().String(),
		GasConsumed: strconv.FormatInt(v.GasConsumed(), 10),
		Script:      base64.StdEncoding.EncodeToString(script),
		Stack:       []json.RawMessage{},
	}
	if err := v.FaultError(); err != nil {
		s := err.Error()
		res.Exception = &s
	}
	items := v.ResultStack().Items()
	for i := range items {
		b, err := stackitem.ToJSONWithTypes(items[i], -1)
		if err != nil {
			b, _ = json.Marshal(map[string]string{"type": items[i].Type().String(), "error": err.Error()})
		}
		res.Stack = append(res.Stack, b)
	}
	return res, nil
}

func parseRules(s string) (vm.Rules, error) {
	switch s {
	case "latest":
		return vm.LatestRules(), nil
	case "pre-gorgon":
		return vm.Rules{Echidna: true}, nil
	case "pre-echidna":
		return vm.Rules{}, nil
	}
	return vm.Rules{}, fmt.Errorf("unknown rules %q (latest, pre-gorgon, pre-echidna)", s)
}

// parseGAS parses a GAS amount with up to 8 decimals into datoshi.
func parseGAS(s string) (int64, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 8 {
		return 0, fmt.Errorf("GAS %q has more than 8 decimals", s)
	}
	frac += strings.Repeat("0", 8-len(frac))
	v, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad GAS amount %q", s)
	}
	return v, nil
}

// loadScript reads a NEF or raw script file, or decodes hex or base64.
func loadScript(arg string) ([]byte, error) {
	if data, err := os.ReadFile(arg); err == nil {
		if len(data) >= 4 && binary.LittleEndian.Uint32(data) == nef.Magic {
			return nefScript(data)
		}
		return data, nil
	}
	h := strings.TrimPrefix(strings.TrimPrefix(arg, "0x"), "0X")
	if b, err := hex.DecodeString(h); err == nil {
		return b, nil
	}
	if b, err := base64.StdEncoding.DecodeString(arg); err == nil {
		return b, nil
	}
	return nil, fmt.Errorf("%q is neither a file, hex nor base64", arg)
}

func nefScript(data []byte) ([]byte, error) {
	f, err := nef.FileFromBytes(data)
	if err != nil {
		return nil, err
	}
	return f.Script, nil
}

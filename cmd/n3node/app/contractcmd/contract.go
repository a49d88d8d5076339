package contractcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Command is `n3node contract`.
func Command() *cli.Command {
	one := 1
	sendFlags := func(extra ...cli.Flag) []cli.Flag {
		fs := append(txsend.WalletFlags(), txsend.AddressFlag("address", "address to use as the sender (and GAS source; default: the wallet's default account)", "a"))
		fs = append(fs, extra...)
		fs = append(fs, txsend.TxFlags()...)
		return append(fs, txsend.RPCFlags()...)
	}
	return &cli.Command{
		Name:  "contract",
		Usage: "compile Go contracts, contract tools (init, inspect, calc-hash, manifest, bindings); deploy and invoke smart contracts through any N3 node's RPC",
		Commands: append([]*cli.Command{
			compileCommand(),
			{
				Name:      "deploy",
				Usage:     "deploy a contract (.nef and manifest)",
				UsageText: "n3node contract deploy -r endpoint -w wallet [-a address] --in contract.nef --manifest contract.manifest.json [tx flags] [data] [-- signers]",
				Description: `Calls ContractManagement.deploy with the NEF and the manifest (and the
   optional 'data' for _deploy) and prints the new contract's hash.`,
				Flags: sendFlags(
					&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Required: true, Usage: "NEF file of the contract"},
					&cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Required: true, Usage: "manifest file (*.manifest.json)"}),
				StopOnNthArg: &one,
				Action:       contractDeploy,
			},
			{
				Name:      "invokefunction",
				Usage:     "invoke a contract method in a transaction",
				UsageText: "n3node contract invokefunction -r endpoint -w wallet [-a address] [tx flags] <hash-or-native-name> <method> [arguments...] [-- signers...]",
				Description: `Test-invokes the method with the sender (scope None unless listed among the
   signers) and the given signers, then sends a transaction running the same
   script with the GAS it used as the system fee. A FAULT stops unless --force.

   ` + txsend.ParamsDoc + `

   ` + txsend.SignersDoc,
				Flags:        sendFlags(),
				StopOnNthArg: &one,
				Action:       func(ctx context.Context, c *cli.Command) error { return invokeFunction(ctx, c, true) },
			},
			{
				Name:      "testinvokefunction",
				Usage:     "invoke a contract method in test mode and print the result",
				UsageText: "n3node contract testinvokefunction -r endpoint [--historic index/hash] <hash-or-native-name> <method> [arguments...] [-- signers...]",
				Description: `Runs the method on the node without a transaction and prints the
   invokefunction result as JSON. Signers are sent only when given (the
   first is the sender).

   ` + txsend.ParamsDoc + `

   ` + txsend.SignersDoc,
				Flags:        append(txsend.RPCFlags(), txsend.HistoricFlag()),
				StopOnNthArg: &one,
				Action:       func(ctx context.Context, c *cli.Command) error { return invokeFunction(ctx, c, false) },
			},
			{
				Name:      "testinvokescript",
				Usage:     "run a NEF's script in test mode and print the result",
				UsageText: "n3node contract testinvokescript -r endpoint -i input.nef [--historic index/hash] [signers...]",
				Flags: append([]cli.Flag{
					&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Required: true, Usage: "NEF file whose script to run"},
					txsend.HistoricFlag(),
				}, txsend.RPCFlags()...),
				Action: testInvokeScript,
			},
		}, append(append(toolCommands(), generateCommands()...), lifecycleCommands(sendFlags)...)...),
	}
}

func invokeFunction(ctx context.Context, c *cli.Command, send bool) error {
	args := txsend.CLIArgs(c)
	if len(args) == 0 {
		return errors.New("no smart contract hash was provided, specify one as the first argument")
	}
	contract, err := txsend.ContractHash(args[0])
	if err != nil {
		return err
	}
	if len(args) < 2 {
		return errors.New("no method specified for function invocation command")
	}
	method := args[1]
	params := []smartcontract.Parameter{}
	off := 0
	if len(args) > 2 {
		if off, params, err = txsend.ParseParams(args[2:], true); err != nil {
			return err
		}
	}
	signerArgs := args[2+off:]
	if !send {
		at, err := txsend.ReadHistoric(c)
		if err != nil {
			return err
		}
		r, err := printTestInvoke(ctx, c, signerArgs, func(ctx context.Context, cl *rpcclient.Client, signers []transaction.Signer) (*rpcclient.InvokeResult, error) {
			return cl.InvokeFunctionHistoric(ctx, at, contract, method, params, signers)
		})
		if err != nil {
			return err
		}
		if r.State != rpcclient.StateHalt {
			return fmt.Errorf("Warning: %s VM state returned from the RPC node: %s", r.State, r.FaultException)
		}
		return nil
	}
	s, err := newContractSender(ctx, c, signerArgs, transaction.None)
	if err != nil {
		return err
	}
	defer s.Cleanup()
	return txsend.InvokeAndSend(s.Ctx, c, s.Actor, contract, method, params, s.Opts)
}

// newContractSender is newSender with the sender given by -a.
func newContractSender(ctx context.Context, c *cli.Command, signerArgs []string, scope transaction.WitnessScope) (*txsend.SenderSetup, error) {
	return txsend.NewSenderFlag(ctx, c, "address", signerArgs, scope)
}

func contractDeploy(ctx context.Context, c *cli.Command) error {
	nf, nefBytes, err := readNEF(c.String("in"))
	if err != nil {
		return err
	}
	m, mBytes, err := readManifest(c.String("manifest"))
	if err != nil {
		return err
	}
	args := txsend.CLIArgs(c)
	off, data, err := txsend.ParseParams(args, true)
	if err != nil {
		return fmt.Errorf("unable to parse 'data' parameter: %w", err)
	}
	if len(data) > 1 {
		return errors.New("'data' should be represented as a single parameter")
	}
	params := []smartcontract.Parameter{smartcontract.NewBytesParameter(nefBytes), smartcontract.NewBytesParameter(mBytes)}
	params = append(params, data...)
	// neo-go: the sender signs with CalledByEntry when no signers are given.
	scope := transaction.None
	if len(args[off:]) == 0 {
		scope = transaction.CalledByEntry
	}
	s, err := newContractSender(ctx, c, args[off:], scope)
	if err != nil {
		return err
	}
	defer s.Cleanup()
	if err := txsend.InvokeAndSend(s.Ctx, c, s.Actor, nativenames.ManagementHash, "deploy", params, s.Opts); err != nil {
		return err
	}
	h := smartcontract.GetContractHash(s.Actor.Sender(), nf.Checksum, m.Name)
	fmt.Fprintf(console.Stdout(c), "Contract: %s\n", h.StringLE())
	return nil
}

func testInvokeScript(ctx context.Context, c *cli.Command) error {
	nf, _, err := readNEF(c.String("in"))
	if err != nil {
		return err
	}
	at, err := txsend.ReadHistoric(c)
	if err != nil {
		return err
	}
	sargs := txsend.CLIArgs(c)
	if len(sargs) > 0 && sargs[0] == txsend.CosignersSeparator {
		sargs = sargs[1:]
	}
	_, err = printTestInvoke(ctx, c, sargs, func(ctx context.Context, cl *rpcclient.Client, signers []transaction.Signer) (*rpcclient.InvokeResult, error) {
		return cl.InvokeScriptHistoric(ctx, at, nf.Script, signers)
	})
	return err
}

// printTestInvoke parses the signers, connects to the node, runs invoke
// and prints its result as indented JSON.
func printTestInvoke(ctx context.Context, c *cli.Command, signerArgs []string,
	invoke func(ctx context.Context, cl *rpcclient.Client, signers []transaction.Signer) (*rpcclient.InvokeResult, error)) (*rpcclient.InvokeResult, error) {
	signers, err := txsend.ParseSigners(signerArgs)
	if err != nil {
		return nil, err
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return nil, err
	}
	defer done()
	r, err := invoke(tctx, cl, signers)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(console.Stdout(c), string(b))
	return r, nil
}

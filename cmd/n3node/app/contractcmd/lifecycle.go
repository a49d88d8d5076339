package contractcmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
)

// update and destroy: a deployed contract's own methods (which call
// ContractManagement with the contract as the caller), invoked like
// invokefunction with the sender signing CalledByEntry unless signers are
// given.

var errNoScriptHash = errors.New("no smart contract hash was provided, specify one as the first argument")

func lifecycleCommands(sendFlags func(...cli.Flag) []cli.Flag) []*cli.Command {
	one := 1
	return []*cli.Command{
		{
			Name:      "update",
			Usage:     "update a deployed contract (its update method)",
			UsageText: "n3node contract update -r endpoint -w wallet [-a address] [tx flags] [--in contract.nef] [--manifest contract.manifest.json] [--strict] <hash> [data] [-- signers]",
			Description: `Calls the contract's update(nef, manifest, data) with the new NEF and/or
   manifest (at least one; the other is null). Without 'data' the NEP-22
   form update(nef, manifest, null) is tried first and, unless --strict, the
   two-parameter form when the contract has no three-parameter update.`,
			Flags: sendFlags(
				&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Usage: "new NEF file"},
				&cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Usage: "new manifest file"},
				&cli.BoolFlag{Name: "strict", Usage: "only the NEP-22 update(nef, manifest, data)"}),
			StopOnNthArg: &one,
			Action:       contractUpdate,
		},
		{
			Name:         "destroy",
			Usage:        "destroy a deployed contract (its destroy method)",
			UsageText:    "n3node contract destroy -r endpoint -w wallet [-a address] [tx flags] <hash> [-- signers]",
			Flags:        sendFlags(),
			StopOnNthArg: &one,
			Action:       contractDestroy,
		},
	}
}

// readNEF reads and checks a NEF file, returning it and its bytes.
func readNEF(path string) (*nef.File, []byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	nf, err := nef.FileFromBytes(b)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to restore .nef file: %w", err)
	}
	return nf, b, nil
}

// readManifest reads and checks a manifest file, returning it and its bytes.
func readManifest(path string) (*manifest.Manifest, []byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to read manifest file: %w", err)
	}
	m, err := manifest.FromJSON(b)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to read manifest file: %w", err)
	}
	return m, b, nil
}

// targetContract is the contract hash of the first argument.
func targetContract(args []string) (hash.Uint160, error) {
	if len(args) == 0 {
		return hash.Uint160{}, errNoScriptHash
	}
	h, err := txsend.ParseAddress(args[0])
	if err != nil {
		return hash.Uint160{}, fmt.Errorf("invalid contract hash '%s': %w", args[0], err)
	}
	return h, nil
}

func contractUpdate(ctx context.Context, c *cli.Command) error {
	args := txsend.CLIArgs(c)
	target, err := targetContract(args)
	if err != nil {
		return err
	}
	nefParam, manifestParam := smartcontract.NewAnyParameter(), smartcontract.NewAnyParameter()
	if p := c.String("in"); p != "" {
		_, b, err := readNEF(p)
		if err != nil {
			return fmt.Errorf("failed to read .nef file: %w", err)
		}
		nefParam = smartcontract.NewBytesParameter(b)
	}
	if p := c.String("manifest"); p != "" {
		_, b, err := readManifest(p)
		if err != nil {
			return err
		}
		manifestParam = smartcontract.NewBytesParameter(b)
	}
	if c.String("in") == "" && c.String("manifest") == "" {
		return errors.New("either manifest or .nef required")
	}
	off, data, err := txsend.ParseParams(args[1:], true)
	if err != nil {
		return fmt.Errorf("unable to parse 'data' parameter: %w", err)
	}
	if len(data) > 1 {
		return errors.New("'data' should be represented as a single parameter")
	}
	s, err := newContractSender(ctx, c, args[1+off:], lifecycleScope(args[1+off:]))
	if err != nil {
		return err
	}
	defer s.Cleanup()
	params := []smartcontract.Parameter{nefParam, manifestParam}
	if len(data) == 1 {
		return txsend.InvokeAndSend(s.Ctx, c, s.Actor, target, "update", append(params, data[0]), s.Opts)
	}
	err = txsend.InvokeAndSend(s.Ctx, c, s.Actor, target, "update", append(params, smartcontract.NewAnyParameter()), s.Opts)
	if err == nil || c.Bool("strict") || !noThreeParamUpdate(err) {
		return err
	}
	return txsend.InvokeAndSend(s.Ctx, c, s.Actor, target, "update", params, s.Opts)
}

// noThreeParamUpdate tells the FAULT of a contract without update/3 (the
// texts of neo-go's and C#'s System.Contract.Call).
func noThreeParamUpdate(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "method not found: update/3") ||
		strings.Contains(msg, `Method "update" with 3 parameter(s) doesn't exist in the contract`)
}

func contractDestroy(ctx context.Context, c *cli.Command) error {
	args := txsend.CLIArgs(c)
	target, err := targetContract(args)
	if err != nil {
		return err
	}
	signerArgs := args[1:]
	if len(signerArgs) > 0 && signerArgs[0] == txsend.CosignersSeparator {
		signerArgs = signerArgs[1:]
	}
	s, err := newContractSender(ctx, c, signerArgs, lifecycleScope(signerArgs))
	if err != nil {
		return err
	}
	defer s.Cleanup()
	return txsend.InvokeAndSend(s.Ctx, c, s.Actor, target, "destroy", nil, s.Opts)
}

// lifecycleScope is the sender's scope: CalledByEntry when no signers
// are given (as neo-go), else as the signers say (None if unlisted).
func lifecycleScope(signerArgs []string) transaction.WitnessScope {
	if len(signerArgs) == 0 {
		return transaction.CalledByEntry
	}
	return transaction.None
}

package utilcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	sccontext "github.com/n3node/n3node/pkg/smartcontract/context"
)

// readContextArg reads the context file that is the one argument of
// sendtx and txdump.
func readContextArg(c *cli.Command) (*sccontext.ParameterContext, error) {
	switch c.Args().Len() {
	case 0:
		return nil, errors.New("missing input file")
	case 1:
		return txsend.ReadContext(c.Args().First())
	}
	return nil, errors.New("only one input file is accepted")
}

// sendTx sends the completed transaction of a context file (neo-go's util
// sendtx) and prints its hash (and, with --await, its outcome).
func sendTx(ctx context.Context, c *cli.Command) error {
	pc, err := readContextArg(c)
	if err != nil {
		return err
	}
	tx, err := pc.GetCompleteTransaction()
	if err != nil {
		return fmt.Errorf("failed to complete transaction: %w", err)
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return fmt.Errorf("failed to create RPC client: %w", err)
	}
	defer done()
	h, err := cl.SendTransaction(tctx, tx)
	if err != nil {
		return fmt.Errorf("failed to submit transaction to RPC node: %w", err)
	}
	var aer *state.AppExecResult
	if c.Bool("await") {
		if aer, err = actor.Wait(tctx, cl, h, tx.ValidUntilBlock, 0); err != nil {
			return fmt.Errorf("failed to await transaction %s: %w", h.StringLE(), err)
		}
	}
	txsend.DumpTxInfo(console.Stdout(c), h, aer)
	return nil
}

// txDump prints the transaction of a context file as `query tx -v` does
// and, with -r, the node's invokescript result of its script and signers
// (neo-go's util txdump).
func txDump(ctx context.Context, c *cli.Command) error {
	pc, err := readContextArg(c)
	if err != nil {
		return err
	}
	if pc.Tx == nil {
		return errors.New("verifiable item is not a transaction")
	}
	out := console.Stdout(c)
	if err := DumpTx(out, pc.Tx, nil, nil, true, -1); err != nil {
		return err
	}
	if c.String("rpc-endpoint") == "" {
		return nil
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	raw, err := cl.CallRaw(tctx, "invokescript", []any{pc.Tx.Script, pc.Tx.Signers})
	if err != nil {
		return err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, raw, "", " "); err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, ind.String())
	return err
}

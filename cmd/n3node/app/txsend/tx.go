package txsend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract"
	sccontext "github.com/n3node/n3node/pkg/smartcontract/context"
	"github.com/n3node/n3node/pkg/wallet"
)

// Sending transactions from the CLI, as neo-go's cli/txctx does: fee
// flags, --out (save a parameter context instead of sending), --force (no
// confirmation), --await (wait for the block).

// TxFlags are the flags of every command that sends a transaction.
func TxFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "gas", Aliases: []string{"g"}, Usage: "network fee to add to the transaction (prioritizing it), in GAS"},
		&cli.StringFlag{Name: "sysgas", Aliases: []string{"e"}, Usage: "system fee to add to the transaction (compensating for execution), in GAS"},
		&cli.StringFlag{Name: "out", Usage: "file to write the parameter context (JSON) with the transaction to, instead of sending it"},
		&cli.BoolFlag{Name: "force", Usage: "do not ask for a confirmation (and ignore a FAULT of the test invocation)"},
		&cli.BoolFlag{Name: "await", Usage: "wait for the transaction to be included in a block"},
	}
}

// TxOptions are the parsed transaction flags.
type TxOptions struct {
	sysgas, netgas int64
	out            string
	force, await   bool
}

// ReadTxOptions parses the TxFlags.
func ReadTxOptions(c *cli.Command) (TxOptions, error) {
	o := TxOptions{out: c.String("out"), force: c.Bool("force"), await: c.Bool("await")}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"gas", &o.netgas}, {"sysgas", &o.sysgas}} {
		s := c.String(f.name)
		if s == "" {
			continue
		}
		v, err := nep17.ParseAmount(s, 8)
		if err != nil || v.Sign() < 0 || !v.IsInt64() {
			return o, fmt.Errorf("invalid --%s value %q: a non-negative GAS amount with up to 8 decimals", f.name, s)
		}
		*f.dst = v.Int64()
	}
	return o, nil
}

func (o TxOptions) ActorOptions() actor.Options {
	return actor.Options{SystemFeeExtra: o.sysgas, NetworkFeeExtra: o.netgas, MaxValidity: o.out != ""}
}

// SignersAccounts pairs the sender (with senderScope unless the cosigners
// list names it) and every cosigner with its wallet account, as neo-go's
// cmdargs.GetSignersAccounts. Cosigner accounts are unlocked with the same
// password source.
func SignersAccounts(c *cli.Command, w *wallet.Wallet, pass *string, sender *wallet.Account, senderScope transaction.WitnessScope, cosigners []transaction.Signer) ([]actor.SignerAccount, error) {
	sh := sender.ScriptHash()
	out := []actor.SignerAccount{{Signer: transaction.Signer{Account: sh, Scopes: senderScope}, Account: sender}}
	for i, s := range cosigners {
		if s.Account == sh {
			out[0].Signer = s
			continue
		}
		acc := w.GetAccount(s.Account)
		if acc == nil {
			return nil, fmt.Errorf("invalid signers: no account was found in the wallet for signer #%d (%s)", i, neorpc.Uint160ToAddress(s.Account))
		}
		if err := Unlock(c, w, acc, pass); err != nil {
			return nil, err
		}
		out = append(out, actor.SignerAccount{Signer: s, Account: acc})
	}
	return out, nil
}

// SignAndSend saves a parameter context (--out) or confirms, signs, sends
// and (--await) waits for tx, then prints its hash (and the execution).
func SignAndSend(ctx context.Context, c *cli.Command, act *actor.Actor, tx *transaction.Transaction, o TxOptions) error {
	w := console.Stdout(c)
	if o.out != "" {
		pc, err := act.Sign(tx)
		if err != nil {
			return err
		}
		if err := WriteContext(o.out, pc); err != nil {
			return err
		}
		DumpTxInfo(w, tx.Hash(), nil)
		return nil
	}
	if !o.force {
		start := time.Now()
		if err := confirmTx(c, tx); err != nil {
			return err
		}
		// Compensate for the time spent reading the answer (neo-go does
		// the same): the transaction is not signed yet.
		waited := uint32(time.Since(start).Milliseconds() / int64(max(1, act.Version().Protocol.MillisecondsPerBlock)))
		tx = tx.Copy()
		tx.ValidUntilBlock += waited + 2
	}
	pc, err := act.Sign(tx)
	if err != nil {
		return err
	}
	if !pc.IsComplete() {
		_, err := act.Send(ctx, pc)
		return fmt.Errorf("%w; save it with --out and add the other signatures with 'wallet sign'", err)
	}
	h, err := act.Send(ctx, pc)
	if err != nil {
		return fmt.Errorf("failed to send transaction: %w", err)
	}
	var aer *state.AppExecResult
	if o.await {
		if aer, err = act.Wait(ctx, h, tx.ValidUntilBlock); err != nil {
			return fmt.Errorf("failed to await transaction %s: %w", h.StringLE(), err)
		}
	}
	DumpTxInfo(w, h, aer)
	return nil
}

// confirmTx prints the fees and asks for a 'y'.
func confirmTx(c *cli.Command, tx *transaction.Transaction) error {
	w := console.Stderr(c)
	fmt.Fprintf(w, "Network fee: %s\n", gasString(tx.NetworkFee))
	fmt.Fprintf(w, "System fee: %s\n", gasString(tx.SystemFee))
	fmt.Fprintf(w, "Total fee: %s\n", gasString(tx.NetworkFee+tx.SystemFee))
	ln, err := console.Prompt(c, "Relay transaction (y|N)> ")
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if len(ln) > 0 && (ln[0] == 'y' || ln[0] == 'Y') {
		return nil
	}
	return errors.New("cancelled")
}

func gasString(v int64) string { return nep17.FormatAmount(big.NewInt(v), 8) }

// DumpTxInfo prints the hash and, after --await, the outcome (neo-go's
// txctx.DumpTransactionInfo).
func DumpTxInfo(w io.Writer, h hash.Uint256, aer *state.AppExecResult) {
	fmt.Fprintln(w, h.StringLE())
	if aer != nil {
		fmt.Fprintf(w, "OnChain:\t%t\n", true)
		fmt.Fprintf(w, "VMState:\t%s\n", aer.VMState)
		if aer.FaultException != "" {
			fmt.Fprintf(w, "FaultException:\t%s\n", aer.FaultException)
		}
	}
}

// WriteContext saves a parameter context file (replacing it atomically).
func WriteContext(path string, pc *sccontext.ParameterContext) error {
	data, err := json.Marshal(pc)
	if err != nil {
		return fmt.Errorf("can't marshal transaction: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("can't write transaction to file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("can't write transaction to file: %w", err)
	}
	return nil
}

// ReadContext reads a parameter context file.
func ReadContext(path string) (*sccontext.ParameterContext, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("can't read input file: %w", err)
	}
	pc := new(sccontext.ParameterContext)
	if err := json.Unmarshal(data, pc); err != nil {
		return nil, fmt.Errorf("can't parse transaction: %w", err)
	}
	return pc, nil
}

// InvokeAndSend test-invokes a contract method with the actor's signers
// and sends a transaction running the node's script, as neo-go's
// 'contract invokefunction': a FAULT stops unless --force.
func InvokeAndSend(ctx context.Context, c *cli.Command, act *actor.Actor, contract hash.Uint160, method string, params []smartcontract.Parameter, o TxOptions) error {
	r, err := act.Call(ctx, contract, method, params...)
	if err != nil {
		return err
	}
	return sendInvokeResult(ctx, c, act, r, o)
}

// SendScript makes a transaction running script (MakeRun) and signs and
// sends it as SignAndSend; an error making it is prefixed "can't make
// transaction: " as neo-go's transfers print it.
func SendScript(ctx context.Context, c *cli.Command, act *actor.Actor, script []byte, o TxOptions) error {
	tx, err := MakeRun(ctx, act, script)
	if err != nil {
		return fmt.Errorf("can't make transaction: %w", err)
	}
	return SignAndSend(ctx, c, act, tx, o)
}

// MakeRun makes a transaction running script, whose system fee is what
// the node's test run consumed. A test run that does not HALT is an error
// with neo-go's text ("script failed (FAULT state) due to an error:
// <exception>") that matches rpcclient.ErrFault.
func MakeRun(ctx context.Context, act *actor.Actor, script []byte) (*transaction.Transaction, error) {
	tx, r, err := act.MakeUnsignedRun(ctx, script)
	if err != nil && r != nil && r.State != rpcclient.StateHalt {
		return nil, &scriptFailedError{state: r.State, exception: r.FaultException}
	}
	return tx, err
}

// scriptFailedError is a test run that did not HALT.
type scriptFailedError struct {
	state, exception string
}

func (e *scriptFailedError) Error() string {
	return fmt.Sprintf("script failed (%s state) due to an error: %s", e.state, e.exception)
}

func (e *scriptFailedError) Unwrap() error { return rpcclient.ErrFault }

// sendInvokeResult builds, signs and sends a transaction for the script of
// a test invocation.
func sendInvokeResult(ctx context.Context, c *cli.Command, act *actor.Actor, r *rpcclient.InvokeResult, o TxOptions) error {
	if r.State != rpcclient.StateHalt {
		msg := fmt.Sprintf("Warning: %s VM state returned from the RPC node: %s", r.State, r.FaultException)
		action, process := "send", "Sending"
		if o.out != "" {
			action, process = "save", "Saving"
		}
		if !o.force {
			return fmt.Errorf("%s.\nUse --force flag to %s the transaction anyway.", msg, action)
		}
		fmt.Fprintln(console.Stdout(c), msg+".\n"+process+" transaction...")
	}
	if len(r.Script) == 0 {
		return errors.New("no script returned from the RPC node")
	}
	tx, err := act.MakeUnsignedUncheckedRun(ctx, r.Script, r.GasConsumed)
	if err != nil {
		return fmt.Errorf("failed to create tx: %w", err)
	}
	return SignAndSend(ctx, c, act, tx, o)
}

package utilcmd

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

func cancelTxCommand() *cli.Command {
	flags := append(txsend.WalletFlags(),
		&cli.StringFlag{Name: "address", Aliases: []string{"a"}, Usage: "address of the conflicting transaction's signer and GAS source (default: the wallet's default account)"},
		&cli.StringFlag{Name: "gas", Aliases: []string{"g"}, Usage: "network fee to add above the target's (priority), in GAS"},
		&cli.BoolFlag{Name: "await", Usage: "wait for the target or the conflicting transaction to be included in a block"},
	)
	return &cli.Command{
		Name:      "canceltx",
		Usage:     "cancel a pending transaction with a conflicting one",
		UsageText: "n3node util canceltx -r endpoint -w wallet [-a address] [-g gas] [--await] <txid>",
		Description: `Sends a transaction that only RETurns, carries a Conflicts attribute for
   txid, is signed by the address (a signer of txid), pays a network fee
   above txid's and is valid as long as txid (neo-go's util canceltx).`,
		Flags:  append(flags, txsend.RPCFlags()...),
		Action: cancelTx,
	}
}

func cancelTx(ctx context.Context, c *cli.Command) error {
	target, err := txsend.TxHashArg(c)
	if err != nil {
		return err
	}
	var extra int64
	if s := c.String("gas"); s != "" {
		f, err := config.ParseFixed8(s)
		if err != nil || f < 0 {
			return fmt.Errorf("invalid --gas %q", s)
		}
		extra = int64(f)
	}
	w, pass, err := txsend.OpenWallet(c)
	if err != nil {
		return err
	}
	defer w.Close()
	addr, err := txsend.AddressOrDefault(c, "address", w)
	if err != nil {
		return err
	}
	acc, err := txsend.AccountFor(c, w, addr, pass)
	if err != nil {
		return fmt.Errorf("failed to get account from context to sign the conflicting transaction: %w", err)
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	main, _ := cl.GetRawTransactionVerbose(tctx, target) // unknown to the node: cancel anyway
	if main != nil && !main.Blockhash.IsZero() {
		return fmt.Errorf("target transaction %s is accepted at block %s", target.StringLE(), main.Blockhash.StringLE())
	}
	if main != nil && !main.Transaction.HasSigner(acc.ScriptHash()) {
		return fmt.Errorf("account %s is not a signer of the conflicting transaction", acc.Address)
	}
	act, err := actor.New(tctx, cl, []actor.SignerAccount{{Signer: transaction.Signer{Account: acc.ScriptHash(), Scopes: transaction.CalledByEntry}, Account: acc}},
		actor.Options{Attributes: []transaction.Attribute{{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: target}}}})
	if err != nil {
		return err
	}
	tx, _, err := act.MakeUnsignedRun(tctx, []byte{byte(opcode.RET)})
	if err != nil {
		return fmt.Errorf("failed to send conflicting transaction: %w", err)
	}
	if main != nil {
		tx.NetworkFee = max(tx.NetworkFee, main.Transaction.NetworkFee+1)
		tx.ValidUntilBlock = main.Transaction.ValidUntilBlock
	}
	tx.NetworkFee += extra
	h, err := act.SignAndSend(tctx, tx)
	if err != nil {
		return fmt.Errorf("failed to send conflicting transaction: %w", err)
	}
	out := console.Stdout(c)
	var aer *state.AppExecResult
	if c.Bool("await") {
		aer, err = act.Wait(tctx, h, tx.ValidUntilBlock)
		if err != nil {
			return cancelWaitError(tctx, cl, c, target, h, tx.ValidUntilBlock, main != nil, err)
		}
		fmt.Fprintln(out, "Conflicting transaction accepted")
	}
	txsend.DumpTxInfo(out, h, aer)
	return nil
}

// cancelWaitError explains why the conflicting transaction h was not
// accepted: the target was, or neither was by vub (a success when the
// node knew the target: it can no longer be accepted either).
func cancelWaitError(ctx context.Context, cl *rpcclient.Client, c *cli.Command, target, h hash.Uint256, vub uint32, known bool, err error) error {
	if t, terr := cl.GetRawTransactionVerbose(ctx, target); terr == nil && !t.Blockhash.IsZero() {
		return fmt.Errorf("target transaction %s is accepted at block %s", target.StringLE(), t.Blockhash.StringLE())
	}
	if !errors.Is(err, actor.ErrTxNotAccepted) {
		return fmt.Errorf("failed to await target/ conflicting transaction %s/ %s: %w", target.StringLE(), h.StringLE(), err)
	}
	if !known {
		return fmt.Errorf("neither target nor conflicting transaction is accepted before the current height %d (ValidUntilBlock value of conlicting transaction). Main transaction is unknown to the provided RPC node, thus still has chances to be accepted, you may try cancellation again", vub)
	}
	fmt.Fprintf(console.Stdout(c), "Neither target nor conflicting transaction is accepted before the current height %d (ValidUntilBlock value of both target and conflicting transactions). Main transaction is not valid anymore, cancellation is successful\n", vub)
	return nil
}

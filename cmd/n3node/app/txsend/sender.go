package txsend

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	"github.com/n3node/n3node/pkg/wallet"
)

// SenderSetup is a sender's wallet, unlocked account, RPC client and
// actor, made by newSender.
type SenderSetup struct {
	Wallet  *wallet.Wallet
	Account *wallet.Account // the sender's, unlocked
	Client  *rpcclient.Client
	Actor   *actor.Actor
	Opts    TxOptions
	Ctx     context.Context // bounded by --timeout
	Cleanup func()          // closes the client and the wallet
}

// NewSender opens the wallet, unlocks --from (or the default account) and
// the cosigners' accounts, connects and makes the actor.
func NewSender(ctx context.Context, c *cli.Command, cosignerArgs []string, senderScope transaction.WitnessScope) (*SenderSetup, error) {
	return NewSenderFlag(ctx, c, "from", cosignerArgs, senderScope)
}

// NewSenderFlag is newSender with the sender address in the named flag.
func NewSenderFlag(ctx context.Context, c *cli.Command, flag string, cosignerArgs []string, senderScope transaction.WitnessScope) (*SenderSetup, error) {
	o, err := ReadTxOptions(c)
	if err != nil {
		return nil, err
	}
	cosigners, err := ParseSigners(cosignerArgs)
	if err != nil {
		return nil, err
	}
	w, pass, err := OpenWallet(c)
	if err != nil {
		return nil, err
	}
	from, err := AddressOrDefault(c, flag, w)
	if err != nil {
		w.Close()
		return nil, err
	}
	acc, err := AccountFor(c, w, from, pass)
	if err != nil {
		w.Close()
		return nil, err
	}
	sas, err := SignersAccounts(c, w, pass, acc, senderScope, cosigners)
	if err != nil {
		w.Close()
		return nil, err
	}
	cl, tctx, done, err := DialRPC(ctx, c)
	if err != nil {
		w.Close()
		return nil, err
	}
	act, err := actor.New(tctx, cl, sas, o.ActorOptions())
	if err != nil {
		done()
		w.Close()
		return nil, fmt.Errorf("failed to create Actor: %w", err)
	}
	return &SenderSetup{Wallet: w, Account: acc, Client: cl, Actor: act, Opts: o, Ctx: tctx, Cleanup: func() { done(); w.Close() }}, nil
}

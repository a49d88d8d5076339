package walletcmd

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/wallet"

	nio "github.com/n3node/n3node/pkg/io"
)

func candidateCommands() []*cli.Command {
	flags := func(usage string, extra ...cli.Flag) []cli.Flag {
		fs := append(txsend.WalletFlags(), &cli.StringFlag{Name: "address", Aliases: []string{"a"}, Required: true, Usage: usage})
		fs = append(fs, extra...)
		fs = append(fs, txsend.TxFlags()...)
		return append(fs, txsend.RPCFlags()...)
	}
	return []*cli.Command{
		{
			Name:      "register",
			Usage:     "register as a candidate",
			UsageText: "n3node wallet candidate register -w wallet -r endpoint -a address [--useRegisterCall] [tx flags]",
			Description: `Registers the account's public key as a candidate. By default it sends the
   registration price in GAS to the NEO contract with the key as data (the
   NEP-17 payment way, as neo-go does; signer scope CalledByEntry and
   CustomContracts:NEO); --useRegisterCall calls NEO.registerCandidate.`,
			Flags:  flags("address to register", &cli.BoolFlag{Name: "useRegisterCall", Usage: "call registerCandidate instead of a GAS transfer"}),
			Action: candidateRegister,
		},
		{
			Name:      "unregister",
			Usage:     "unregister a candidate",
			UsageText: "n3node wallet candidate unregister -w wallet -r endpoint -a address [tx flags]",
			Flags:     flags("address to unregister"),
			Action: func(ctx context.Context, c *cli.Command) error {
				return accountAction(ctx, c, transaction.CalledByEntry, nil, func(ctx context.Context, act *actor.Actor, acc *wallet.Account) ([]byte, error) {
					pub, err := accountKey(acc)
					if err != nil {
						return nil, err
					}
					return neoCall("unregisterCandidate", pub.Bytes())
				})
			},
		},
		{
			Name:      "vote",
			Usage:     "vote for a candidate (no candidate: remove the vote)",
			UsageText: "n3node wallet candidate vote -w wallet -r endpoint -a address [-c pubkey] [tx flags]",
			Flags:     flags("address to vote from", &cli.StringFlag{Name: "candidate", Aliases: []string{"c"}, Usage: "public key of the candidate"}),
			Action: func(ctx context.Context, c *cli.Command) error {
				var to any
				if s := c.String("candidate"); s != "" {
					pub, err := keys.NewPublicKeyFromString(s)
					if err != nil {
						return fmt.Errorf("invalid public key: '%s'", s)
					}
					to = pub.Bytes()
				}
				return accountAction(ctx, c, transaction.CalledByEntry, nil, func(ctx context.Context, act *actor.Actor, acc *wallet.Account) ([]byte, error) {
					return neoCall("vote", act.Sender(), to)
				})
			},
		},
	}
}

func candidateRegister(ctx context.Context, c *cli.Command) error {
	if c.Bool("useRegisterCall") {
		return accountAction(ctx, c, transaction.CalledByEntry, nil, func(ctx context.Context, act *actor.Actor, acc *wallet.Account) ([]byte, error) {
			pub, err := accountKey(acc)
			if err != nil {
				return nil, err
			}
			if _, err := registerPrice(ctx, c, act); err != nil {
				return nil, err
			}
			return neoCall("registerCandidate", pub.Bytes())
		})
	}
	scope := transaction.CalledByEntry | transaction.CustomContracts
	return accountAction(ctx, c, scope, []hash.Uint160{nativenames.NeoHash}, func(ctx context.Context, act *actor.Actor, acc *wallet.Account) ([]byte, error) {
		pub, err := accountKey(acc)
		if err != nil {
			return nil, err
		}
		price, err := registerPrice(ctx, c, act)
		if err != nil {
			return nil, err
		}
		return nep17.TransferScript(nep17.Transfer{Token: nep17.GAS.Hash, From: act.Sender(), To: nativenames.NeoHash, Amount: price, Data: pub.Bytes()})
	})
}

// accountKey returns the public key of a standard (unlocked) account.
func accountKey(acc *wallet.Account) (*keys.PublicKey, error) {
	pub := acc.PublicKey()
	if pub == nil {
		return nil, fmt.Errorf("account %s has no usable key", acc.Address)
	}
	return pub, nil
}

// neoCall is a script calling one NEO method that returns whether it did
// anything (vote, registerCandidate, unregisterCandidate) and asserting
// that it did, as neo-go's scripts do: a vote for a key that is not a
// candidate FAULTs in the test run instead of being paid for and doing
// nothing.
func neoCall(method string, args ...any) ([]byte, error) {
	return emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.NeoHash, method, callflag.All, args...)
		emit.Opcodes(w, opcode.ASSERT)
	})
}

// registerPrice asks the NEO contract for the candidate registration
// price and tells the user (on stderr, before the fees).
func registerPrice(ctx context.Context, c *cli.Command, act *actor.Actor) (*big.Int, error) {
	r, err := act.Call(ctx, nativenames.NeoHash, "getRegisterPrice")
	if err != nil {
		return nil, err
	}
	if err := r.CheckHalt(); err != nil {
		return nil, fmt.Errorf("getRegisterPrice: %w", err)
	}
	price, err := r.Int(0)
	if err != nil {
		return nil, fmt.Errorf("getRegisterPrice: %w", err)
	}
	fmt.Fprintf(console.Stderr(c), "Candidate registration price: %s GAS (besides the fees)\n", nep17.FormatAmount(price, 8))
	return price, nil
}

// accountAction runs a script from the account of -a (the only signer,
// with the given scope): test run, fees, signing, sending, as neo-go's
// handleNeoAction.
func accountAction(ctx context.Context, c *cli.Command, scope transaction.WitnessScope, allowed []hash.Uint160,
	mk func(ctx context.Context, act *actor.Actor, acc *wallet.Account) ([]byte, error)) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	o, err := txsend.ReadTxOptions(c)
	if err != nil {
		return err
	}
	w, acc, err := txsend.OpenAccount(c, "address", errors.New("required flag --address is missing"))
	if err != nil {
		return err
	}
	defer w.Close()
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	signer := transaction.Signer{Account: acc.ScriptHash(), Scopes: scope, AllowedContracts: allowed}
	act, err := actor.New(tctx, cl, []actor.SignerAccount{{Signer: signer, Account: acc}}, o.ActorOptions())
	if err != nil {
		return err
	}
	script, err := mk(tctx, act, acc)
	if err != nil {
		return err
	}
	// neo-go prints a FAULT of the test run bare here (no "can't make
	// transaction: ").
	tx, err := txsend.MakeRun(tctx, act, script)
	if err != nil {
		return err
	}
	return txsend.SignAndSend(tctx, c, act, tx, o)
}

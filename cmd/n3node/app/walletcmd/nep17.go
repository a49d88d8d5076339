package walletcmd

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/wallet"

	nio "github.com/n3node/n3node/pkg/io"
)

func balanceCommand(name string) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     "print NEP-17 balances",
		UsageText: "n3node wallet " + name + " [-w wallet] [--wallet-config path] -r endpoint [-a address] [--token <hash-or-name>]",
		Description: `Prints the NEP-17 balances of every wallet account, or of -a (which needs no
   wallet). --token selects one token by hash, address, name or symbol.`,
		Flags: append(append(txsend.WalletFlags(),
			txsend.AddressFlag("address", "account to print the balances of", "a"),
			&cli.StringFlag{Name: "token", Usage: "token to print (hash, address, name or symbol)"}),
			txsend.RPCFlags()...),
		Action: nep17Balance,
	}
}

func nep17Commands() []*cli.Command {
	one := 1
	transferFlags := append(append(append(txsend.WalletFlags(),
		txsend.AddressFlag("from", "address to send from (default: the wallet's default account)"),
		&cli.StringFlag{Name: "to", Required: true, Usage: "address to send to"},
		&cli.StringFlag{Name: "token", Required: true, Usage: "token (hash, address, NEO, GAS, or a name or symbol the wallet or the sender's balances know)"},
		&cli.StringFlag{Name: "amount", Required: true, Usage: "amount in token units (decimals allowed up to the token's)"}),
		txsend.TxFlags()...), txsend.RPCFlags()...)
	multiFlags := append(append(append(txsend.WalletFlags(),
		txsend.AddressFlag("from", "address to send from (default: the wallet's default account)")),
		txsend.TxFlags()...), txsend.RPCFlags()...)
	return append([]*cli.Command{
		balanceCommand("balance"),
		{
			Name:      "transfer",
			Usage:     "transfer NEP-17 tokens",
			UsageText: "n3node wallet nep17 transfer -w wallet -r endpoint [--from addr] --to addr --token <token> --amount <amount> [tx flags] [data] [-- <cosigner:Scope> ...]",
			Description: `Sends --amount of --token with optional 'data' for onNEP17Payment. The sender
   signs with CalledByEntry unless it is listed among the cosigners.

   ` + txsend.ParamsDoc + `

   ` + txsend.SignersDoc,
			Flags:        transferFlags,
			StopOnNthArg: &one,
			Action:       nep17Transfer,
		},
		{
			Name:         "multitransfer",
			Usage:        "transfer NEP-17 tokens to several recipients in one transaction",
			UsageText:    "n3node wallet nep17 multitransfer -w wallet -r endpoint [--from addr] [tx flags] <token>:<addr>:<amount> [...] [-- <cosigner:Scope> ...]",
			Flags:        multiFlags,
			StopOnNthArg: &one,
			Action:       nep17MultiTransfer,
		},
	}, tokenWalletCommands(manifest.NEP17StandardName)...)
}

func nep17Balance(ctx context.Context, c *cli.Command) error {
	return runBalance(ctx, c, manifest.NEP17StandardName, func(q *balanceQuery, h hash.Uint160) error {
		bs, err := balancesOf(q.ctx, q.cl, q.w, h, q.token)
		if err != nil {
			return err
		}
		found := false
		for _, b := range bs.Balances {
			if q.matches(b.Asset, b.Name, b.Symbol) {
				printBalance(c, b)
				found = true
			}
		}
		switch {
		case q.name == "" || found:
		case q.token != nil:
			printBalance(c, rpcclient.NEP17Balance{Asset: q.token.Hash, Amount: "0", Decimals: q.token.Decimals, Name: q.token.Name, Symbol: q.token.Symbol})
		default:
			q.notFound()
		}
		return nil
	})
}

// balancesOf returns an account's balances from getnep17balances, or,
// when the node does not support it, from balanceOf calls of NEO, GAS, the
// wallet's tokens and tok (LastUpdated is then 0).
func balancesOf(ctx context.Context, cl *rpcclient.Client, w *wallet.Wallet, h hash.Uint160, tok *nep17.Token) (*rpcclient.NEP17Balances, error) {
	bs, err := cl.GetNEP17Balances(ctx, h)
	var re *neorpc.Error
	if err == nil || !errors.As(err, &re) || re.Code != neorpc.MethodNotFoundCode {
		return bs, err
	}
	toks := []nep17.Token{nep17.NEO, nep17.GAS}
	if w != nil {
		for _, t := range w.Extra.Tokens {
			if t.Standard == manifest.NEP17StandardName {
				toks = append(toks, nep17.Token{Hash: t.Hash, Name: t.Name, Symbol: t.Symbol, Decimals: int(t.Decimals)})
			}
		}
	}
	if tok != nil {
		toks = append(toks, *tok)
	}
	seen := make(map[hash.Uint160]bool)
	var uniq []nep17.Token
	for _, t := range toks {
		if !seen[t.Hash] {
			seen[t.Hash] = true
			uniq = append(uniq, t)
		}
	}
	script, err := emit.Script(func(bw *nio.BinWriter) {
		for _, t := range uniq {
			emit.AppCall(bw, t.Hash, "balanceOf", callflag.ReadOnly, h)
		}
	})
	if err != nil {
		return nil, err
	}
	r, err := cl.InvokeScript(ctx, script, nil)
	if err != nil {
		return nil, err
	}
	if err := r.CheckHalt(); err != nil {
		return nil, fmt.Errorf("balanceOf: %w", err)
	}
	out := &rpcclient.NEP17Balances{Address: neorpc.Uint160ToAddress(h)}
	for i, t := range uniq {
		v, err := r.Int(i)
		if err != nil {
			return nil, fmt.Errorf("balanceOf %s: %w", t.Symbol, err)
		}
		if v.Sign() == 0 {
			continue
		}
		out.Balances = append(out.Balances, rpcclient.NEP17Balance{Asset: t.Hash, Amount: v.String(), Decimals: t.Decimals, Name: t.Name, Symbol: t.Symbol})
	}
	return out, nil
}

func printBalance(c *cli.Command, b rpcclient.NEP17Balance) {
	amount := b.Amount
	if v, ok := new(big.Int).SetString(b.Amount, 10); ok {
		amount = nep17.FormatAmount(v, b.Decimals)
	}
	w := console.Stdout(c)
	fmt.Fprintf(w, "%s: %s (%s)\n", b.Symbol, b.Name, b.Asset.StringLE())
	fmt.Fprintf(w, "\tAmount : %s\n", amount)
	fmt.Fprintf(w, "\tUpdated: %d\n", b.LastUpdated)
}

func nep17Transfer(ctx context.Context, c *cli.Command) error {
	return tokenTransfer(ctx, c, manifest.NEP17StandardName, func(from, to hash.Uint160, tok *nep17.Token, data any) ([]byte, error) {
		amount, err := nep17.ParseAmount(c.String("amount"), tok.Decimals)
		if err != nil {
			return nil, fmt.Errorf("invalid amount: %w", err)
		}
		return nep17.TransferScript(nep17.Transfer{Token: tok.Hash, From: from, To: to, Amount: amount, Data: data})
	})
}

func nep17MultiTransfer(ctx context.Context, c *cli.Command) error {
	args := txsend.CLIArgs(c)
	sep := len(args)
	for i, a := range args {
		if a == txsend.CosignersSeparator {
			sep = i
			break
		}
	}
	if sep == 0 {
		return errors.New("empty recipients list")
	}
	cosigners := []string(nil)
	if sep < len(args) {
		cosigners = args[sep+1:]
	}
	s, err := txsend.NewSender(ctx, c, cosigners, transaction.CalledByEntry)
	if err != nil {
		return err
	}
	defer s.Cleanup()
	cache := make(map[string]*nep17.Token)
	var ts []nep17.Transfer
	for _, arg := range args[:sep] {
		parts := strings.SplitN(arg, ":", 3)
		if len(parts) != 3 {
			return errors.New("send format must be '<token>:<addr>:<amount>'")
		}
		tok, ok := cache[parts[0]]
		if !ok {
			if tok, err = resolveToken(s.Ctx, s.Client, s.Wallet, parts[0], s.Actor.Sender(), manifest.NEP17StandardName); err != nil {
				return err
			}
			cache[parts[0]] = tok
		}
		to, err := txsend.ParseAddress(parts[1])
		if err != nil {
			return fmt.Errorf("invalid address: '%s'", parts[1])
		}
		amount, err := nep17.ParseAmount(parts[2], tok.Decimals)
		if err != nil {
			return fmt.Errorf("invalid amount: %w", err)
		}
		ts = append(ts, nep17.Transfer{Token: tok.Hash, From: s.Actor.Sender(), To: to, Amount: amount})
	}
	script, err := nep17.TransferScript(ts...)
	if err != nil {
		return err
	}
	return txsend.SendScript(s.Ctx, c, s.Actor, script, s.Opts)
}

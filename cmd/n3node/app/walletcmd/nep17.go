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

// walletToken finds a NEP-17 token imported into the wallet by hash,
// address, symbol or name.
func walletToken(w *wallet.Wallet, name string) (*nep17.Token, error) {
	ts := walletTokens(w, name, manifest.NEP17StandardName)
	switch len(ts) {
	case 0:
		return nil, nil
	case 1:
		return &nep17.Token{Hash: ts[0].Hash, Name: ts[0].Name, Symbol: ts[0].Symbol, Decimals: int(ts[0].Decimals)}, nil
	}
	return nil, fmt.Errorf("multiple matching NEP-17 tokens found for %q", name)
}

// resolveToken finds a token: in the wallet, NEO and GAS by symbol or
// name, a hash or address asked of the node, else the symbols and names
// in the holder's balances.
func resolveToken(ctx context.Context, cl *rpcclient.Client, w *wallet.Wallet, name string, holder hash.Uint160) (*nep17.Token, error) {
	if t, err := walletToken(w, name); t != nil || err != nil {
		return t, err
	}
	for _, t := range []nep17.Token{nep17.NEO, nep17.GAS} {
		if strings.EqualFold(name, t.Symbol) || name == t.Name {
			return &t, nil
		}
	}
	if h, err := txsend.ParseAddress(name); err == nil {
		t, err := nep17.Info(ctx, cl, h)
		if err != nil {
			return nil, fmt.Errorf("%q is not a valid NEP-17 token: %w", name, err)
		}
		return t, nil
	}
	bs, err := cl.GetNEP17Balances(ctx, holder)
	if err != nil {
		return nil, fmt.Errorf("can't fetch matching token from RPC-node: %w", err)
	}
	var found *nep17.Token
	for _, b := range bs.Balances {
		if b.Symbol == name || b.Name == name {
			if found != nil {
				return nil, fmt.Errorf("multiple matching NEP-17 tokens found for %q", name)
			}
			found = &nep17.Token{Hash: b.Asset, Name: b.Name, Symbol: b.Symbol, Decimals: b.Decimals}
		}
	}
	if found == nil {
		return nil, fmt.Errorf("NEP-17 token %q was not found (import it or give its hash)", name)
	}
	return found, nil
}

func nep17Balance(ctx context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	w, _, err := txsend.OpenWallet(c)
	if err != nil && !errors.Is(err, txsend.ErrNoWallet) {
		return fmt.Errorf("bad wallet: %w", err)
	}
	var addrs []hash.Uint160
	if s := c.String("address"); s != "" {
		h, err := txsend.ParseAddress(s)
		if err != nil {
			return err
		}
		if w != nil && w.GetAccount(h) == nil {
			return fmt.Errorf("can't find account for the address: %s", neorpc.Uint160ToAddress(h))
		}
		addrs = append(addrs, h)
	} else {
		if w == nil {
			return errors.New("neither wallet nor address specified")
		}
		if len(w.Accounts) == 0 {
			return errors.New("no accounts in the wallet")
		}
		for _, a := range w.Accounts {
			addrs = append(addrs, a.ScriptHash())
		}
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	name := c.String("token")
	var tok *nep17.Token
	if name != "" {
		if tok, err = walletToken(w, name); err != nil {
			return err
		}
		if tok == nil {
			for _, t := range []nep17.Token{nep17.NEO, nep17.GAS} {
				if strings.EqualFold(name, t.Symbol) || name == t.Name {
					tok = &t
				}
			}
		}
		if h, perr := txsend.ParseAddress(name); tok == nil && perr == nil {
			if tok, err = nep17.Info(tctx, cl, h); err != nil {
				return fmt.Errorf("%q is not a valid NEP-17 token: %w", name, err)
			}
		}
	}
	out := console.Stdout(c)
	for i, h := range addrs {
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "Account %s\n", neorpc.Uint160ToAddress(h))
		bs, err := balancesOf(tctx, cl, w, h, tok)
		if err != nil {
			return err
		}
		found := false
		for _, b := range bs.Balances {
			match := name == "" || (tok != nil && tok.Hash == b.Asset) || (tok == nil && (b.Name == name || b.Symbol == name))
			if !match {
				continue
			}
			printBalance(c, b)
			found = true
		}
		switch {
		case name == "" || found:
		case tok != nil:
			printBalance(c, rpcclient.NEP17Balance{Asset: tok.Hash, Amount: "0", Decimals: tok.Decimals, Name: tok.Name, Symbol: tok.Symbol})
		default:
			fmt.Fprintf(out, "Can't find data for %q token\n", name)
		}
	}
	return nil
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
	args := txsend.CLIArgs(c)
	off, params, err := txsend.ParseParams(args, true)
	if err != nil {
		return fmt.Errorf("unable to parse 'data' parameter: %w", err)
	}
	if len(params) > 1 {
		return errors.New("'data' should be represented as a single parameter")
	}
	var data any
	if len(params) == 1 {
		if data, err = params[0].Emitable(); err != nil {
			return fmt.Errorf("failed to convert 'data' to emitable type: %w", err)
		}
	}
	to, err := txsend.ParseAddress(c.String("to"))
	if err != nil {
		return err
	}
	s, err := txsend.NewSender(ctx, c, args[off:], transaction.CalledByEntry)
	if err != nil {
		return err
	}
	defer s.Cleanup()
	tok, err := resolveToken(s.Ctx, s.Client, s.Wallet, c.String("token"), s.Actor.Sender())
	if err != nil {
		return err
	}
	amount, err := nep17.ParseAmount(c.String("amount"), tok.Decimals)
	if err != nil {
		return fmt.Errorf("invalid amount: %w", err)
	}
	script, err := nep17.TransferScript(nep17.Transfer{Token: tok.Hash, From: s.Actor.Sender(), To: to, Amount: amount, Data: data})
	if err != nil {
		return err
	}
	return txsend.SendScript(s.Ctx, c, s.Actor, script, s.Opts)
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
			if tok, err = resolveToken(s.Ctx, s.Client, s.Wallet, parts[0], s.Actor.Sender()); err != nil {
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

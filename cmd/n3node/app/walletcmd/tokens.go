package walletcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/wallet"
)

// The wallet-side token commands (import, info, remove) of both token
// families: one implementation parameterized by the standard's name
// ("NEP-17" or "NEP-11"), which is also the family's word in messages.

// tokenMatches reports whether name names t: its hash (LE, with or
// without 0x), address, symbol or manifest name.
func tokenMatches(t *wallet.Token, name string) bool {
	return t.Hash.StringLE() == strings.TrimPrefix(name, "0x") || t.Address() == name || t.Symbol == name || t.Name == name
}

// walletTokens lists the wallet's tokens of a standard that name names
// (all of them when name is empty).
func walletTokens(w *wallet.Wallet, name, standard string) []*wallet.Token {
	if w == nil {
		return nil
	}
	var out []*wallet.Token
	for _, t := range w.Extra.Tokens {
		if t.Standard == standard && (name == "" || tokenMatches(t, name)) {
			out = append(out, t)
		}
	}
	return out
}

// matchWalletToken is the one wallet token name names; when several
// match they are printed and the choice refused, as neo-go does.
func matchWalletToken(c *cli.Command, w *wallet.Wallet, name, standard string) (*wallet.Token, error) {
	ts := walletTokens(w, name, standard)
	switch len(ts) {
	case 0:
		return nil, fmt.Errorf("%s token was not found", standard)
	case 1:
		return ts[0], nil
	}
	printTokenInfo(c, ts[0])
	printTokenInfo(c, ts[1])
	return nil, fmt.Errorf("multiple matching %s tokens found", standard)
}

func printTokenInfo(c *cli.Command, t *wallet.Token) {
	w := console.Stdout(c)
	fmt.Fprintf(w, "Name:\t%s\n", t.Name)
	fmt.Fprintf(w, "Symbol:\t%s\n", t.Symbol)
	fmt.Fprintf(w, "Hash:\t%s\n", t.Hash.StringLE())
	fmt.Fprintf(w, "Decimals: %d\n", t.Decimals)
	fmt.Fprintf(w, "Address: %s\n", t.Address())
	fmt.Fprintf(w, "Standard:\t%s\n", t.Standard)
}

// tokenWalletCommands are the import, info and remove commands of a
// token standard.
func tokenWalletCommands(standard string) []*cli.Command {
	return []*cli.Command{
		{
			Name:      "import",
			Usage:     "add a " + standard + " token to the wallet (so it can be named by symbol)",
			UsageText: "n3node wallet " + familyName(standard) + " import -w wallet -r endpoint --token <hash>",
			Flags: append(append(txsend.WalletFlags(),
				&cli.StringFlag{Name: "token", Required: true, Usage: "token contract hash or address"}), txsend.RPCFlags()...),
			Action: func(ctx context.Context, c *cli.Command) error { return tokenImport(ctx, c, standard) },
		},
		{
			Name:      "info",
			Usage:     "print the " + standard + " tokens imported into the wallet",
			UsageText: "n3node wallet " + familyName(standard) + " info -w wallet [--token <hash-or-name>]",
			Flags:     append(txsend.WalletFlags(), &cli.StringFlag{Name: "token", Usage: "token to print"}),
			Action:    func(ctx context.Context, c *cli.Command) error { return tokenInfo(c, standard) },
		},
		{
			Name:      "remove",
			Usage:     "remove a " + standard + " token from the wallet",
			UsageText: "n3node wallet " + familyName(standard) + " remove -w wallet --token <hash-or-name> [--force]",
			Flags: append(txsend.WalletFlags(),
				&cli.StringFlag{Name: "token", Required: true, Usage: "token to remove (hash, address, name or symbol)"},
				&cli.BoolFlag{Name: "force", Usage: "do not ask for a confirmation"}),
			Action: func(ctx context.Context, c *cli.Command) error { return tokenRemove(c, standard) },
		},
	}
}

// familyName is the subcommand of a standard: "NEP-17" is nep17.
func familyName(standard string) string {
	return strings.ToLower(strings.ReplaceAll(standard, "-", ""))
}

// openForHash starts the commands that add to a wallet what a hash names
// (import-deployed, token import): no positional arguments, the contract
// hash or address in flag, then the wallet opened for writing. The caller
// closes the wallet.
func openForHash(c *cli.Command, flag string) (hash.Uint160, *wallet.Wallet, *string, error) {
	if err := console.EnsureNoArgs(c); err != nil {
		return hash.Uint160{}, nil, nil, err
	}
	h, err := txsend.ParseAddress(c.String(flag))
	if err != nil {
		return hash.Uint160{}, nil, nil, err
	}
	w, pass, err := txsend.OpenWalletForWrite(c)
	if err != nil {
		return hash.Uint160{}, nil, nil, err
	}
	return h, w, pass, nil
}

func tokenImport(ctx context.Context, c *cli.Command, standard string) error {
	h, w, _, err := openForHash(c, "token")
	if err != nil {
		return err
	}
	defer w.Close()
	for _, t := range w.Extra.Tokens {
		if t.Hash == h && t.Standard == standard {
			printTokenInfo(c, t)
			return fmt.Errorf("%s token already exists", standard)
		}
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	tok, err := nep17.InfoStandard(tctx, cl, h, standard)
	if err != nil {
		return fmt.Errorf("can't receive token info: %w", err)
	}
	wt := wallet.NewToken(tok.Hash, tok.Name, tok.Symbol, int64(tok.Decimals), standard)
	w.AddToken(wt)
	if err := w.Save(); err != nil {
		return err
	}
	printTokenInfo(c, wt)
	return nil
}

func tokenInfo(c *cli.Command, standard string) error {
	w, _, err := openWallet(c, false)
	if err != nil {
		return err
	}
	defer w.Close()
	if name := c.String("token"); name != "" {
		t, err := matchWalletToken(c, w, name, standard)
		if err != nil {
			return err
		}
		printTokenInfo(c, t)
		return nil
	}
	for i, t := range walletTokens(w, "", standard) {
		if i > 0 {
			fmt.Fprintln(console.Stdout(c))
		}
		printTokenInfo(c, t)
	}
	return nil
}

func tokenRemove(c *cli.Command, standard string) error {
	w, _, err := openWallet(c, true)
	if err != nil {
		return err
	}
	defer w.Close()
	t, err := matchWalletToken(c, w, c.String("token"), standard)
	if err != nil {
		return err
	}
	if !c.Bool("force") && !consent(c) {
		return nil
	}
	if err := w.RemoveToken(t.Hash); err != nil {
		return fmt.Errorf("can't remove token: %w", err)
	}
	if err := w.Save(); err != nil {
		return fmt.Errorf("error while saving wallet: %w", err)
	}
	return nil
}

// consent asks "Are you sure?"; anything but y/yes prints "Cancelled.".
func consent(c *cli.Command) bool {
	ans, err := console.Prompt(c, "Are you sure? [y/N]: ")
	if a := strings.ToLower(strings.TrimSpace(ans)); err == nil && (a == "y" || a == "yes") {
		return true
	}
	fmt.Fprintln(console.Stdout(c), "Cancelled.")
	return false
}

// balanceQuery is what a balance command was asked, resolved: the node,
// the wallet (nil with only -a), the token name and, when it names a
// known token, its description.
type balanceQuery struct {
	c     *cli.Command
	ctx   context.Context
	cl    *rpcclient.Client
	w     *wallet.Wallet
	name  string
	token *nep17.Token
}

// matches tells whether a balance of the asset (with its name and symbol)
// is to be printed.
func (q *balanceQuery) matches(asset hash.Uint160, name, symbol string) bool {
	if q.token != nil {
		return q.token.Hash == asset
	}
	return q.name == "" || name == q.name || symbol == q.name
}

// notFound reports a token name that neither the wallet, the node nor
// the balances know.
func (q *balanceQuery) notFound() {
	fmt.Fprintf(console.Stdout(q.c), "Can't find data for %q token\n", q.name)
}

// runBalance is the balance command of a standard: the accounts of -a or
// of the wallet, --token looked up in the wallet, among the native tokens
// (NEP-17) or asked of the node when it is a hash or an address; then
// printAccount for each account after its "Account <address>" line.
func runBalance(ctx context.Context, c *cli.Command, standard string, printAccount func(q *balanceQuery, h hash.Uint160) error) error {
	w, _, err := openWallet(c, false)
	if err != nil && !errors.Is(err, txsend.ErrNoWallet) {
		return fmt.Errorf("bad wallet: %w", err)
	}
	if w != nil {
		defer w.Close()
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
	q := &balanceQuery{c: c, ctx: tctx, cl: cl, w: w, name: c.String("token")}
	if q.name != "" {
		if q.token, err = lookupToken(tctx, cl, w, q.name, standard); err != nil {
			return err
		}
	}
	out := console.Stdout(c)
	for i, h := range addrs {
		if i > 0 {
			fmt.Fprintln(out)
		}
		fmt.Fprintf(out, "Account %s\n", neorpc.Uint160ToAddress(h))
		if err := printAccount(q, h); err != nil {
			return err
		}
	}
	return nil
}

// lookupToken finds the token name names without the holder's balances:
// in the wallet, NEO and GAS by symbol or name (NEP-17), or, for a hash or
// an address, the node's description of it. Nil: a name to look for in
// the balances.
func lookupToken(ctx context.Context, cl *rpcclient.Client, w *wallet.Wallet, name, standard string) (*nep17.Token, error) {
	switch ts := walletTokens(w, name, standard); len(ts) {
	case 1:
		return &nep17.Token{Hash: ts[0].Hash, Name: ts[0].Name, Symbol: ts[0].Symbol, Decimals: int(ts[0].Decimals)}, nil
	case 0:
	default:
		return nil, fmt.Errorf("multiple matching %s tokens found for %q", standard, name)
	}
	if standard == manifest.NEP17StandardName {
		for _, t := range []nep17.Token{nep17.NEO, nep17.GAS} {
			if strings.EqualFold(name, t.Symbol) || name == t.Name {
				return &t, nil
			}
		}
	}
	h, err := txsend.ParseAddress(name)
	if err != nil {
		return nil, nil
	}
	t, err := nep17.InfoStandard(ctx, cl, h, standard)
	if err != nil {
		return nil, fmt.Errorf("%q is not a valid %s token: %w", name, standard, err)
	}
	return t, nil
}

// resolveToken finds the token a transfer names: lookupToken, else the
// one token of the holder's balances with that symbol or name.
func resolveToken(ctx context.Context, cl *rpcclient.Client, w *wallet.Wallet, name string, holder hash.Uint160, standard string) (*nep17.Token, error) {
	if t, err := lookupToken(ctx, cl, w, name, standard); t != nil || err != nil {
		return t, err
	}
	type held struct {
		asset        hash.Uint160
		name, symbol string
		decimals     int
	}
	var hs []held
	if standard == manifest.NEP17StandardName {
		bs, err := cl.GetNEP17Balances(ctx, holder)
		if err != nil {
			return nil, fmt.Errorf("can't fetch matching token from RPC-node: %w", err)
		}
		for _, b := range bs.Balances {
			hs = append(hs, held{b.Asset, b.Name, b.Symbol, b.Decimals})
		}
	} else {
		bs, err := cl.GetNEP11Balances(ctx, holder)
		if err != nil {
			return nil, fmt.Errorf("can't fetch matching token from RPC-node: %w", err)
		}
		for _, b := range bs.Balances {
			hs = append(hs, held{b.Asset, b.Name, b.Symbol, b.Decimals})
		}
	}
	var found *nep17.Token
	for _, b := range hs {
		if b.symbol == name || b.name == name {
			if found != nil {
				return nil, fmt.Errorf("multiple matching %s tokens found for %q", standard, name)
			}
			found = &nep17.Token{Hash: b.asset, Name: b.name, Symbol: b.symbol, Decimals: b.decimals}
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%s token %q was not found (import it or give its hash)", standard, name)
	}
	return found, nil
}

// tokenTransfer is the transfer command of a standard: the optional
// 'data' argument and the cosigners after it, the sender (--from or the
// default account, CalledByEntry unless listed), --to and --token; script
// makes the transfer script, which is then test-run, signed and sent.
func tokenTransfer(ctx context.Context, c *cli.Command, standard string, script func(from, to hash.Uint160, tok *nep17.Token, data any) ([]byte, error)) error {
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
	tok, err := resolveToken(s.Ctx, s.Client, s.Wallet, c.String("token"), s.Actor.Sender(), standard)
	if err != nil {
		return err
	}
	b, err := script(s.Actor.Sender(), to, tok, data)
	if err != nil {
		return err
	}
	return txsend.SendScript(s.Ctx, c, s.Actor, b, s.Opts)
}

package walletcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
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

func tokenImport(ctx context.Context, c *cli.Command, standard string) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	h, err := txsend.ParseAddress(c.String("token"))
	if err != nil {
		return err
	}
	w, _, err := txsend.OpenWalletForWrite(c)
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
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	w, _, err := txsend.OpenWallet(c)
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
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	w, _, err := txsend.OpenWalletForWrite(c)
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

package walletcmd

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcclient/nep11"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// The NEP-11 commands: balance and transfer share the token-command core
// with NEP-17 (tokens.go); the readers test-invoke the token's methods
// (pkg/rpcclient/nep11), with --historic.

func nep11Commands() []*cli.Command {
	one := 1
	std := manifest.NEP11StandardName
	idFlag := &cli.StringFlag{Name: "id", Usage: "hex-encoded token ID"}
	tokenHashFlag := &cli.StringFlag{Name: "token", Required: true, Usage: "token contract address or hash (LE)"}
	reader := func(name, usage, usageText string, action cli.ActionFunc, extra ...cli.Flag) *cli.Command {
		return &cli.Command{
			Name: name, Usage: usage, UsageText: "n3node wallet nep11 " + name + " -r endpoint [-s timeout] " + usageText + " [--historic index/hash]",
			Flags:  append(append([]cli.Flag{tokenHashFlag}, append(extra, txsend.HistoricFlag())...), txsend.RPCFlags()...),
			Action: action,
		}
	}
	maxNote := fmt.Sprintf(" (%d will be printed at max)", nep11.DefaultMaxItems)
	return append([]*cli.Command{
		{
			Name:      "balance",
			Usage:     "print NEP-11 balances (tokens by ID)",
			UsageText: "n3node wallet nep11 balance [-w wallet] [--wallet-config path] -r endpoint [-a address] [--token <hash-or-name>] [--id <token-id>]",
			Description: `Prints the NFTs of every wallet account, or of -a (which needs no wallet);
   --token selects one NFT contract (hash, address, or a name or symbol the
   wallet or the balances know), --id one token.`,
			Flags: append(append(txsend.WalletFlags(),
				txsend.AddressFlag("address", "account to print the balances of", "a"),
				&cli.StringFlag{Name: "token", Usage: "token to print (hash, address, name or symbol)"}, idFlag),
				txsend.RPCFlags()...),
			Action: nep11Balance,
		},
		{
			Name:      "transfer",
			Usage:     "transfer a NEP-11 token",
			UsageText: "n3node wallet nep11 transfer -w wallet -r endpoint [--from addr] --to addr --token <hash-or-name> --id <token-id> [--amount amount] [tx flags] [data] [-- <cosigner:Scope> ...]",
			Description: `Transfers the token --id: transfer(to, id, data) for a non-divisible NFT,
   or, with --amount, transfer(from, to, amount, id, data) for a divisible one.

   ` + txsend.SignersDoc,
			Flags: append(append(append(txsend.WalletFlags(),
				txsend.AddressFlag("from", "address to send from (default: the wallet's default account)"),
				&cli.StringFlag{Name: "to", Required: true, Usage: "address to send to"},
				&cli.StringFlag{Name: "token", Required: true, Usage: "token (hash, address, or a name or symbol the wallet or the sender's balances know)"},
				idFlag,
				&cli.StringFlag{Name: "amount", Usage: "amount of a divisible token"}),
				txsend.TxFlags()...), txsend.RPCFlags()...),
			StopOnNthArg: &one,
			Action:       nep11Transfer,
		},
		reader("properties", "print the properties of a NEP-11 token", "--token <hash> --id <token-id>", nep11Properties, idFlag),
		reader("ownerOf", "print the owner of a non-divisible NEP-11 token", "--token <hash> --id <token-id>",
			func(ctx context.Context, c *cli.Command) error { return nep11Owner(ctx, c, false) }, idFlag),
		reader("ownerOfD", "print the owners of a divisible NEP-11 token"+maxNote, "--token <hash> --id <token-id>",
			func(ctx context.Context, c *cli.Command) error { return nep11Owner(ctx, c, true) }, idFlag),
		reader("tokensOf", "print the token IDs of an owner"+maxNote, "--token <hash> --address <addr>", nep11TokensOf,
			&cli.StringFlag{Name: "address", Required: true, Usage: "NFT owner address or hash (LE)"}),
		reader("tokens", "print the token IDs minted by a contract (an optional method)"+maxNote, "--token <hash>", nep11Tokens),
	}, tokenWalletCommands(std)...)
}

func nep11Balance(ctx context.Context, c *cli.Command) error {
	id := c.String("id")
	return runBalance(ctx, c, manifest.NEP11StandardName, func(q *balanceQuery, h hash.Uint160) error {
		bs, err := q.cl.GetNEP11Balances(q.ctx, h)
		if err != nil {
			return err
		}
		found := false
		for _, b := range bs.Balances {
			if q.matches(b.Asset, b.Name, b.Symbol) {
				printNFTBalance(c, b, id)
				found = true
			}
		}
		switch {
		case q.name == "" || found:
		case q.token != nil:
			// A known token without balance data: its line, no NFTs.
			printNFTBalance(c, result.NEP11AssetBalance{Asset: q.token.Hash, Decimals: q.token.Decimals, Name: q.token.Name, Symbol: q.token.Symbol}, "")
		default:
			q.notFound()
		}
		return nil
	})
}

func printNFTBalance(c *cli.Command, b result.NEP11AssetBalance, id string) {
	w := console.Stdout(c)
	fmt.Fprintf(w, "%s: %s (%s)\n", b.Symbol, b.Name, b.Asset.StringLE())
	for _, t := range b.Tokens {
		if id != "" && id != t.ID {
			continue
		}
		amount := t.Amount
		if v, ok := new(big.Int).SetString(t.Amount, 10); ok {
			amount = nep17.FormatAmount(v, b.Decimals)
		}
		fmt.Fprintf(w, "\tToken: %s\n", t.ID)
		fmt.Fprintf(w, "\t\tAmount: %s\n", amount)
		fmt.Fprintf(w, "\t\tUpdated: %d\n", t.LastUpdated)
	}
}

// tokenID reads --id (hex), which the command requires.
func tokenID(c *cli.Command) ([]byte, error) {
	s := c.String("id")
	if s == "" {
		return nil, errors.New("token ID should be specified")
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("invalid token ID: %w", err)
	}
	return b, nil
}

func nep11Transfer(ctx context.Context, c *cli.Command) error {
	return tokenTransfer(ctx, c, manifest.NEP11StandardName, func(from, to hash.Uint160, tok *nep17.Token, data any) ([]byte, error) {
		id, err := tokenID(c)
		if err != nil {
			return nil, err
		}
		s := c.String("amount")
		if s == "" {
			return nep11.TransferScript(tok.Hash, to, id, data)
		}
		amount, err := nep17.ParseAmount(s, tok.Decimals)
		if err != nil {
			return nil, fmt.Errorf("invalid amount: %w", err)
		}
		return nep11.TransferDScript(tok.Hash, from, to, amount, id, data)
	})
}

// withReader runs f with a reader of --token at --historic.
func withReader(ctx context.Context, c *cli.Command, f func(ctx context.Context, r nep11.Reader) error) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	tok, err := txsend.ParseAddress(c.String("token"))
	if err != nil {
		return err
	}
	at, err := txsend.ReadHistoric(c)
	if err != nil {
		return err
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	return f(tctx, nep11.Reader{RPC: cl, Token: tok, At: at})
}

func nep11Properties(ctx context.Context, c *cli.Command) error {
	id, err := tokenID(c)
	if err != nil {
		return err
	}
	return withReader(ctx, c, func(ctx context.Context, r nep11.Reader) error {
		props, err := r.Properties(ctx, id)
		if err != nil {
			return fmt.Errorf("failed to call NEP-11 `properties` method: %w", err)
		}
		b, err := stackitem.ToJSON(props)
		if err != nil {
			return fmt.Errorf("failed to convert result to JSON: %w", err)
		}
		fmt.Fprintln(console.Stdout(c), string(b))
		return nil
	})
}

func nep11Owner(ctx context.Context, c *cli.Command, divisible bool) error {
	id, err := tokenID(c)
	if err != nil {
		return err
	}
	return withReader(ctx, c, func(ctx context.Context, r nep11.Reader) error {
		out := console.Stdout(c)
		if !divisible {
			h, err := r.OwnerOf(ctx, id)
			if err != nil {
				return fmt.Errorf("failed to call NEP-11 non-divisible `ownerOf` method: %w", err)
			}
			fmt.Fprintln(out, neorpc.Uint160ToAddress(h))
			return nil
		}
		hs, err := r.OwnersOf(ctx, id, nep11.DefaultMaxItems)
		if err != nil {
			return fmt.Errorf("failed to call NEP-11 divisible `ownerOf` method: %w", err)
		}
		for _, h := range hs {
			fmt.Fprintln(out, neorpc.Uint160ToAddress(h))
		}
		return nil
	})
}

func printIDs(c *cli.Command, ids [][]byte) {
	for _, id := range ids {
		fmt.Fprintln(console.Stdout(c), hex.EncodeToString(id))
	}
}

func nep11TokensOf(ctx context.Context, c *cli.Command) error {
	owner, err := txsend.ParseAddress(c.String("address"))
	if err != nil {
		return err
	}
	return withReader(ctx, c, func(ctx context.Context, r nep11.Reader) error {
		ids, err := r.TokensOf(ctx, owner, nep11.DefaultMaxItems)
		if err != nil {
			return fmt.Errorf("failed to call NEP-11 `tokensOf` method: %w", err)
		}
		printIDs(c, ids)
		return nil
	})
}

func nep11Tokens(ctx context.Context, c *cli.Command) error {
	return withReader(ctx, c, func(ctx context.Context, r nep11.Reader) error {
		ids, err := r.Tokens(ctx, nep11.DefaultMaxItems)
		if err != nil {
			return fmt.Errorf("failed to call optional NEP-11 `tokens` method: %w", err)
		}
		printIDs(c, ids)
		return nil
	})
}

package querycmd

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/cmd/n3node/app/utilcmd"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Command is `n3node query`.
func Command() *cli.Command {
	verbose := func(usage string) []cli.Flag {
		return append([]cli.Flag{&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: usage}}, txsend.RPCFlags()...)
	}
	return &cli.Command{
		Name:  "query",
		Usage: "query data from an RPC node (neo-go's output)",
		Commands: []*cli.Command{
			{Name: "candidates", Usage: "candidates and their votes", UsageText: "n3node query candidates -r endpoint [-s timeout]", Flags: txsend.RPCFlags(), Action: withClient(queryCandidates)},
			{Name: "committee", Usage: "committee keys", UsageText: "n3node query committee -r endpoint [-s timeout]", Flags: txsend.RPCFlags(), Action: withClient(queryCommittee)},
			{Name: "height", Usage: "the node's height and validated state height", UsageText: "n3node query height -r endpoint [-s timeout]", Flags: txsend.RPCFlags(), Action: withClient(queryHeight)},
			{Name: "notarypool", Usage: "the notary request pool", UsageText: "n3node query notarypool -r endpoint [-s timeout] [-v]", Flags: verbose("print the main transactions in full"), Action: withClient(queryNotaryPool)},
			{Name: "tx", Usage: "a transaction's status", UsageText: "n3node query tx -r endpoint [-s timeout] [-v] <hash>", Flags: verbose("print the transaction and its execution in full"), Action: withClient(queryTx)},
			{Name: "voter", Usage: "a NEO holder's account state", UsageText: "n3node query voter -r endpoint [-s timeout] <address>", Flags: txsend.RPCFlags(), Action: withClient(queryVoter)},
		},
	}
}

type queryFunc func(ctx context.Context, c *cli.Command, cl *rpcclient.Client) error

func withClient(f queryFunc) cli.ActionFunc {
	return func(ctx context.Context, c *cli.Command) error {
		cl, tctx, done, err := txsend.DialRPC(ctx, c)
		if err != nil {
			return err
		}
		defer done()
		return f(tctx, c, cl)
	}
}

func queryCandidates(ctx context.Context, c *cli.Command, cl *rpcclient.Client) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	cands, err := cl.GetCandidates(ctx)
	if err != nil {
		return err
	}
	comm, err := cl.GetCommittee(ctx)
	if err != nil {
		return err
	}
	// Consensus members last; then by votes and key, ascending.
	slices.SortFunc(cands, func(a, b rpcclient.Candidate) int {
		if a.Active != b.Active {
			if a.Active {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.Votes, b.Votes), a.PublicKey.Cmp(&b.PublicKey))
	})
	var buf bytes.Buffer
	buf.WriteString("Key\tVotes\tCommittee\tConsensus\n")
	for _, cand := range cands {
		inComm := slices.ContainsFunc(comm, func(k *keys.PublicKey) bool { return k.Equal(&cand.PublicKey) })
		fmt.Fprintf(&buf, "%s\t%d\t%t\t%t\n", cand.PublicKey.StringCompressed(), cand.Votes, inComm, cand.Active)
	}
	return utilcmd.Tabbed(console.Stdout(c), buf.Bytes(), 2, ' ')
}

func queryCommittee(ctx context.Context, c *cli.Command, cl *rpcclient.Client) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	comm, err := cl.GetCommittee(ctx)
	if err != nil {
		return err
	}
	for _, k := range comm {
		fmt.Fprintln(console.Stdout(c), k.StringCompressed())
	}
	return nil
}

func queryHeight(ctx context.Context, c *cli.Command, cl *rpcclient.Client) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	n, err := cl.GetBlockCount(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(console.Stdout(c), "Latest block: %d\n", n-1)
	var sh result.StateHeight
	if err := cl.Call(ctx, "getstateheight", nil, &sh); err == nil { // a node may not serve it
		fmt.Fprintf(console.Stdout(c), "Validated state: %d\n", sh.Validated)
	}
	return nil
}

func queryVoter(ctx context.Context, c *cli.Command, cl *rpcclient.Client) error {
	switch c.Args().Len() {
	case 0:
		return errors.New("no address specified")
	case 1:
	default:
		return errors.New("this command only accepts one address")
	}
	acc, err := txsend.ParseAddress(c.Args().First())
	if err != nil {
		return fmt.Errorf("wrong address: %s", c.Args().First())
	}
	r, err := cl.InvokeFunction(ctx, nativenames.NeoHash, "getAccountState", []smartcontract.Parameter{smartcontract.NewHash160Parameter(acc)}, nil)
	if err != nil {
		return err
	}
	if err := r.CheckHalt(); err != nil {
		return err
	}
	it, err := r.Item(0)
	if err != nil {
		return err
	}
	var st state.NEOBalance
	if _, null := it.(stackitem.Null); !null {
		if err := st.FromStackItem(it); err != nil {
			return fmt.Errorf("account state: %w", err)
		}
	}
	voted := "null"
	if st.VoteTo != nil {
		voted = fmt.Sprintf("%s (%s)", st.VoteTo.StringCompressed(), address.FromUint160(st.VoteTo.ScriptHash()))
	}
	w := console.Stdout(c)
	fmt.Fprintf(w, "\tVoted: %s\n", voted)
	fmt.Fprintf(w, "\tAmount : %s\n", nep17.FormatAmount(&st.Balance, 0)) // NEO has no decimals
	fmt.Fprintf(w, "\tBlock: %d\n", st.BalanceHeight)
	return nil
}

func queryTx(ctx context.Context, c *cli.Command, cl *rpcclient.Client) error {
	h, err := txsend.TxHashArg(c)
	if err != nil {
		return err
	}
	out, err := cl.GetRawTransactionVerbose(ctx, h)
	if err != nil {
		return err
	}
	var log *rpcclient.ApplicationLog
	if !out.Blockhash.IsZero() {
		if log, err = cl.GetApplicationLog(ctx, h); err != nil {
			return err
		}
	}
	return utilcmd.DumpTx(console.Stdout(c), &out.Transaction, log, &out.Blockhash, c.Bool("verbose"), -1)
}

func queryNotaryPool(ctx context.Context, c *cli.Command, cl *rpcclient.Client) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	n, err := cl.GetBlockCount(ctx)
	if err != nil {
		return err
	}
	w := console.Stdout(c)
	fmt.Fprintf(w, "Current height: %d\n", n)
	var pool struct {
		Hashes map[string][]string `json:"hashes"`
	}
	if err := cl.Call(ctx, "getrawnotarypool", nil, &pool); err != nil {
		return err
	}
	for main, fbs := range pool.Hashes {
		h, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(main, "0x"))
		if err != nil {
			return fmt.Errorf("notary pool hash %q: %w", main, err)
		}
		var raw []byte
		if err := cl.Call(ctx, "getrawnotarytransaction", []any{h.StringLE()}, &raw); err != nil {
			fmt.Fprintf(w, "%s (%d fallbacks): %s\n", h.StringLE(), len(fbs), err)
			continue
		}
		tx, err := transaction.NewTransactionFromBytes(raw)
		if err != nil {
			return err
		}
		if err := utilcmd.DumpTx(w, tx, nil, nil, c.Bool("verbose"), len(fbs)); err != nil {
			return err
		}
	}
	return nil
}

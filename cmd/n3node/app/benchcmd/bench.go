package benchcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/bench/procstat"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/wallet"
)

// Command is `n3node bench`.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "throughput benchmark of any N3 node over JSON-RPC (neo-bench's workload and formulas)",
		Description: `Sends a pre-signed stream of NEP-17 transfers to a node and measures TPS
(transactions in blocks per second of block time), RPS (accepted sends per
second), and, when the node runs on this host, its CPU share and memory.
Writes result.json, summary.md, tps.png and resources.png to --out.
The node must be a fresh chain (the workload's ValidUntilBlock is fixed)
whose committee keys are given (defaults: neo-go's privnet keys).`,
		Flags: append(workloadFlags(),
			&cli.StringSliceFlag{Name: "rpc", Aliases: []string{"a"}, Value: []string{"http://127.0.0.1:30333"},
				Usage: "JSON-RPC endpoint(s); workers are spread over them, the first also serves preparation and block polling"},
			&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: 10, Usage: "concurrent senders"},
			&cli.FloatFlag{Name: "rate", Aliases: []string{"r"}, Usage: "target total tx/s (0: as fast as accepted)"},
			&cli.DurationFlag{Name: "time-limit", Aliases: []string{"z"}, Value: 2 * time.Minute, Usage: "stop sending after this (0: when the workload is used up)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output directory (default bench-<time>)"},
			&cli.StringFlag{Name: "desc", Aliases: []string{"d"}, Usage: "description for the report"},
			&cli.IntFlag{Name: "pid", Usage: "node process to sample (CPU, RSS)"},
			&cli.StringFlag{Name: "pidfile", Usage: "file holding the node's pid"},
			&cli.BoolFlag{Name: "no-stats", Usage: "do not sample the node process (else found by --pid, --pidfile or the RPC port)"},
			&cli.StringSliceFlag{Name: "committee-wif", Usage: "validator keys to fund the sender from (default by validators count: neo-go's 1- or 4-node privnet)"},
			&cli.StringSliceFlag{Name: "committee-wallet", Usage: "NEP-6 wallet(s) holding the validator keys (instead of --committee-wif)"},
			&cli.StringSliceFlag{Name: "committee-password", Value: []string{"one"},
				Usage: "password of --committee-wallet: one for all, or one per wallet in order (neo-go's privnet wallet1..4 use one, two, three, four)"},
			&cli.BoolFlag{Name: "skip-prepare", Usage: "do not fund the sender"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress messages"},
		),
		Action: runBench,
		Commands: []*cli.Command{
			{
				Name:  "gen",
				Usage: "generate (and cache) a workload without a node",
				Flags: append(workloadFlags(),
					&cli.UintFlag{Name: "magic", Value: 56753, Usage: "network magic"}),
				Action: func(ctx context.Context, c *cli.Command) error {
					p, err := workloadParams(c, uint32(c.Uint("magic")), nil)
					if err != nil {
						return err
					}
					start := time.Now()
					w, cached, path, err := bench.LoadOrGenerate(ctx, c.String("cache-dir"), p, nil)
					if err != nil {
						return err
					}
					verb := "generated"
					if cached {
						verb = "found"
					}
					fmt.Fprintf(c.Root().Writer, "%s %d transactions of %d bytes in %.1f s: %s\n", verb, w.Len(), w.TxSize, time.Since(start).Seconds(), path)
					return nil
				},
			},
			{
				Name:      "report",
				Usage:     "recompute and redraw summary.md and the plots of result directories",
				ArgsUsage: "<dir>...",
				Action: func(ctx context.Context, c *cli.Command) error {
					if c.Args().Len() == 0 {
						return errors.New("report needs at least one result directory")
					}
					for _, dir := range c.Args().Slice() {
						r, err := bench.ReadResult(filepath.Join(dir, bench.ResultFile))
						if err != nil {
							return err
						}
						if err := r.Compute(); err != nil {
							return fmt.Errorf("%s: %w", dir, err)
						}
						if err := bench.WriteOutputs(dir, r); err != nil {
							return err
						}
						fmt.Fprintf(c.Root().Writer, "%s: TPS %.1f, RPS %.1f\n", dir, r.TPS.TPS, r.RPS)
					}
					return nil
				},
			},
			{
				Name:      "external",
				Usage:     "measure a node while another client (neo-bench's bench) sends the load",
				ArgsUsage: "-- <client> [client arguments]",
				Description: `Runs the client as a child process and measures the node as "n3node bench"
does: it follows the blocks after the one the client names as its start
("Started test from block = N" in neo-bench's log), samples the node's CPU and
RSS (and the client's CPU), and applies the same TPS formula, so both clients'
runs can be compared with "n3node bench compare". The client's own figures
(its --report file, neo-bench's -o) are kept beside them. E.g.
  n3node bench external -a 127.0.0.1:20331 --report nb.log -o run1 -- \
    neo-bench/cmd/bin/bench -m wrk -w 10 -z 2m -a 127.0.0.1:20331 -i dump.txs -o nb.log --disable-stats`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "rpc", Aliases: []string{"a"}, Value: "http://127.0.0.1:30333", Usage: "JSON-RPC endpoint of the node"},
					&cli.StringFlag{Name: "report", Usage: "the client's report file, read after it exits (neo-bench's -o)"},
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output directory (default bench-<time>)"},
					&cli.StringFlag{Name: "desc", Aliases: []string{"d"}, Usage: "description for the report"},
					&cli.IntFlag{Name: "pid", Usage: "node process to sample (CPU, RSS)"},
					&cli.StringFlag{Name: "pidfile", Usage: "file holding the node's pid"},
					&cli.BoolFlag{Name: "no-stats", Usage: "do not sample the node process (else found by --pid, --pidfile or the RPC port)"},
				},
				Action: runExternal,
			},
			{
				Name:      "compare",
				Usage:     "medians and ratios of several runs per node",
				ArgsUsage: "<name>=<result.json or dir>[,<more>...] ...",
				Description: `Each argument names a node and its runs, e.g.
  n3node bench compare neo-go=runs/neogo-1,runs/neogo-2 n3node=runs/n3node-1
The first node is the base of the ratios.`,
				Action: func(ctx context.Context, c *cli.Command) error {
					if c.Args().Len() == 0 {
						return errors.New("compare needs at least one <name>=<results>")
					}
					var sums []bench.Summary
					for _, arg := range c.Args().Slice() {
						name, list, ok := strings.Cut(arg, "=")
						if !ok || list == "" {
							return fmt.Errorf("%q is not <name>=<results>", arg)
						}
						var runs []*bench.Result
						for _, p := range strings.Split(list, ",") {
							if st, err := os.Stat(p); err == nil && st.IsDir() {
								p = filepath.Join(p, bench.ResultFile)
							}
							r, err := bench.ReadResult(p)
							if err != nil {
								return err
							}
							runs = append(runs, r)
						}
						sums = append(sums, bench.Summarize(name, runs))
					}
					bench.WriteComparison(c.Root().Writer, sums...)
					return nil
				},
			},
		},
	}
}

func workloadFlags() []cli.Flag {
	cache := filepath.Join(os.TempDir(), "n3node-bench")
	if d, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(d, "n3node", "bench")
	}
	return []cli.Flag{
		&cli.IntFlag{Name: "txs", Aliases: []string{"n"}, Value: 1_000_000, Usage: "transactions in the workload"},
		&cli.StringFlag{Name: "token", Aliases: []string{"t"}, Value: "NEO", Usage: "NEP-17 token transferred: NEO, GAS or a contract hash"},
		&cli.StringFlag{Name: "sender-wif", Value: bench.DefaultSenderWIF, Usage: "key that signs the workload (sends to itself)"},
		&cli.UintFlag{Name: "vub", Value: bench.DefaultValidUntilBlock, Usage: "ValidUntilBlock of every transaction"},
		&cli.Int64Flag{Name: "sysfee", Value: bench.DefaultSystemFee, Usage: "system fee per transaction, datoshi"},
		&cli.Int64Flag{Name: "netfee", Value: bench.DefaultNetworkFee, Usage: "network fee per transaction, datoshi"},
		&cli.StringFlag{Name: "cache-dir", Value: cache, Usage: "workload cache directory (empty: no cache)"},
	}
}

func workloadParams(c *cli.Command, magic uint32, natives bench.Natives) (bench.Params, error) {
	token, err := bench.ResolveToken(natives, c.String("token"))
	if err != nil {
		return bench.Params{}, err
	}
	return bench.Params{
		Magic: magic, Token: token, SenderWIF: c.String("sender-wif"), Amount: 1, Count: c.Int("txs"),
		ValidUntilBlock: uint32(c.Uint("vub")), SystemFee: c.Int64("sysfee"), NetworkFee: c.Int64("netfee"),
	}, nil
}

func runBench(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() > 0 {
		return fmt.Errorf("unexpected argument %q (subcommands: gen, report, external, compare)", c.Args().First())
	}
	cfg := bench.Config{
		Endpoints:       c.StringSlice("rpc"),
		Workers:         c.Int("workers"),
		Rate:            c.Float("rate"),
		Count:           c.Int("txs"),
		TimeLimit:       c.Duration("time-limit"),
		Token:           c.String("token"),
		SenderWIF:       c.String("sender-wif"),
		CommitteeWIFs:   c.StringSlice("committee-wif"),
		ValidUntilBlock: uint32(c.Uint("vub")),
		SystemFee:       c.Int64("sysfee"),
		NetworkFee:      c.Int64("netfee"),
		SkipPrepare:     c.Bool("skip-prepare"),
		CacheDir:        c.String("cache-dir"),
		OutDir:          c.String("out"),
		Description:     c.String("desc"),
		Log:             c.Root().ErrWriter,
	}
	if cfg.Log == nil {
		cfg.Log = os.Stderr
	}
	if c.Bool("quiet") {
		cfg.Log = nil
	} else if f, ok := cfg.Log.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			cfg.Progress = true
		}
	}
	if ws := c.StringSlice("committee-wallet"); len(ws) > 0 {
		wifs, err := walletWIFs(ws, c.StringSlice("committee-password"))
		if err != nil {
			return err
		}
		cfg.CommitteeWIFs = append(cfg.CommitteeWIFs, wifs...)
	}
	if cfg.OutDir == "" {
		cfg.OutDir = "bench-" + time.Now().Format("20060102-150405")
	}
	if !c.Bool("no-stats") {
		pid, err := nodePid(c, cfg.Endpoints)
		if err != nil {
			return err
		}
		cfg.Pid = pid
	}
	res, err := bench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	printResult(c.Root().Writer, res, cfg.OutDir)
	return nil
}

func runExternal(ctx context.Context, c *cli.Command) error {
	if c.Args().Len() == 0 {
		return errors.New("external needs the client command after --")
	}
	cfg := bench.ExternalConfig{
		Endpoint:    c.String("rpc"),
		Command:     c.Args().Slice(),
		Report:      c.String("report"),
		OutDir:      c.String("out"),
		Description: c.String("desc"),
		Log:         c.Root().ErrWriter,
	}
	if cfg.Log == nil {
		cfg.Log = os.Stderr
	}
	if cfg.OutDir == "" {
		cfg.OutDir = "bench-" + time.Now().Format("20060102-150405")
	}
	if !c.Bool("no-stats") {
		pid, err := nodePid(c, []string{cfg.Endpoint})
		if err != nil {
			return err
		}
		cfg.Pid = pid
	}
	res, err := bench.RunExternal(ctx, cfg)
	if err != nil {
		return err
	}
	printResult(c.Root().Writer, res, cfg.OutDir)
	return nil
}

// printResult writes a run's headline figures.
func printResult(w io.Writer, res *bench.Result, dir string) {
	fmt.Fprintf(w, "TPS %.1f  RPS %.1f", res.TPS.TPS, res.RPS)
	if res.Resources.Samples > 0 {
		fmt.Fprintf(w, "  CPU %.1f %%  RSS %.1f MiB (max %.1f)", res.Resources.CPUMean, res.Resources.RSSMeanMiB, res.Resources.RSSMaxMiB)
	}
	fmt.Fprintf(w, "  -> %s\n", dir)
}

// walletWIFs returns the distinct keys of the single-signature accounts of
// NEP-6 wallets.
func walletWIFs(paths, passwords []string) ([]string, error) {
	if len(passwords) != 1 && len(passwords) != len(paths) {
		return nil, fmt.Errorf("%d wallets and %d passwords", len(paths), len(passwords))
	}
	seen := make(map[string]bool)
	var wifs []string
	for i, p := range paths {
		password := passwords[min(i, len(passwords)-1)]
		w, err := wallet.NewWalletFromFile(p)
		if err != nil {
			return nil, err
		}
		for _, a := range w.Accounts {
			if !smartcontract.IsSignatureContract(a.GetVerificationScript()) {
				continue
			}
			if err := a.Decrypt(password, w.Scrypt); err != nil {
				return nil, fmt.Errorf("%s: account %s: %w", p, address.FromUint160(a.ScriptHash()), err)
			}
			if wif := a.PrivateKey().WIF(); !seen[wif] {
				seen[wif] = true
				wifs = append(wifs, wif)
			}
			a.Close()
		}
	}
	if len(wifs) == 0 {
		return nil, fmt.Errorf("no single-signature account in %s", strings.Join(paths, ", "))
	}
	return wifs, nil
}

// nodePid finds the node process: --pid, --pidfile, or the process that
// listens on the first endpoint's port when that endpoint is local.
func nodePid(c *cli.Command, endpoints []string) (int, error) {
	if pid := c.Int("pid"); pid > 0 {
		return pid, nil
	}
	if f := c.String("pidfile"); f != "" {
		return procstat.ReadPidfile(f)
	}
	if len(endpoints) == 0 {
		return 0, nil
	}
	e := endpoints[0]
	if !strings.Contains(e, "://") {
		e = "http://" + e
	}
	u, err := url.Parse(e)
	if err != nil {
		return 0, nil
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); !(host == "localhost" || ip != nil && ip.IsLoopback()) {
		return 0, nil // remote node: nothing to sample
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		port = 80
	}
	pid, err := procstat.FindListener(procstat.Proc, port)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: node process not found (%v); CPU and memory will not be sampled\n", err)
		return 0, nil
	}
	return pid, nil
}

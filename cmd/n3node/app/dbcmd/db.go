package dbcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v3"
)

// Command is `n3node db`.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "db",
		Usage: "chain database tools: restore, dump, dump-bin, reset, state",
		Commands: []*cli.Command{
			{
				Name:      "restore",
				Usage:     "import blocks from a chain dump (.acc, C# or neo-go layout)",
				ArgsUsage: "[FILE]",
				Flags: append(dbFlags(),
					&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Usage: "dump `FILE` (as neo-go's -i; standard input when neither it nor FILE is given)"},
					&cli.Uint32Flag{Name: "start", Aliases: []string{"s"}, Usage: "first block `INDEX` to import (default: the block after the database's height; at most that)"},
					&cli.Uint32Flag{Name: "count", Aliases: []string{"c"}, Usage: "import at most `N` blocks"},
					&cli.BoolFlag{Name: "skip-verify", Usage: "do not verify headers and transactions (trusted dumps)"},
					&cli.StringFlag{Name: "dump", Usage: "write the contract-storage changes of every imported block to `DIR` as neo-go does (turns SaveStorageBatch on)"},
					&cli.BoolFlag{Name: "no-progress", Usage: "do not show a progress bar"},
					&cli.IntFlag{Name: "memory-limit", Value: restoreMemoryLimit >> 20, Usage: "soft limit of the Go runtime's memory in `MiB` during the import (debug.SetMemoryLimit; 0: none; GOMEMLIMIT, if set, wins)"},
					&cli.IntFlag{Name: "max-pending-keys", Value: restoreMaxPendingKeys, Usage: "changed keys held in memory above the disk store before block processing waits for a persist (`N`; 0: only the adaptive limit)"},
					&cli.DurationFlag{Name: "persist-interval", Value: restorePersistInterval, Usage: "how often imported state is written to the database (`DURATION`)"},
					&cli.IntFlag{Name: "lookahead", Value: core.DefaultLookahead, Usage: "blocks decoded and checked ahead of execution (`N`)"},
					&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile to `FILE`"},
					&cli.StringFlag{Name: "blockprofile", Usage: "write a goroutine blocking profile to `FILE`"},
					&cli.StringFlag{Name: "memprofile", Usage: "write a heap profile to `FILE` when the import ends (before the final flush)"},
				),
				Action: dbRestore,
			},
			{
				Name:  "dump",
				Usage: "write blocks to a chain dump (neo-go's incremental layout; C#'s with --non-incremental from block 0)",
				Flags: append(dbFlags(),
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `FILE` (default: standard output)"},
					&cli.Uint32Flag{Name: "start", Aliases: []string{"s"}, Usage: "first block `INDEX`"},
					&cli.Uint32Flag{Name: "count", Aliases: []string{"c"}, Usage: "number of blocks (default: up to the height)"},
					&cli.BoolFlag{Name: "non-incremental", Usage: "write the C# layout (no start index before the count; a dump from block 0 only), as neo-go's flag"},
					// The default since the layout became neo-go's; kept for old scripts.
					&cli.BoolFlag{Name: "incremental", Hidden: true},
				),
				Action: dbDump,
			},
			{
				Name:      "dump-bin",
				Usage:     "write each block to DIR/block-<index>.bin (neo-go's dump-bin)",
				UsageText: "n3node db dump-bin -o DIR [--start N] [--count N] [--config FILE | --network NAME]",
				Flags: append(dbFlags(),
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `DIR` (created if missing)"},
					&cli.Uint32Flag{Name: "start", Aliases: []string{"s"}, Usage: "first block `INDEX`"},
					&cli.Uint32Flag{Name: "count", Aliases: []string{"c"}, Usage: "number of blocks (default: up to the height)"},
				),
				Action: dbDumpBin,
			},
			{
				Name:      "reset",
				Usage:     "roll the database back to block HEIGHT (neo-go's db reset; the node must be stopped)",
				UsageText: "n3node db reset --height HEIGHT [--config FILE | --network NAME] [--db ENGINE] [--db-path PATH]",
				Flags: append(dbFlags(),
					&cli.Uint32Flag{Name: "height", Required: true, Usage: "block `HEIGHT` to roll back to (its state becomes the current one)"},
					&cli.BoolFlag{Name: "no-progress", Usage: "do not show a progress bar"},
				),
				Action: dbReset,
			},
			{
				Name:  "state",
				Usage: "print a height's block hash and state root (and an application log) as JSON",
				Flags: append(dbFlags(),
					&cli.Uint32Flag{Name: "height", Usage: "block `HEIGHT` (default: the database's height)"},
					&cli.StringFlag{Name: "log", Usage: "also print the application log of the transaction or block `HASH`"},
				),
				Action: dbState,
			},
		},
	}
}

// The import's memory settings (docs/ledger.md, "Memory"): a soft limit of
// the Go runtime's memory, a cap on the changed keys held above the disk
// store and the persist interval (with the blocks chaindump.Restore reads
// ahead and the chain's lookahead). With the storage package's Pebble
// defaults they keep the peak RSS of a restore under neo-go's on the
// benchmark dump (docs/perf.md, "Ledger"). Persists of at most 32 k keys
// (about 8 MB) stay below half a Pebble memtable, so Pebble copies them
// into the memtable instead of flushing each as a table of its own; they
// also keep the live heap near 30 MB, which is what lets the memory limit
// be low.
const (
	restoreMemoryLimit     = 64 << 20
	restoreMaxPendingKeys  = 32 << 10
	restorePersistInterval = 500 * time.Millisecond
)

// dbRestore parses the flags, opens the dump and the chain, and runs
// chaindump.Restore with a progress bar, profiles and a summary line.
func dbRestore(ctx context.Context, c *cli.Command) (err error) {
	file := c.String("in")
	switch {
	case c.Args().Len() > 1 || c.Args().Len() == 1 && file != "":
		return errors.New("restore takes one dump: n3node db restore [FILE | -i FILE] (standard input without either)")
	case c.Args().Len() == 1:
		file = c.Args().First()
	}
	if p := c.String("cpuprofile"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() {
			pprof.StopCPUProfile()
			_ = f.Close()
		}()
	}
	if p := c.String("blockprofile"); p != "" {
		runtime.SetBlockProfileRate(10000)
		defer func() {
			if f, err := os.Create(p); err == nil {
				_ = pprof.Lookup("block").WriteTo(f, 0)
				_ = f.Close()
			}
		}()
	}
	in := io.Reader(console.Stdin(c))
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	r, err := chaindump.NewReader(in)
	if err != nil {
		return err
	}
	if m := c.Int("memory-limit"); m > 0 && os.Getenv("GOMEMLIMIT") == "" {
		old := debug.SetMemoryLimit(int64(m) << 20)
		defer debug.SetMemoryLimit(old)
	}
	skipVerify := c.Bool("skip-verify")
	dumpDir := c.String("dump")
	bc, _, err := openChain(c, func(cfg *config.Blockchain) {
		if skipVerify {
			cfg.SkipBlockVerification = true
		}
		if dumpDir != "" {
			cfg.SaveStorageBatch = true
		}
	}, core.Options{
		MaxPendingKeys:  c.Int("max-pending-keys"),
		PersistInterval: c.Duration("persist-interval"),
		Lookahead:       c.Int("lookahead"),
	})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, bc.Close()) }()

	height := bc.BlockHeight()
	if c.IsSet("start") {
		if s, want := c.Uint32("start"), height+1; s > want {
			return fmt.Errorf("--start %d is above the database's next block %d (the chain would have a gap)", s, want)
		}
	}
	limit := c.Uint32("count")
	out := console.Stderr(c)

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	showBar := !c.Bool("no-progress") && console.IsTerminal(out)
	barTotal := int64(r.Remaining())
	if limit != 0 {
		barTotal = min(int64(limit), barTotal)
	}
	bar := progressbar.NewOptions64(barTotal,
		progressbar.OptionSetWriter(out),
		progressbar.OptionSetVisibility(showBar),
		progressbar.OptionSetDescription("restoring"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("blocks"),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
	)
	start := time.Now()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = bar.Set64(int64(bc.BlockHeight() - height))
			}
		}
	}()
	opts := chaindump.RestoreOptions{Count: limit, StateRootInHeader: bc.Config().StateRootInHeader}
	if dumpDir != "" {
		opts.Added, err = storageDumper(bc, dumpDir)
		if err != nil {
			return err
		}
	}
	rErr := chaindump.Restore(ctx, bc, r, opts)
	if dumpDir != "" {
		rErr = errors.Join(rErr, opts.Added(nil))
	}
	close(done)
	if p := c.String("memprofile"); p != "" {
		if f, err := os.Create(p); err == nil {
			runtime.GC()
			_ = pprof.WriteHeapProfile(f)
			_ = f.Close()
		}
	}
	_ = bar.Set64(int64(bc.BlockHeight() - height))
	_ = bar.Finish()
	if showBar {
		fmt.Fprintln(out)
	}
	n := bc.BlockHeight() - height
	el := time.Since(start)
	fmt.Fprintf(out, "imported %d blocks in %s (%.0f blocks/s); height %d, state root %s\n",
		n, el.Round(time.Millisecond), float64(n)/max(el.Seconds(), 1e-9), bc.BlockHeight(), bc.StateModule().CurrentLocalStateRoot().StringLE())
	if c.Bool("debug") {
		ps := bc.PipelineStats()
		fmt.Fprintf(out, "pipeline: %+v\n", ps)
		keys, persists, vel := bc.PersistStats()
		fmt.Fprintf(out, "persisted %d keys in %d persists, disk speed %d keys/interval\n", keys, persists, vel)
	}
	if ctx.Err() != nil && errors.Is(rErr, context.Canceled) {
		return fmt.Errorf("interrupted at height %d; run the same command to continue", bc.BlockHeight())
	}
	return rErr
}

// dumpBlocks opens the chain of c's flags and hands the blocks --start and
// --count select (by default from 0, or --start, up to the height) to put,
// after telling begin the range.
func dumpBlocks(c *cli.Command, begin func(start, count uint32) error, put func(i uint32, raw []byte) error) (err error) {
	bc, _, err := openChain(c, nil, core.Options{})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, bc.Close()) }()
	height := bc.BlockHeight()
	start := c.Uint32("start")
	if start > height {
		return fmt.Errorf("--start %d is above the height %d", start, height)
	}
	count := height - start + 1
	if c.IsSet("count") {
		cnt := c.Uint32("count")
		if uint64(start)+uint64(cnt) > uint64(height)+1 {
			return fmt.Errorf("the database has blocks up to %d, cannot dump %d from %d", height, cnt, start)
		}
		count = cnt
	}
	if err := begin(start, count); err != nil {
		return err
	}
	for i := start; i < start+count; i++ {
		b, err := bc.GetBlockByIndex(i)
		if err != nil {
			return fmt.Errorf("failed to get block %d: %w", i, err)
		}
		if err := put(i, b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// dbDumpBin writes each block to DIR/block-<index>.bin, its serialized
// form (neo-go's db dump-bin, the layout its NeoFS uploader reads).
func dbDumpBin(_ context.Context, c *cli.Command) error {
	dir := c.String("out")
	if dir == "" {
		return errors.New("output directory is not specified")
	}
	return dumpBlocks(c, func(uint32, uint32) error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("failed to create directory %s: %w", dir, err)
		}
		return nil
	}, func(i uint32, raw []byte) error {
		path := filepath.Join(dir, fmt.Sprintf("block-%d.bin", i))
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			return fmt.Errorf("failed to save block %d to file %s: %w", i, path, err)
		}
		return nil
	})
}

// dbDump writes a chain dump in neo-go's (incremental) layout, the start
// index before the count, as neo-go 0.120.0 does by default; C#'s layout
// (count only) with --non-incremental for a dump from block 0.
func dbDump(_ context.Context, c *cli.Command) (err error) {
	var w io.Writer = c.Root().Writer
	if w == nil {
		w = os.Stdout
	}
	var (
		f  *os.File // --out, created once the range is known to be valid
		dw *chaindump.Writer
	)
	defer func() {
		if f != nil {
			err = errors.Join(err, f.Close())
		}
	}()
	err = dumpBlocks(c, func(start, count uint32) error {
		if p := c.String("out"); p != "" {
			var err error
			if f, err = os.Create(p); err != nil {
				return err
			}
			w = f
		}
		var err error
		dw, err = chaindump.NewWriter(w, start, count, !c.Bool("non-incremental") || start != 0)
		return err
	}, func(_ uint32, raw []byte) error { return dw.WriteBlock(raw) })
	if err != nil {
		return err
	}
	return dw.Close()
}

// stateOutput is what db state prints.
type stateOutput struct {
	Height    uint32          `json:"height"`
	Hash      hash.Uint256    `json:"hash"`
	StateRoot any             `json:"stateroot"`
	Log       json.RawMessage `json:"applicationlog,omitempty"`
}

func dbState(_ context.Context, c *cli.Command) (err error) {
	bc, _, err := openChain(c, nil, core.Options{})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, bc.Close()) }()
	h := bc.BlockHeight()
	if c.IsSet("height") {
		h = c.Uint32("height")
	}
	if h > bc.BlockHeight() {
		return fmt.Errorf("height %d is above the database's height %d", h, bc.BlockHeight())
	}
	sr, err := bc.GetStateRoot(h)
	if err != nil {
		return err
	}
	out := stateOutput{Height: h, Hash: bc.GetHeaderHash(h), StateRoot: sr}
	if s := c.String("log"); s != "" {
		lh, err := hash.Uint256DecodeStringLE(trim0x(s))
		if err != nil {
			return fmt.Errorf("--log: %w", err)
		}
		if out.Log, err = applicationLog(bc, lh); err != nil {
			return err
		}
	}
	w := c.Root().Writer
	if w == nil {
		w = os.Stdout
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func trim0x(s string) string {
	if len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X") {
		return s[2:]
	}
	return s
}

// applicationLog returns neo-go's getapplicationlog form for a block or
// transaction hash.
func applicationLog(bc *core.Blockchain, h hash.Uint256) (json.RawMessage, error) {
	aers, err := bc.GetAppExecResults(h, trigger.All)
	if err != nil {
		return nil, err
	}
	return json.Marshal(result.NewApplicationLog(h, aers, trigger.All))
}

// dbReset rolls the database back to --height (core.Blockchain.Reset),
// with a progress bar per step on a terminal.
func dbReset(_ context.Context, c *cli.Command) (err error) {
	if c.Args().Len() != 0 {
		return fmt.Errorf("reset takes no arguments (got %q)", c.Args().Slice())
	}
	h := c.Uint32("height")
	bc, _, err := openChain(c, nil, core.Options{})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, bc.Close()) }()
	out := console.Stderr(c)
	showBar := !c.Bool("no-progress") && console.IsTerminal(out)
	var (
		bar  *progressbar.ProgressBar
		step string
	)
	progress := func(s string, done, total int) {
		if s != step || bar == nil {
			if bar != nil {
				_ = bar.Finish()
				fmt.Fprintln(out)
			}
			step = s
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(out),
				progressbar.OptionSetVisibility(showBar),
				progressbar.OptionSetDescription("reset: "+resetSteps[s]),
				progressbar.OptionShowCount(),
				progressbar.OptionThrottle(200*time.Millisecond),
			)
		}
		_ = bar.Set(done)
	}
	from := bc.BlockHeight()
	start := time.Now()
	rErr := bc.Reset(h, progress)
	if bar != nil {
		_ = bar.Finish()
		if showBar {
			fmt.Fprintln(out)
		}
	}
	if rErr != nil {
		return fmt.Errorf("failed to reset chain state to height %d: %w", h, rErr)
	}
	fmt.Fprintf(out, "reset from height %d to %d in %s; state root %s\n",
		from, bc.BlockHeight(), time.Since(start).Round(time.Millisecond), bc.StateModule().CurrentLocalStateRoot().StringLE())
	return nil
}

// resetSteps describe the steps core.ResetProgress names.
var resetSteps = map[string]string{
	"storage": "contract storage of the target height",
	"blocks":  "blocks above it",
	"headers": "headers, state roots, transfers",
	"swap":    "replacing the storage",
}

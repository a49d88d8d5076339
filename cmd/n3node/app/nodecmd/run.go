package nodecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/n3node/n3node/cmd/n3node/app/neogocfg"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/node"
	"github.com/n3node/n3node/pkg/node/memlimit"
	"github.com/urfave/cli/v3"
)

// Exit codes of `n3node run` besides 0 (clean shutdown) and 1 (an error,
// printed by main).
const (
	// exitForced: a second signal ended the process before the shutdown
	// finished (the database is consistent, but blocks accepted since
	// the last write to disk are lost).
	exitForced = 2
)

// duplicateSignalWindow: a signal this soon after the first one is taken
// for a copy of it, not a request to exit at once.
const duplicateSignalWindow = time.Second

// shutdownTimeout bounds the wait for RPC requests in flight; the chain
// is closed (everything persisted) whatever happens.
const shutdownTimeout = 30 * time.Second

// Command is `n3node run`; version is what the node reports (getversion
// and the P2P user agent).
func Command(version string) *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "run a node (with no flags: a single-node private network from embedded defaults)",
		Description: `With no flags, n3node run starts the embedded single-node private network
(magic 56753, one validator with neo-go's well-known privnet key, 1-second
blocks) with its database under ./data/privnet, P2P on 127.0.0.1:20333 and
JSON-RPC on 127.0.0.1:30333. --config reads a neo-go style configuration,
--network picks an embedded one (mainnet, testnet, privnet, privnet4 with
--node N, unit_testnet, ...). SIGINT or SIGTERM stops the node cleanly
(everything persisted); a second signal exits at once. SIGHUP re-reads the
configuration and applies its log level, RPC, Prometheus and Pprof sections;
SIGUSR1 its Oracle, P2PNotary and StateRoot sections, SIGUSR2 its Consensus
section (as neo-go; other changes are refused with a warning). With
NOTIFY_SOCKET set, systemd is told READY=1, RELOADING=1 and STOPPING=1.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "neo-go style configuration `FILE`"},
			&cli.StringFlag{Name: "network", Aliases: []string{"n"}, Usage: "embedded network `NAME`: " + strings.Join(runNetworks(), ", ") + " (default privnet)"},
			&cli.IntFlag{Name: "node", Usage: "node `N` (1-4) of the 4-node private network (--network privnet4)"},
			&cli.StringFlag{Name: "relative-path", Usage: "resolve the configuration's relative paths against `DIR`"},
			&cli.StringFlag{Name: "data", Aliases: []string{"d"}, Usage: "database `DIR` (overrides the configuration; BoltDB uses DIR/chain.bolt)"},
			&cli.StringFlag{Name: "db", Usage: "database `ENGINE`: pebble, leveldb, boltdb or inmemory"},
			&cli.StringFlag{Name: "rpc", Usage: "JSON-RPC listen `ADDR` (host:port; enables RPC)"},
			&cli.StringFlag{Name: "p2p", Usage: "P2P listen `ADDR` ([host]:port[:announcedPort])"},
			&cli.BoolFlag{Name: "debug", Usage: "log at debug level"},
			&cli.IntFlag{Name: "memory-limit", Usage: "soft limit of the Go runtime's memory in `MiB` (debug.SetMemoryLimit; 0: none; default: the configuration's MemoryLimitMiB, else derived from it; GOMEMLIMIT or GOGC, if set, win)"},
			&cli.StringFlag{Name: "statesync-root", Usage: "trusted state root `INDEX:ROOTHASH` of the state sync point (getstateroot INDEX on a node you trust; needs P2PStateExchangeExtensions and RemoveUntraceableBlocks)"},
		},
		Action: func(ctx context.Context, c *cli.Command) error { return runNode(ctx, c, version) },
	}
}

// NeoGoCommand is `n3node node`: `run` under neo-go's name and with neo-go's
// configuration flags (--config-path, --config-file, -p/-m/-t/--unittest,
// -d for --debug), so that scripts written for `neo-go node` work.
func NeoGoCommand(version string) *cli.Command {
	return &cli.Command{
		Name:  "node",
		Usage: "run a node (neo-go's flags; same as run)",
		Description: `The node as neo-go starts it: the configuration is --config-file, or
protocol.<net>.yml in --config-path (default ./config) for the network chosen
with -p (privnet, the default), -m (mainnet), -t (testnet) or --unittest
(unit_testnet). Without --config-path and with no such file in ./config, the
embedded configuration of that network is used (as "n3node run --network").
Everything else is as "n3node run".`,
		Flags: append(neogocfg.Flags(),
			&cli.BoolFlag{Name: "debug", Aliases: []string{"d"}, Usage: "log at debug level"},
			&cli.StringFlag{Name: "relative-path", Usage: "resolve the configuration's relative paths against `DIR`"},
			&cli.StringFlag{Name: "data", Usage: "database `DIR` (overrides the configuration)"},
			&cli.StringFlag{Name: "db", Usage: "database `ENGINE`: pebble, leveldb, boltdb or inmemory"},
			&cli.StringFlag{Name: "rpc", Usage: "JSON-RPC listen `ADDR` (enables RPC)"},
			&cli.StringFlag{Name: "p2p", Usage: "P2P listen `ADDR`"},
			&cli.IntFlag{Name: "memory-limit", Usage: "soft limit of the Go runtime's memory in `MiB` (0: none; default from the configuration)"},
			&cli.StringFlag{Name: "statesync-root", Usage: "trusted state root `INDEX:ROOTHASH` of the state sync point"},
		),
		Action: func(ctx context.Context, c *cli.Command) error { return runNode(ctx, c, version) },
	}
}

// runNetworks lists the names --network takes.
func runNetworks() []string {
	var out []string
	for _, n := range config.Networks() {
		if strings.HasPrefix(n, "privnet4-") {
			continue
		}
		out = append(out, n)
	}
	return append(out, "privnet4")
}

// runConfig builds the configuration the flags describe.
func runConfig(c *cli.Command) (config.Config, error) {
	file, network := c.String("config"), c.String("network")
	var (
		cfg config.Config
		err error
	)
	if c.Name == "node" {
		if file, network, err = neogocfg.Source(c); err != nil {
			return cfg, err
		}
	}
	switch {
	case file != "" && network != "":
		return cfg, errors.New("--config and --network are exclusive")
	case file != "":
		cfg, err = config.Load(file)
	default:
		if network == "" {
			network = config.DefaultNetwork
		}
		if network == "privnet4" {
			i := c.Int("node")
			if i < 1 || i > 4 {
				return cfg, errors.New("--network privnet4 needs --node 1, 2, 3 or 4")
			}
			network = fmt.Sprintf("privnet4-%d", i)
		} else if c.IsSet("node") {
			return cfg, errors.New("--node applies to --network privnet4 only")
		}
		cfg, err = config.LoadNetwork(network)
	}
	if err != nil {
		return cfg, err
	}
	if base := c.String("relative-path"); base != "" {
		cfg.ResolveRelativePaths(base)
	}
	if c.IsSet("data") || c.IsSet("db") {
		if err := node.SetDatabase(&cfg, c.String("db"), c.String("data")); err != nil {
			return cfg, err
		}
	}
	app := &cfg.ApplicationConfiguration
	if a := c.String("rpc"); a != "" {
		app.RPC.Enabled = true
		app.RPC.Addresses = []string{a}
	}
	if a := c.String("p2p"); a != "" {
		app.P2P.Addresses = []string{a}
	}
	if c.Bool("debug") {
		app.LogLevel = "debug"
	}
	return cfg, nil
}

// newLogger makes the node's logger from the Logger settings: level,
// console (text) or json encoding, stderr or LogPath, timestamps (by
// default on, except on a terminal). The level is a LevelVar, which a
// configuration reload changes.
func newLogger(l config.Logger, stderr *os.File) (*slog.Logger, *slog.LevelVar, io.Closer, error) {
	level := new(slog.LevelVar)
	if l.LogLevel != "" {
		lv, err := parseLevel(l.LogLevel)
		if err != nil {
			return nil, nil, nil, err
		}
		level.Set(lv)
	}
	out, closer := io.Writer(stderr), io.Closer(nil)
	stamps := true
	if l.LogPath != "" {
		f, err := os.OpenFile(l.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("log file: %w", err)
		}
		out, closer = f, f
	} else if fi, err := stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		stamps = false
	}
	if l.LogTimestamp != nil {
		stamps = *l.LogTimestamp
	}
	opts := &slog.HandlerOptions{Level: level}
	if !stamps {
		opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
	}
	var h slog.Handler
	if l.LogEncoding == "json" {
		h = slog.NewJSONHandler(out, opts)
	} else {
		h = slog.NewTextHandler(out, opts)
	}
	return slog.New(h), level, closer, nil
}

// parseLevel reads a LogLevel setting (debug, info, warn, error).
func parseLevel(s string) (slog.Level, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("LogLevel %q: %w", s, err)
	}
	return level, nil
}

func runNode(ctx context.Context, c *cli.Command, version string) error {
	if c.Args().Len() != 0 {
		return fmt.Errorf("run takes no arguments (got %q)", c.Args().Slice())
	}
	cfg, err := runConfig(c)
	if err != nil {
		return err
	}
	sopts, err := runServiceOptions(c, &cfg)
	if err != nil {
		return err
	}
	limit, err := runMemoryLimit(c, &cfg, os.Getenv)
	if err != nil {
		return err
	}
	log, level, closer, err := newLogger(cfg.ApplicationConfiguration.Logger, os.Stderr)
	if err != nil {
		return err
	}
	if closer != nil {
		defer closer.Close()
	}
	limit.Apply()
	log.Info("go memory limit", limit.LogAttrs()...)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	rl := &reloader{
		signals: make(chan os.Signal, 1),
		config:  func() (config.Config, error) { return runConfig(c) },
		level:   level,
	}
	if c.Bool("debug") {
		rl.level = nil // --debug wins over the configuration, as in neo-go
	}
	signal.Notify(rl.signals, reloadSignals...)
	defer signal.Stop(rl.signals)
	return serve(ctx, &cfg, node.Options{Logger: log, Version: version, ServiceOptions: sopts}, sigs, rl, func() { os.Exit(exitForced) })
}

// runMemoryLimit chooses the node's Go memory limit from --memory-limit
// (when given), the configuration and the environment (package memlimit).
func runMemoryLimit(c *cli.Command, cfg *config.Config, getenv func(string) string) (memlimit.Choice, error) {
	var flag *int
	if c.IsSet("memory-limit") {
		m := c.Int("memory-limit")
		flag = &m
	}
	return memlimit.FromConfig(cfg, flag, getenv)
}

// runServiceOptions reads the service flags (--statesync-root) and checks
// them against the configuration: a trusted root is refused on a node
// that does not sync state (node.ErrStateSyncRoot).
func runServiceOptions(c *cli.Command, cfg *config.Config) (node.ServiceOptions, error) {
	var o node.ServiceOptions
	s := c.String("statesync-root")
	if s == "" {
		return o, nil
	}
	r, err := node.ParseTrustedRoot(s)
	if err != nil {
		return o, fmt.Errorf("--statesync-root: %w", err)
	}
	bc, err := cfg.Blockchain()
	if err != nil {
		return o, err
	}
	if !bc.P2PStateExchangeExtensions || !bc.RemoveUntraceableBlocks {
		return o, fmt.Errorf("--statesync-root: %w (the configuration has P2PStateExchangeExtensions %v, RemoveUntraceableBlocks %v)",
			node.ErrStateSyncRoot, bc.P2PStateExchangeExtensions, bc.RemoveUntraceableBlocks)
	}
	if r.Index%uint32(bc.StateSyncInterval) != 0 {
		return o, fmt.Errorf("--statesync-root: index %d is not a state sync point (a multiple of StateSyncInterval %d)", r.Index, bc.StateSyncInterval)
	}
	o.StateSyncRoot = &r
	return o, nil
}

// serve runs a node until ctx ends, a stop signal arrives on sigs or a
// reload fails, then shuts it down; a second stop signal calls forceExit.
// rl (may be nil) handles the reload signals. systemd hears of the start,
// reloads and the stop (sd_notify). opts.Logger must be set.
func serve(ctx context.Context, cfg *config.Config, opts node.Options, sigs <-chan os.Signal, rl *reloader, forceExit func()) error {
	log := opts.Logger
	n, err := node.New(cfg, opts)
	if err != nil {
		return err
	}
	if err := n.Start(ctx); err != nil {
		_ = n.Shutdown(context.Background())
		return err
	}
	notifySystemd(log, sdReady)
	var (
		first     time.Time
		reloadErr error
		reloads   <-chan os.Signal
	)
	if rl != nil {
		reloads = rl.signals
	}
wait:
	for {
		select {
		case s := <-sigs:
			first = time.Now()
			log.Info("signal received, shutting down (send it again to exit at once)", "signal", s.String())
			break wait
		case <-ctx.Done():
			log.Info("shutting down", "reason", ctx.Err())
			break wait
		case s := <-reloads:
			if reloadErr = rl.reload(ctx, n, s, log); reloadErr != nil {
				log.Error("reload failed, shutting down", "err", reloadErr)
				break wait
			}
		case <-n.Chain().Failed(): // the chain logged why (core.ErrReadFailed)
			notifySystemd(log, sdStopping)
			sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
			defer cancel()
			return errors.Join(n.Chain().ReadErr(), n.Shutdown(sctx))
		}
	}
	notifySystemd(log, sdStopping)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sigs:
				// The same signal often arrives twice at once (sent to the
				// process and to its group, as timeout(1) does).
				if time.Since(first) < duplicateSignalWindow {
					continue
				}
				log.Error("second signal: exiting without finishing the shutdown", "signal", s.String())
				forceExit()
				return
			case <-done:
				return
			}
		}
	}()
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	return errors.Join(reloadErr, n.Shutdown(sctx))
}

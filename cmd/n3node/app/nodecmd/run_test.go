package nodecmd

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/node"
	"github.com/n3node/n3node/pkg/node/memlimit"
	"github.com/urfave/cli/v3"
)

// parseRun runs `n3node run ARGS` up to the configuration.
func parseRun(t *testing.T, args ...string) (config.Config, error) {
	t.Helper()
	var (
		cfg config.Config
		err error
	)
	cmd := Command("test")
	cmd.Action = func(_ context.Context, c *cli.Command) error {
		cfg, err = runConfig(c)
		return nil
	}
	if rerr := cmd.Run(context.Background(), append([]string{"run"}, args...)); rerr != nil {
		t.Fatal(rerr)
	}
	return cfg, err
}

func TestRunConfig(t *testing.T) {
	cfg, err := parseRun(t)
	if err != nil {
		t.Fatal(err)
	}
	app := cfg.ApplicationConfiguration
	if cfg.ProtocolConfiguration.Magic != 56753 || app.DBConfiguration.Path() != "./data/privnet" ||
		app.RPC.Addresses[0] != "127.0.0.1:30333" || !app.RPC.Enabled || !app.Consensus.Enabled ||
		cfg.ProtocolConfiguration.TimePerBlock != time.Second {
		t.Fatalf("default configuration: %+v", cfg)
	}

	dir := t.TempDir()
	cfg, err = parseRun(t, "--data", dir, "--rpc", "127.0.0.1:1234", "--p2p", "127.0.0.1:0", "--debug")
	if err != nil {
		t.Fatal(err)
	}
	app = cfg.ApplicationConfiguration
	if app.DBConfiguration.Type != config.DBPebbleDB || app.DBConfiguration.Path() != dir ||
		app.RPC.Addresses[0] != "127.0.0.1:1234" || app.P2P.Addresses[0] != "127.0.0.1:0" || app.LogLevel != "debug" {
		t.Fatalf("overrides: %+v", app)
	}

	cfg, err = parseRun(t, "--db", "boltdb", "--data", dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.ApplicationConfiguration.DBConfiguration; d.Type != config.DBBoltDB || d.Path() != filepath.Join(dir, "chain.bolt") {
		t.Fatalf("bolt: %+v", d)
	}

	cfg, err = parseRun(t, "--network", "privnet4", "--node", "3")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ApplicationConfiguration.RPC.Addresses[0] != "127.0.0.1:30335" || len(cfg.ProtocolConfiguration.StandbyCommittee) != 4 {
		t.Fatalf("privnet4 node 3: %+v", cfg.ApplicationConfiguration.RPC)
	}
	cfg, err = parseRun(t, "--network", "mainnet")
	if err != nil || cfg.ProtocolConfiguration.Magic != 860833102 {
		t.Fatalf("mainnet: %v %d", err, cfg.ProtocolConfiguration.Magic)
	}

	file := filepath.Join(t.TempDir(), "protocol.yml")
	data, err := config.EmbeddedConfig("privnet")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = parseRun(t, "--config", file, "--relative-path", "/base")
	if err != nil || cfg.ApplicationConfiguration.DBConfiguration.Path() != "/base/data/privnet" {
		t.Fatalf("config file: %v %q", err, cfg.ApplicationConfiguration.DBConfiguration.Path())
	}

	for _, args := range [][]string{
		{"--network", "privnet4"},
		{"--network", "privnet4", "--node", "5"},
		{"--node", "2"},
		{"--network", "nowhere"},
		{"--config", file, "--network", "privnet"},
		{"--config", filepath.Join(dir, "missing.yml")},
		{"--db", "sqlite"},
	} {
		if _, err := parseRun(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

func TestNewLogger(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	off := false
	log, _, closer, err := newLogger(config.Logger{LogEncoding: "json", LogLevel: "warn", LogTimestamp: &off}, f)
	if err != nil || closer != nil {
		t.Fatal(err, closer)
	}
	log.Info("hidden")
	log.Warn("shown", "k", 1)
	b, _ := os.ReadFile(f.Name())
	if string(b) != `{"level":"WARN","msg":"shown","k":1}`+"\n" {
		t.Fatalf("log: %q", b)
	}
	if _, _, _, err := newLogger(config.Logger{LogLevel: "loud"}, f); err == nil {
		t.Fatal("bad level accepted")
	}
	path := filepath.Join(t.TempDir(), "node.log")
	log, _, closer, err = newLogger(config.Logger{LogPath: path}, f)
	if err != nil || closer == nil {
		t.Fatal(err)
	}
	log.Info("to file")
	closer.Close()
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "time=") || !strings.Contains(string(b), "to file") {
		t.Fatalf("log file: %q", b)
	}
}

// TestServeSignals runs a node in-process and stops it with a signal
// (and a duplicate of it, which must not force the exit).
func TestServeSignals(t *testing.T) {
	cfg, err := parseRun(t, "--data", t.TempDir(), "--rpc", "127.0.0.1:0", "--p2p", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sigs := make(chan os.Signal, 2)
	forced := false
	done := make(chan error, 1)
	go func() {
		done <- serve(context.Background(), &cfg, node.Options{Logger: slog.New(slog.DiscardHandler)}, sigs, nil, func() { forced = true })
	}()
	time.Sleep(200 * time.Millisecond)
	sigs <- os.Interrupt
	sigs <- os.Interrupt
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if forced {
		t.Fatal("a duplicate signal forced the exit")
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- serve(ctx, &cfg, node.Options{Logger: slog.New(slog.DiscardHandler)}, nil, nil, func() {})
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// parseServiceOptions runs `n3node run ARGS` up to the service options of
// cfg (the configuration the flags would give, adjusted by the test).
func parseServiceOptions(t *testing.T, cfg config.Config, args ...string) (node.ServiceOptions, error) {
	t.Helper()
	var (
		o   node.ServiceOptions
		err error
	)
	cmd := Command("test")
	cmd.Action = func(_ context.Context, c *cli.Command) error {
		o, err = runServiceOptions(c, &cfg)
		return nil
	}
	if rerr := cmd.Run(context.Background(), append([]string{"run"}, args...)); rerr != nil {
		t.Fatal(rerr)
	}
	return o, err
}

// TestStateSyncRootFlag: --statesync-root INDEX:ROOTHASH becomes the
// node's trusted root on a state-syncing configuration; it is refused
// (node.ErrStateSyncRoot) without the state sync settings, malformed, or
// off the sync points.
func TestStateSyncRootFlag(t *testing.T) {
	plain, err := config.LoadNetwork(config.DefaultNetwork)
	if err != nil {
		t.Fatal(err)
	}
	syncing := plain
	syncing.ProtocolConfiguration.P2PStateExchangeExtensions = true
	syncing.ProtocolConfiguration.StateRootInHeader = true
	syncing.ProtocolConfiguration.StateSyncInterval = 100
	syncing.ApplicationConfiguration.RemoveUntraceableBlocks = true
	const root = "0x2d4e34b8e0a5b8d2f8a1c3c4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718"

	o, err := parseServiceOptions(t, syncing)
	if err != nil || o.StateSyncRoot != nil {
		t.Fatalf("no flag: %+v, %v", o, err)
	}
	for _, arg := range []string{"300:" + root, "300:" + root[2:]} {
		o, err = parseServiceOptions(t, syncing, "--statesync-root", arg)
		if err != nil || o.StateSyncRoot == nil || o.StateSyncRoot.Index != 300 || "0x"+o.StateSyncRoot.Root.StringLE() != root {
			t.Fatalf("%s: %+v, %v", arg, o.StateSyncRoot, err)
		}
	}

	_, err = parseServiceOptions(t, plain, "--statesync-root", "300:"+root)
	if !errors.Is(err, node.ErrStateSyncRoot) {
		t.Fatalf("without state sync: %v", err)
	}
	t.Logf("without state sync: %v", err)
	for _, arg := range []string{"300", "x:" + root, "300:00", "-1:" + root, "250:" + root} {
		if _, err := parseServiceOptions(t, syncing, "--statesync-root", arg); err == nil {
			t.Errorf("%q: no error", arg)
		}
	}
}

// TestMemoryLimitFlag: --memory-limit MiB wins over the configuration
// (0: none), a negative value is refused, GOMEMLIMIT and GOGC win over
// both, and without the flag the limit is MemoryLimitMiB or derived.
func TestMemoryLimitFlag(t *testing.T) {
	parse := func(env, cfgMiB string, args ...string) (memlimit.Choice, error) {
		t.Helper()
		var (
			ch  memlimit.Choice
			err error
		)
		cmd := Command("test")
		cmd.Action = func(_ context.Context, c *cli.Command) error {
			cfg, cerr := runConfig(c)
			if cerr != nil {
				t.Fatal(cerr)
			}
			if cfgMiB != "" {
				cfg.ApplicationConfiguration.MemoryLimitMiB, _ = strconv.Atoi(cfgMiB)
			}
			ch, err = runMemoryLimit(c, &cfg, func(k string) string {
				if k == "GOMEMLIMIT" {
					return env
				}
				return ""
			})
			return nil
		}
		if rerr := cmd.Run(context.Background(), append([]string{"run"}, args...)); rerr != nil {
			t.Fatal(rerr)
		}
		return ch, err
	}
	for _, tc := range []struct {
		name, env, cfg string
		args           []string
		limit          int64
		src            memlimit.Source
	}{
		{"configured", "", "300", nil, 300 << 20, memlimit.SourceConfig},
		{"flag", "", "300", []string{"--memory-limit", "96"}, 96 << 20, memlimit.SourceFlag},
		{"flag 0", "", "300", []string{"--memory-limit", "0"}, 0, memlimit.SourceOff},
		{"GOMEMLIMIT", "200MiB", "", []string{"--memory-limit", "96"}, 0, memlimit.SourceEnv},
	} {
		ch, err := parse(tc.env, tc.cfg, tc.args...)
		if err != nil || ch.Limit != tc.limit || ch.Source != tc.src {
			t.Errorf("%s: %d from %s, %v; want %d from %s", tc.name, ch.Limit, ch.Source, err, tc.limit, tc.src)
		}
	}
	if ch, err := parse("", ""); err != nil || ch.Source != memlimit.SourceAuto || ch.Limit <= memlimit.AutoBase {
		t.Errorf("default: %d from %s, %v", ch.Limit, ch.Source, err)
	}
	if _, err := parse("", "", "--memory-limit", "-1"); err == nil {
		t.Error("-1: no error")
	}
}

// parseNode is parseRun for `n3node node` (neo-go's flags).
func parseNode(t *testing.T, args ...string) (config.Config, error) {
	t.Helper()
	var (
		cfg config.Config
		err error
	)
	cmd := NeoGoCommand("test")
	cmd.Action = func(_ context.Context, c *cli.Command) error {
		cfg, err = runConfig(c)
		return nil
	}
	if rerr := cmd.Run(context.Background(), append([]string{"node"}, args...)); rerr != nil {
		t.Fatal(rerr)
	}
	return cfg, err
}

// TestNodeCommand: `n3node node` takes neo-go's configuration flags: the
// network flags pick protocol.<net>.yml in --config-path (./config by
// default) or, with no such file and no --config-path, the embedded
// network; --config-file wins; -d is debug.
func TestNodeCommand(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args  []string
		magic uint32
	}{
		{nil, 56753}, {[]string{"-p"}, 56753}, {[]string{"-m"}, 860833102}, {[]string{"--mainnet"}, 860833102},
		{[]string{"-t"}, 894710606}, {[]string{"--unittest"}, 42},
	} {
		cfg, err := parseNode(t, c.args...)
		if err != nil || uint32(cfg.ProtocolConfiguration.Magic) != c.magic {
			t.Errorf("%v: magic %d, %v", c.args, cfg.ProtocolConfiguration.Magic, err)
		}
	}
	if _, err := parseNode(t, "-p", "-m"); err == nil {
		t.Error("two networks accepted")
	}
	// A config directory: -t reads protocol.testnet.yml from it (here a
	// copy of the unit test network, to tell it from the embedded one).
	dir := t.TempDir()
	unit, err := config.EmbeddedConfig("unit_testnet")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "protocol.testnet.yml"), unit, 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err := parseNode(t, "--config-path", dir, "-t"); err != nil || cfg.ProtocolConfiguration.Magic != 42 {
		t.Errorf("--config-path: magic %d, %v", cfg.ProtocolConfiguration.Magic, err)
	}
	if _, err := parseNode(t, "--config-path", dir, "-m"); err == nil {
		t.Error("--config-path without protocol.mainnet.yml accepted")
	}
	if cfg, err := parseNode(t, "--config-file", filepath.Join(dir, "protocol.testnet.yml"), "-m", "-d"); err != nil ||
		cfg.ProtocolConfiguration.Magic != 42 || cfg.ApplicationConfiguration.LogLevel != "debug" {
		t.Errorf("--config-file: %d %q, %v", cfg.ProtocolConfiguration.Magic, cfg.ApplicationConfiguration.LogLevel, err)
	}
	// ./config is neo-go's default directory.
	if err := os.Mkdir("config", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("config", "protocol.privnet.yml"), unit, 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err := parseNode(t); err != nil || cfg.ProtocolConfiguration.Magic != 42 {
		t.Errorf("./config: magic %d, %v", cfg.ProtocolConfiguration.Magic, err)
	}
}

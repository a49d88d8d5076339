package app

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/node"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/urfave/cli/v3"
)

// parseRun runs `n3node run ARGS` up to the configuration.
func parseRun(t *testing.T, args ...string) (config.Config, error) {
	t.Helper()
	var (
		cfg config.Config
		err error
	)
	cmd := runCommand()
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
	log, closer, err := newLogger(config.Logger{LogEncoding: "json", LogLevel: "warn", LogTimestamp: &off}, f)
	if err != nil || closer != nil {
		t.Fatal(err, closer)
	}
	log.Info("hidden")
	log.Warn("shown", "k", 1)
	b, _ := os.ReadFile(f.Name())
	if string(b) != `{"level":"WARN","msg":"shown","k":1}`+"\n" {
		t.Fatalf("log: %q", b)
	}
	if _, _, err := newLogger(config.Logger{LogLevel: "loud"}, f); err == nil {
		t.Fatal("bad level accepted")
	}
	path := filepath.Join(t.TempDir(), "node.log")
	log, closer, err = newLogger(config.Logger{LogPath: path}, f)
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
		done <- serve(context.Background(), &cfg, node.ServiceOptions{}, slog.New(slog.DiscardHandler), sigs, func() { forced = true })
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
		done <- serve(ctx, &cfg, node.ServiceOptions{}, slog.New(slog.DiscardHandler), nil, func() {})
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// buildBinary builds cmd/n3node with the toolchain running the test.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "n3node")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(goTool, "build", "-o", bin, "github.com/n3node/n3node/cmd/n3node")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// process is a running `n3node run`.
type process struct {
	cmd    *exec.Cmd
	rpc    chan string // the RPC address from the start log line
	rpcURL string
	opened chan uint32 // the height the chain opened at
	mu     sync.Mutex
	log    strings.Builder
	done   chan struct{}
	err    error
}

var (
	rpcLine    = regexp.MustCompile(`msg="node started".* rpc=\[([^\] ]+)`)
	heightLine = regexp.MustCompile(`msg="node started".* height=(\d+)`)
)

func startProcess(t *testing.T, bin string, args ...string) *process {
	t.Helper()
	p := &process{cmd: exec.Command(bin, args...), rpc: make(chan string, 1), opened: make(chan uint32, 1), done: make(chan struct{})}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stdout = io.Discard
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.log.WriteString(line + "\n")
			p.mu.Unlock()
			if m := rpcLine.FindStringSubmatch(line); m != nil {
				p.rpc <- m[1]
			}
			if m := heightLine.FindStringSubmatch(line); m != nil {
				h, _ := strconv.ParseUint(m[1], 10, 32)
				p.opened <- uint32(h)
			}
		}
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

func (p *process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// client waits for the start line and connects to the RPC address.
func (p *process) client(t *testing.T) *rpcclient.Client {
	t.Helper()
	select {
	case addr := <-p.rpc:
		p.rpcURL = "http://" + addr
		c, err := rpcclient.New(p.rpcURL, rpcclient.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	case <-p.done:
		t.Fatalf("node exited: %v\n%s", p.err, p.output())
	case <-time.After(60 * time.Second):
		t.Fatalf("node did not start\n%s", p.output())
	}
	return nil
}

// stop sends sig and waits for a clean exit.
func (p *process) stop(t *testing.T, sig os.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("node did not stop\n%s", p.output())
	}
	if p.err != nil {
		t.Fatalf("exit: %v\n%s", p.err, p.output())
	}
	if !strings.Contains(p.output(), `msg="node stopped"`) {
		t.Fatalf("no clean stop in the log\n%s", p.output())
	}
}

func waitCount(t *testing.T, c *rpcclient.Client, want uint32) uint32 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := c.GetBlockCount(context.Background())
		if err == nil && n >= want {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("block count %d (%v), want %d", n, err, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRunBinary is the README's first command with the data directory and
// listeners moved aside: the node produces blocks, stops cleanly on SIGINT
// with exit code 0, and a second run continues from the persisted height
// (and stops on SIGTERM).
func TestRunBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	data := t.TempDir()
	args := []string{"run", "--data", data, "--rpc", "127.0.0.1:0", "--p2p", "127.0.0.1:0"}

	p := startProcess(t, bin, args...)
	c := p.client(t)
	count := waitCount(t, c, 4)
	to := transferGAS(t, p.rpcURL)
	p.stop(t, os.Interrupt)
	t.Logf("first run: %d blocks", count)

	p = startProcess(t, bin, args...)
	c = p.client(t)
	if h := <-p.opened; h+1 < count {
		t.Fatalf("second run opened at height %d, the first reached %d", h, count-1)
	}
	waitCount(t, c, count+2)
	checkGAS(t, p.rpcURL, to)
	p.stop(t, syscall.SIGTERM)

	// A locked database is a clear error with exit code 1.
	p = startProcess(t, bin, args...)
	p.client(t)
	q := startProcess(t, bin, args...)
	<-q.done
	var ee *exec.ExitError
	if !errors.As(q.err, &ee) || ee.ExitCode() != 1 || !strings.Contains(q.output(), "another node is running on the database "+data) {
		t.Fatalf("second node on the same data: %v\n%s", q.err, q.output())
	}
	p.stop(t, os.Interrupt)
}

// privnetCommittee is the committee account of the embedded privnet: the
// 1-of-1 multi-signature account of the validator key in
// wallet1_solo.json, which holds the genesis GAS.
var privnetCommittee = CommitteeWallet{"embedded:wallet1_solo.json", "one", "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"}

// transferGAS sends 12.5 GAS from the committee to a new address through
// the wallet CLI and waits for it; it returns the address.
func transferGAS(t *testing.T, rpc string) string {
	t.Helper()
	k, err := keys.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	to := k.Address()
	cfgPath := filepath.Join(t.TempDir(), "committee.yml")
	if err := os.WriteFile(cfgPath, []byte(fmt.Sprintf("Path: %q\nPassword: %q\n", privnetCommittee.Path, privnetCommittee.Password)), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := cliRun(ctx, "", "wallet", "nep17", "transfer", "--wallet-config", cfgPath, "-r", rpc,
		"--from", privnetCommittee.Address, "--to", to, "--token", "GAS", "--amount", "12.5", "--force", "--await")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "VMState:\tHALT") {
		t.Fatalf("transfer did not HALT:\n%s", out)
	}
	checkGAS(t, rpc, to)
	return to
}

// checkGAS checks that to holds the 12.5 GAS of transferGAS.
func checkGAS(t *testing.T, rpc, to string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := cliRun(ctx, "", "wallet", "nep17", "balance", "-a", to, "--token", "GAS", "-r", rpc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "\tAmount : 12.5\n") {
		t.Fatalf("balance of %s:\n%s", to, out)
	}
}

// TestWalletScenario runs the whole wallet CLI scenario (the one
// `make wallet-e2e` runs against neo-go) against an n3node privnet in this
// process.
func TestWalletScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("long scenario")
	}
	cfg, err := parseRun(t, "--data", t.TempDir(), "--rpc", "127.0.0.1:0", "--p2p", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.New(&cfg, node.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := n.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	walletScenario(t, ctx, "http://"+n.RPCAddresses()[0], privnetCommittee)
}

// parseServiceOptions runs `n3node run ARGS` up to the service options of
// cfg (the configuration the flags would give, adjusted by the test).
func parseServiceOptions(t *testing.T, cfg config.Config, args ...string) (node.ServiceOptions, error) {
	t.Helper()
	var (
		o   node.ServiceOptions
		err error
	)
	cmd := runCommand()
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

// TestMemoryLimitFlag: --memory-limit MiB becomes a limit in bytes, 0
// means none, a negative value is refused, and GOMEMLIMIT wins.
func TestMemoryLimitFlag(t *testing.T) {
	parse := func(env string, args ...string) (int64, error) {
		t.Helper()
		var (
			n   int64
			err error
		)
		cmd := runCommand()
		cmd.Action = func(_ context.Context, c *cli.Command) error {
			n, err = runMemoryLimit(c, func(k string) string {
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
		return n, err
	}
	if n, err := parse(""); err != nil || n != runMemoryLimitMiB<<20 {
		t.Errorf("default: %d, %v", n, err)
	}
	if n, err := parse("", "--memory-limit", "96"); err != nil || n != 96<<20 {
		t.Errorf("96: %d, %v", n, err)
	}
	if n, err := parse("", "--memory-limit", "0"); err != nil || n != 0 {
		t.Errorf("0: %d, %v", n, err)
	}
	if n, err := parse("200MiB", "--memory-limit", "96"); err != nil || n != 0 {
		t.Errorf("GOMEMLIMIT set: %d, %v", n, err)
	}
	if _, err := parse("", "--memory-limit", "-1"); err == nil {
		t.Error("-1: no error")
	}
}

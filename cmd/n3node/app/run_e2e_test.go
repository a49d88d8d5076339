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
)

// End-to-end tests of `n3node run`: the built binary (start, signals,
// restart, a locked database) and the wallet scenario against an
// in-process node.

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
	// The Go memory limit is derived from the configuration and logged
	// (docs/config.md, MemoryLimitMiB); GOMEMLIMIT/GOGC from the test's
	// environment would win.
	if os.Getenv("GOMEMLIMIT") == "" && os.Getenv("GOGC") == "" {
		if out := p.output(); !strings.Contains(out, "go memory limit") || !strings.Contains(out, "source=auto") {
			t.Errorf("no derived memory limit in the start-up log:\n%s", out)
		}
	}

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
	// SIGHUP re-reads the configuration and restarts RPC (docs/node.md).
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	for i := 0; !strings.Contains(p.output(), `msg="configuration reloaded"`); i++ {
		if i == 300 {
			t.Fatalf("no reload after SIGHUP\n%s", p.output())
		}
		time.Sleep(100 * time.Millisecond)
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
	// What `n3node run --data DIR --rpc 127.0.0.1:0 --p2p 127.0.0.1:0` runs.
	cfg, err := config.LoadNetwork(config.DefaultNetwork)
	if err != nil {
		t.Fatal(err)
	}
	if err := node.SetDatabase(&cfg, "", t.TempDir()); err != nil {
		t.Fatal(err)
	}
	cfg.ApplicationConfiguration.RPC.Enabled = true
	cfg.ApplicationConfiguration.RPC.Addresses = []string{"127.0.0.1:0"}
	cfg.ApplicationConfiguration.P2P.Addresses = []string{"127.0.0.1:0"}
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

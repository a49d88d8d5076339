//go:build unix

package nodecmd

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/node"
)

// syncBuffer is a log sink safe for the node's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freeAddr returns a loopback address with a port free at the time.
func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// rpcUp reports whether a JSON-RPC server answers getversion at addr.
func rpcUp(addr string) bool {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Post("http://"+addr, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"getversion","params":[]}`))
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// TestReloadSignals runs a node in-process with a fake systemd socket and
// reloads its configuration: SIGHUP turns RPC off and on again on another
// address and changes the log level; a change a reload cannot apply is
// ignored; SIGUSR2 stops and restarts consensus; SIGUSR1 remakes the
// services; the stop says STOPPING=1.
func TestReloadSignals(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	notes := make(chan string, 16)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				close(notes)
				return
			}
			notes <- string(buf[:n])
		}
	}()
	expect := func(want string) {
		t.Helper()
		select {
		case got := <-notes:
			if got != want {
				t.Fatalf("sd_notify: got %q, want %q", got, want)
			}
		case <-time.After(90 * time.Second): // scrypt under -race
			t.Fatalf("sd_notify: no %q", want)
		}
	}

	rpc1 := freeAddr(t)
	cfg, err := parseRun(t, "--data", t.TempDir(), "--rpc", rpc1, "--p2p", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.ApplicationConfiguration.LogLevel = "info"
	var (
		mu   sync.Mutex
		next = cfg
	)
	setNext := func(f func(*config.Config)) {
		mu.Lock()
		defer mu.Unlock()
		f(&next)
	}
	logs := &syncBuffer{}
	level := new(slog.LevelVar)
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: level}))
	rl := &reloader{
		signals: make(chan os.Signal, 1),
		config: func() (config.Config, error) {
			mu.Lock()
			defer mu.Unlock()
			return next, nil
		},
		level: level,
	}
	sigs := make(chan os.Signal, 1)
	done := make(chan error, 1)
	go func() { done <- serve(context.Background(), &cfg, node.Options{Logger: log}, sigs, rl, func() {}) }()
	expect(sdReady)
	if !rpcUp(rpc1) {
		t.Fatal("RPC is not up")
	}
	waitLog := func(s string) {
		t.Helper()
		for i := 0; i < 300 && !strings.Contains(logs.String(), s); i++ {
			time.Sleep(100 * time.Millisecond)
		}
		if !strings.Contains(logs.String(), s) {
			t.Fatalf("no %q in the log:\n%s", s, logs.String())
		}
	}

	// RPC off, debug logging.
	setNext(func(c *config.Config) {
		c.ApplicationConfiguration.RPC.Enabled = false
		c.ApplicationConfiguration.LogLevel = "debug"
	})
	rl.signals <- syscall.SIGHUP
	expect(sdReloading)
	expect(sdReady)
	if rpcUp(rpc1) {
		t.Fatal("RPC still answers after it was turned off")
	}
	if level.Level() != slog.LevelDebug {
		t.Fatalf("level %v after the reload", level.Level())
	}
	waitLog("using new logging level")

	// RPC on again, elsewhere; back to info.
	rpc2 := freeAddr(t)
	setNext(func(c *config.Config) {
		c.ApplicationConfiguration.RPC.Enabled = true
		c.ApplicationConfiguration.RPC.Addresses = []string{rpc2}
		c.ApplicationConfiguration.LogLevel = "info"
	})
	rl.signals <- syscall.SIGHUP
	expect(sdReloading)
	expect(sdReady)
	if !rpcUp(rpc2) {
		t.Fatal("RPC is not up after it was turned on")
	}
	if level.Level() != slog.LevelInfo {
		t.Fatalf("level %v after the second reload", level.Level())
	}

	// What a reload cannot apply is ignored.
	setNext(func(c *config.Config) { c.ApplicationConfiguration.P2P.MaxPeers += 7 })
	rl.signals <- syscall.SIGHUP
	waitLog("ApplicationConfiguration changed in incompatible way")
	if !rpcUp(rpc2) {
		t.Fatal("RPC went down on an ignored reload")
	}
	setNext(func(c *config.Config) { c.ApplicationConfiguration.P2P.MaxPeers -= 7 })

	// Consensus off and on.
	setNext(func(c *config.Config) { c.ApplicationConfiguration.Consensus.Enabled = false })
	rl.signals <- syscall.SIGUSR2
	waitLog("consensus stopped")
	setNext(func(c *config.Config) { c.ApplicationConfiguration.Consensus.Enabled = true })
	rl.signals <- syscall.SIGUSR2
	waitLog("consensus started")

	// The services are made again.
	rl.signals <- syscall.SIGUSR1
	waitLog("services reloaded")

	sigs <- os.Interrupt
	expect(sdStopping)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("errors in the log:\n%s", logs.String())
	}
}

// TestReloadFailureStops: a service that cannot start on SIGHUP (its port
// is taken) stops the node with the error, as in neo-go.
func TestReloadFailureStops(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	cfg, err := parseRun(t, "--data", t.TempDir(), "--p2p", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	next := cfg
	next.ApplicationConfiguration.Prometheus = config.BasicService{Enabled: true, Addresses: []string{busy.Addr().String()}}
	rl := &reloader{signals: make(chan os.Signal, 1), config: func() (config.Config, error) { return next, nil }}
	done := make(chan error, 1)
	go func() {
		done <- serve(context.Background(), &cfg, node.Options{Logger: slog.New(slog.DiscardHandler)}, nil, rl, func() {})
	}()
	time.Sleep(300 * time.Millisecond)
	rl.signals <- syscall.SIGHUP
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "Prometheus") {
			t.Fatalf("got %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the node did not stop")
	}
}

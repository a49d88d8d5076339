package multinode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/n3node/n3node/pkg/bench/procstat"
	"github.com/n3node/n3node/pkg/rpcclient"
)

// Errors of Node.
var (
	// ErrNotRunning is returned by the process controls of a node that
	// is not running.
	ErrNotRunning = errors.New("multinode: node is not running")
	// ErrRunning is returned by Start on a running node.
	ErrRunning = errors.New("multinode: node is already running")
	// ErrExited is returned when a node process ended before it was up.
	ErrExited = errors.New("multinode: node process exited")
)

// DefaultStartTimeout bounds the wait for a node's RPC server.
const DefaultStartTimeout = 60 * time.Second

// stopTimeout is how long Stop waits after SIGTERM before it kills.
const stopTimeout = 30 * time.Second

// Node is one node process: its files live in Dir (protocol.yml, the
// wallet, node.log, the database under chain/). A Node can be started,
// stopped and killed any number of times; the database stays.
type Node struct {
	Spec    NodeSpec
	Name    string
	Dir     string
	P2PPort int
	RPCPort int
	// RPC is a JSON-RPC client of the node (valid while it runs).
	RPC *rpcclient.Client

	bin          string
	cfgPath      string
	logPath      string
	startTimeout time.Duration
	proto        Protocol // what protocol.yml was written with
	seeds        []string

	mu     sync.Mutex
	cmd    *exec.Cmd
	done   chan struct{}
	exit   error // valid once done is closed
	starts int
}

// P2PAddr is the node's P2P address on loopback.
func (n *Node) P2PAddr() string { return loopback(n.P2PPort) }

// RPCURL is the node's JSON-RPC endpoint.
func (n *Node) RPCURL() string { return "http://" + loopback(n.RPCPort) }

// ConfigPath is the node's configuration file.
func (n *Node) ConfigPath() string { return n.cfgPath }

// LogPath is the file that collects the node's output (appended to on
// every start).
func (n *Node) LogPath() string { return n.logPath }

// Starts counts the starts of the node so far.
func (n *Node) Starts() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.starts
}

// args returns the command line of the node.
func (n *Node) args() []string {
	switch n.Spec.Kind {
	case NeoGo:
		return []string{"node", "--config-file", n.cfgPath, "--relative-path", n.Dir}
	default:
		return []string{"run", "--config", n.cfgPath, "--relative-path", n.Dir}
	}
}

// Launch starts the process and returns at once; WaitRPC waits for it.
func (n *Node) Launch() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd != nil {
		select {
		case <-n.done:
		default:
			return ErrRunning
		}
	}
	logf, err := os.OpenFile(n.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	n.starts++
	fmt.Fprintf(logf, "=== multinode: start %d of %s at %s\n", n.starts, n.Name, time.Now().UTC().Format(time.RFC3339Nano))
	cmd := exec.Command(n.bin, n.args()...)
	cmd.Dir = n.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("multinode: start %s: %w", n.Name, err)
	}
	done := make(chan struct{})
	n.cmd, n.done, n.exit = cmd, done, nil
	go func() {
		err := cmd.Wait()
		logf.Close()
		n.mu.Lock()
		n.exit = err
		n.mu.Unlock()
		close(done)
	}()
	return nil
}

// Start launches the node and waits until its RPC server answers.
func (n *Node) Start(ctx context.Context) error {
	if err := n.Launch(); err != nil {
		return err
	}
	return n.WaitRPC(ctx)
}

// WaitRPC waits until the node answers getblockcount (up to the start
// timeout). If the process exits first, the error carries the log tail.
func (n *Node) WaitRPC(ctx context.Context) error {
	n.mu.Lock()
	done := n.done
	n.mu.Unlock()
	if done == nil {
		return ErrNotRunning
	}
	ctx, cancel := context.WithTimeout(ctx, n.startTimeout)
	defer cancel()
	for {
		_, err := n.RPC.GetBlockCount(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-done:
			return fmt.Errorf("%w: %s: %v\n%s", ErrExited, n.Name, n.exitErr(), n.LogTail(40))
		case <-ctx.Done():
			return fmt.Errorf("multinode: %s: RPC not up: %w (%v)\n%s", n.Name, ctx.Err(), err, n.LogTail(40))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (n *Node) exitErr() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.exit
}

// Running reports whether the process is alive.
func (n *Node) Running() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.done:
		return false
	default:
		return true
	}
}

// Pid returns the process id (0 when not running).
func (n *Node) Pid() int {
	if !n.Running() {
		return 0
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.cmd.Process.Pid
}

// Exited returns a channel closed when the current process ends (nil if
// the node was never started).
func (n *Node) Exited() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.done
}

// signal sends sig and waits for the exit up to timeout (0: forever).
func (n *Node) signal(sig syscall.Signal, timeout time.Duration) error {
	n.mu.Lock()
	cmd, done := n.cmd, n.done
	n.mu.Unlock()
	if cmd == nil {
		return ErrNotRunning
	}
	select {
	case <-done:
		return ErrNotRunning
	default:
	}
	_ = cmd.Process.Signal(sig)
	if timeout == 0 {
		<-done
		return nil
	}
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("multinode: %s did not exit within %s of %s", n.Name, timeout, sig)
	}
}

// Kill ends the process with SIGKILL (no shutdown: what the database
// keeps is what it had synced) and waits for it.
func (n *Node) Kill() error { return n.signal(syscall.SIGKILL, 0) }

// Stop asks the node to shut down with SIGTERM and waits; a node that is
// not gone after 30 s is killed and Stop returns an error. The exit
// status of a clean shutdown is 0: anything else is an error too.
func (n *Node) Stop() error {
	err := n.signal(syscall.SIGTERM, stopTimeout)
	if errors.Is(err, ErrNotRunning) {
		return nil
	}
	if err != nil {
		_ = n.Kill()
		return err
	}
	if e := n.exitErr(); e != nil {
		return fmt.Errorf("multinode: %s exited with %v after SIGTERM\n%s", n.Name, e, n.LogTail(20))
	}
	return nil
}

// RSS returns the resident set size of the process in bytes.
func (n *Node) RSS() (uint64, error) {
	pid := n.Pid()
	if pid == 0 {
		return 0, ErrNotRunning
	}
	return procstat.Proc.RSS(pid)
}

// CPUTicks returns the process's user+system CPU time in clock ticks.
func (n *Node) CPUTicks() (uint64, error) {
	pid := n.Pid()
	if pid == 0 {
		return 0, ErrNotRunning
	}
	return procstat.Proc.ProcCPU(pid)
}

// LogTail returns the last lines of the node's log.
func (n *Node) LogTail(lines int) string {
	data, err := os.ReadFile(n.logPath)
	if err != nil {
		return ""
	}
	all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// DataPath is the node's database path.
func (n *Node) DataPath() string { return filepath.Join(n.Dir, "chain") }

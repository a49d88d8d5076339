package neogo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Default loopback ports of testdata/refchain/protocol.yml. They are chosen
// away from neo-go's (20332/20333, 30333) and C#'s (10332/10333) defaults.
const (
	DefaultP2PPort = 40333
	DefaultRPCPort = 40332
)

// ConfigOptions changes a node configuration template.
type ConfigOptions struct {
	P2PPort   int  // 0 keeps the template's
	RPCPort   int  // 0 keeps the template's
	Consensus bool // enables or disables ApplicationConfiguration.Consensus
}

// ErrTemplate is returned when a configuration template lacks a line that
// RenderConfig must rewrite.
var ErrTemplate = errors.New("neogo: unexpected config template")

// RenderConfig rewrites a neo-go YAML config written in the style of
// testdata/refchain/protocol.yml: the addresses 127.0.0.1:<DefaultP2PPort>
// and 127.0.0.1:<DefaultRPCPort> get the requested ports, and the first
// "Enabled:" line below "  Consensus:" is set from o.Consensus. It is plain
// text substitution so the template stays a config neo-go can run as is.
func RenderConfig(tmpl []byte, o ConfigOptions) ([]byte, error) {
	s := string(tmpl)
	for _, p := range []struct{ def, port int }{{DefaultP2PPort, o.P2PPort}, {DefaultRPCPort, o.RPCPort}} {
		old := "127.0.0.1:" + strconv.Itoa(p.def)
		if !strings.Contains(s, old) {
			return nil, fmt.Errorf("%w: no address %s", ErrTemplate, old)
		}
		if p.port != 0 {
			s = strings.ReplaceAll(s, old, "127.0.0.1:"+strconv.Itoa(p.port))
		}
	}
	lines := strings.Split(s, "\n")
	found := false
	for i := 0; i < len(lines) && !found; i++ {
		if strings.TrimRight(lines[i], " ") != "  Consensus:" {
			continue
		}
		for j := i + 1; j < len(lines) && strings.HasPrefix(lines[j], "    "); j++ {
			if strings.HasPrefix(lines[j], "    Enabled:") {
				lines[j] = "    Enabled: " + strconv.FormatBool(o.Consensus)
				found = true
				break
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: no Consensus.Enabled line", ErrTemplate)
	}
	return []byte(strings.Join(lines, "\n")), nil
}

// StartOptions describe one neo-go node process.
type StartOptions struct {
	Binary  string // neo-go binary (see Binary)
	Dir     string // working directory: relative config paths, node.log and protocol.yml live here
	Config  []byte // the YAML configuration, written to Dir/protocol.yml
	RPCPort int    // the port the config's RPC server listens on (127.0.0.1)
	P2PPort int    // the config's P2P port, if known: checked to be free before the start
	// StartTimeout bounds the wait for the RPC server (default 60 s).
	StartTimeout time.Duration
}

// Node is a running neo-go process.
type Node struct {
	Dir    string
	RPC    *Client
	cmd    *exec.Cmd
	log    *os.File
	done   chan struct{}
	err    error // process exit status, valid after done is closed
	closed bool
}

// Start writes the config and launches `neogo node`, then waits until its
// JSON-RPC server answers getblockcount. On failure the process is stopped
// and the error carries the tail of node.log.
func Start(ctx context.Context, o StartOptions) (*Node, error) {
	if o.StartTimeout == 0 {
		o.StartTimeout = 60 * time.Second
	}
	// Another node on the same port would answer our RPC calls.
	for _, p := range []int{o.RPCPort, o.P2PPort} {
		if p == 0 {
			continue
		}
		if err := portFree(p); err != nil {
			return nil, err
		}
	}
	cfg := filepath.Join(o.Dir, "protocol.yml")
	if err := os.WriteFile(cfg, o.Config, 0o644); err != nil {
		return nil, err
	}
	logf, err := os.OpenFile(filepath.Join(o.Dir, "node.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.Binary, "node", "--config-file", cfg, "--relative-path", o.Dir)
	cmd.Dir = o.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("neogo: start node: %w", err)
	}
	n := &Node{
		Dir:  o.Dir,
		RPC:  NewClient(fmt.Sprintf("http://127.0.0.1:%d", o.RPCPort)),
		cmd:  cmd,
		log:  logf,
		done: make(chan struct{}),
	}
	go func() { n.err = cmd.Wait(); close(n.done) }()

	wctx, cancel := context.WithTimeout(ctx, o.StartTimeout)
	defer cancel()
	for {
		var count uint32
		err := n.RPC.Call(wctx, "getblockcount", &count)
		if err == nil {
			return n, nil
		}
		select {
		case <-n.done:
			return nil, fmt.Errorf("neogo: node exited before RPC was up: %v\n%s", n.err, n.LogTail(40))
		case <-wctx.Done():
			_ = n.Stop()
			return nil, fmt.Errorf("neogo: RPC not up after %s: %w\n%s", o.StartTimeout, err, n.LogTail(40))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// ErrPortInUse is returned by Start when a port of the node is taken.
var ErrPortInUse = errors.New("neogo: port in use")

func portFree(port int) error {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return fmt.Errorf("%w: 127.0.0.1:%d: %w", ErrPortInUse, port, err)
	}
	return l.Close()
}

// Pid returns the process id of the node.
func (n *Node) Pid() int { return n.cmd.Process.Pid }

// Stop asks the node to shut down (SIGINT), waits up to 20 s, then kills it.
// It returns nil after a clean shutdown. It is safe to call more than once.
func (n *Node) Stop() error {
	if n.closed {
		return nil
	}
	n.closed = true
	defer n.log.Close()
	select {
	case <-n.done:
		return fmt.Errorf("neogo: node had already exited: %v", n.err)
	default:
	}
	_ = n.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-n.done:
		return nil
	case <-time.After(20 * time.Second):
		_ = n.cmd.Process.Kill()
		<-n.done
		return errors.New("neogo: node ignored SIGINT and was killed")
	}
}

// LogTail returns the last lines of the node's log.
func (n *Node) LogTail(lines int) string {
	return logTail(filepath.Join(n.Dir, "node.log"), lines)
}

func logTail(path string, lines int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	all := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

// Dump runs `neogo db dump --non-incremental` on the (stopped) node database
// described by the config at dir/protocol.yml and writes every block from
// the genesis on to out: u32 LE count, then per block u32 LE size and the
// block bytes. neo-go's default (incremental) format would add a u32 start
// index before the count.
func Dump(ctx context.Context, bin, dir, out string) error {
	return runDB(ctx, bin, dir, "dump", "--non-incremental", "-o", out)
}

// Restore runs `neogo db restore -i in` into the database described by
// dir/protocol.yml. It accepts both dump formats.
func Restore(ctx context.Context, bin, dir, in string) error {
	return runDB(ctx, bin, dir, "restore", "-i", in)
}

func runDB(ctx context.Context, bin, dir, sub string, args ...string) error {
	full := append([]string{"db", sub, "--config-file", filepath.Join(dir, "protocol.yml"), "--relative-path", dir}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("neogo: db %s: %w\n%s", sub, err, tail(out.String(), 40))
	}
	return nil
}

func tail(s string, lines int) string {
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}

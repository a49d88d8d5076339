package clienttest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

// EnvN3NodeBinary names the environment variable that, when set, gives the
// n3node binary StartN3Node runs instead of building cmd/n3node.
const EnvN3NodeBinary = "N3NODE_BIN"

// n3nodeStartTimeout bounds the build, the start and the first block.
const n3nodeStartTimeout = 3 * time.Minute

// rpcStarted matches the start line of `n3node run` and captures the
// bound RPC address (docs/node.md).
var rpcStarted = regexp.MustCompile(`msg="node started".* rpc=\[([^\] ]+)`)

// StartN3Node builds cmd/n3node (or takes $N3NODE_BIN) and runs `n3node run`
// with the configuration StartNeoGo gives neo-go: the reference chain's
// protocol.yml (magic 56753, the single validator of wallet1_solo.json,
// every hardfork from 0, 1 s blocks, MaxGasInvoke 2000) with the session
// setting of o, its database and wallet in dir and both listeners on free
// loopback ports (--rpc/--p2p 127.0.0.1:0; the RPC address is read from
// the start line of the log).
func StartN3Node(ctx context.Context, dir string, o StartOptions) (*Node, error) {
	ctx, cancel := context.WithTimeout(ctx, n3nodeStartTimeout)
	defer cancel()
	bin, err := n3nodeBinary(ctx, dir)
	if err != nil {
		return nil, err
	}
	ref, err := refchainDir()
	if err != nil {
		return nil, err
	}
	tmpl, err := os.ReadFile(filepath.Join(ref, "protocol.yml"))
	if err != nil {
		return nil, err
	}
	wif, err := CommitteeWIF()
	if err != nil {
		return nil, err
	}
	if err := copyFile(filepath.Join(ref, "wallet1_solo.json"), filepath.Join(dir, "wallet1_solo.json")); err != nil {
		return nil, err
	}
	// The ports in the file stay the template's; the flags below replace them.
	cfg, err := NeoGoConfig(tmpl, 0, 0, o.Sessions)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(dir, "protocol.yml")
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		return nil, err
	}
	p, err := startProcess(bin, dir, "run", "--config", cfgPath, "--relative-path", dir,
		"--data", filepath.Join(dir, "chain"), "--rpc", "127.0.0.1:0", "--p2p", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	node := &Node{
		Target:  Target{CommitteeWIF: wif, Magic: 56753},
		Name:    "n3node",
		Stop:    p.stop,
		LogTail: func() string { return p.tail(40) },
	}
	select {
	case addr := <-p.rpc:
		node.RPC = "http://" + addr
	case <-p.done:
		return nil, fmt.Errorf("clienttest: n3node exited before it started: %v\n%s", p.err, p.tail(40))
	case <-ctx.Done():
		_ = p.stop()
		return nil, fmt.Errorf("clienttest: n3node did not start: %w\n%s", ctx.Err(), p.tail(40))
	}
	c := neogo.NewClient(node.RPC)
	var ua struct {
		UserAgent string `json:"useragent"`
	}
	for {
		var count uint32
		if err := c.Call(ctx, "getblockcount", &count); err == nil && count >= 2 {
			break
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("clienttest: n3node exited: %v\n%s", p.err, p.tail(40))
		case <-ctx.Done():
			_ = p.stop()
			return nil, fmt.Errorf("clienttest: n3node made no block: %w\n%s", ctx.Err(), p.tail(40))
		case <-time.After(200 * time.Millisecond):
		}
	}
	if err := c.Call(ctx, "getversion", &ua); err == nil && ua.UserAgent != "" {
		node.Name = "n3node " + ua.UserAgent
	}
	return node, nil
}

// n3nodeBinary returns $N3NODE_BIN or builds cmd/n3node into dir.
func n3nodeBinary(ctx context.Context, dir string) (string, error) {
	if bin := os.Getenv(EnvN3NodeBinary); bin != "" {
		return bin, nil
	}
	return BuildN3Node(ctx, dir)
}

// BuildN3Node builds cmd/n3node into dir with the toolchain running the
// test and returns the binary's path.
func BuildN3Node(ctx context.Context, dir string) (string, error) {
	root, err := neogo.RepoRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "n3node")
	cmd := exec.CommandContext(ctx, filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "./cmd/n3node")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("clienttest: go build ./cmd/n3node: %w\n%s", err, out)
	}
	return bin, nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o600)
}

// process is a running n3node whose stderr goes to dir/node.log.
type process struct {
	cmd  *exec.Cmd
	log  string
	rpc  chan string // the RPC address of the start line
	done chan struct{}
	err  error // exit status, valid after done

	stopOnce sync.Once
	stopErr  error
}

func startProcess(bin, dir string, args ...string) (*process, error) {
	logf, err := os.OpenFile(filepath.Join(dir, "node.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	p := &process{cmd: exec.Command(bin, args...), log: logf.Name(), rpc: make(chan string, 1), done: make(chan struct{})}
	p.cmd.Dir = dir
	p.cmd.Stdout = logf
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		logf.Close()
		return nil, fmt.Errorf("clienttest: start n3node: %w", err)
	}
	go func() {
		defer close(p.done)
		defer logf.Close()
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		sent := false
		for sc.Scan() {
			line := sc.Bytes()
			_, _ = logf.Write(append(line, '\n'))
			if m := rpcStarted.FindSubmatch(line); m != nil && !sent {
				p.rpc <- string(m[1])
				sent = true
			}
		}
		p.err = p.cmd.Wait()
	}()
	return p, nil
}

// stop sends SIGINT and waits for a clean exit (up to 40 s, then kills).
// It is safe to call more than once.
func (p *process) stop() error {
	p.stopOnce.Do(func() {
		select {
		case <-p.done:
			p.stopErr = fmt.Errorf("clienttest: n3node had already exited: %v", p.err)
			return
		default:
		}
		_ = p.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-p.done:
			if p.err != nil {
				p.stopErr = fmt.Errorf("clienttest: n3node exit: %w", p.err)
			}
		case <-time.After(40 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
			p.stopErr = errors.New("clienttest: n3node ignored SIGINT and was killed")
		}
	})
	return p.stopErr
}

func (p *process) tail(lines int) string { return logTail(p.log, lines) }

package clienttest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

// Target is a running node the scenarios talk to.
type Target struct {
	RPC string // JSON-RPC URL, e.g. http://127.0.0.1:30333
	// CommitteeWIF is the WIF of the single validator's key. The committee
	// account, which holds the genesis NEO and GAS, is its 1-of-1 multisig.
	CommitteeWIF string
	// Magic is the network magic the node must report; 0 leaves it unchecked.
	Magic uint32
}

// Node is a node started by a Starter.
type Node struct {
	Target
	Name string
	// Stop shuts the node down; it must be safe to call more than once.
	Stop func() error
	// LogTail returns the end of the node's log, for failure messages.
	LogTail func() string
}

// StartOptions are the node settings the scenarios vary.
type StartOptions struct {
	// Sessions turns RPC iterator sessions on (SessionEnabled): iterators
	// stay on the node behind a session id. Off, the node expands them
	// into the result (the form neo-mamba parses).
	Sessions bool
}

// Starter starts a node for the scenarios in the scratch directory dir: a
// single-validator private network producing blocks (about one a second),
// with the RPC settings of o, whose committee account holds the genesis NEO
// and GAS. It returns once the RPC server answers and a block after the
// genesis exists.
type Starter func(ctx context.Context, dir string, o StartOptions) (*Node, error)

// Starters maps the names the test's -node flag accepts to starters.
var Starters = map[string]Starter{
	"neogo":  StartNeoGo,
	"n3node": StartN3Node,
}

// ErrConfig is returned when the reference config cannot be adapted.
var ErrConfig = errors.New("clienttest: unexpected neo-go config")

// refchainDir returns testdata/refchain of the repository.
func refchainDir() (string, error) {
	root, err := neogo.RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "testdata", "refchain"), nil
}

// NeoGoConfig turns the reference chain's neo-go config (testdata/refchain/
// protocol.yml) into the scenarios' one: the same protocol settings (magic
// 56753, one validator, every hardfork from 0, 1 s blocks), consensus on,
// RPC sessions on or off and the given loopback ports (0 keeps the
// template's).
func NeoGoConfig(tmpl []byte, rpcPort, p2pPort int, sessions bool) ([]byte, error) {
	const off = "    SessionEnabled: false\n"
	if strings.Count(string(tmpl), off) != 1 {
		return nil, fmt.Errorf("%w: no single %q line", ErrConfig, strings.TrimSpace(off))
	}
	if sessions {
		tmpl = []byte(strings.Replace(string(tmpl), off, "    SessionEnabled: true\n", 1))
	}
	return neogo.RenderConfig(tmpl, neogo.ConfigOptions{RPCPort: rpcPort, P2PPort: p2pPort, Consensus: true})
}

// CommitteeWIF returns the WIF of account "V" in testdata/refchain/accounts.json:
// the key of neo-go's wallet1_solo.json, the single validator of the
// reference chain's network.
func CommitteeWIF() (string, error) {
	dir, err := refchainDir()
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(filepath.Join(dir, "accounts.json"))
	if err != nil {
		return "", err
	}
	var accs []struct{ Name, WIF string }
	if err := json.Unmarshal(data, &accs); err != nil {
		return "", fmt.Errorf("clienttest: accounts.json: %w", err)
	}
	for _, a := range accs {
		if a.Name == "V" {
			return a.WIF, nil
		}
	}
	return "", errors.New("clienttest: accounts.json has no account V")
}

// StartNeoGo starts neo-go 0.120.0 (fetched by scripts/get-neogo.sh, or
// $NEOGO) as the single consensus node of the reference chain's network, on
// free loopback ports.
func StartNeoGo(ctx context.Context, dir string, o StartOptions) (*Node, error) {
	bin, err := neogo.Binary(ctx)
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
	wallet, err := os.ReadFile(filepath.Join(ref, "wallet1_solo.json"))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "wallet1_solo.json"), wallet, 0o600); err != nil {
		return nil, err
	}
	ports, err := freePorts(2)
	if err != nil {
		return nil, err
	}
	cfg, err := NeoGoConfig(tmpl, ports[0], ports[1], o.Sessions)
	if err != nil {
		return nil, err
	}
	n, err := neogo.Start(ctx, neogo.StartOptions{Binary: bin, Dir: dir, Config: cfg, RPCPort: ports[0], P2PPort: ports[1]})
	if err != nil {
		return nil, err
	}
	node := &Node{
		Target:  Target{RPC: fmt.Sprintf("http://127.0.0.1:%d", ports[0]), CommitteeWIF: wif, Magic: 56753},
		Name:    "neo-go " + neogo.Version,
		Stop:    n.Stop,
		LogTail: func() string { return n.LogTail(40) },
	}
	// Wait for the first block after the genesis.
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		var count uint32
		if err := n.RPC.Call(wctx, "getblockcount", &count); err == nil && count >= 2 {
			return node, nil
		}
		select {
		case <-wctx.Done():
			_ = n.Stop()
			return nil, fmt.Errorf("clienttest: neo-go made no block: %w\n%s", wctx.Err(), n.LogTail(40))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// logTail returns the last lines of the file at path.
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

// freePorts returns n loopback TCP ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

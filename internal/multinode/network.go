package multinode

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/rpcclient"
)

// Options describe a network of node processes.
type Options struct {
	// Dir is the network's directory; node i lives in Dir/<name>.
	Dir string
	// Nodes lists the nodes; every one seeds from all the others.
	Nodes []NodeSpec
	// Protocol are the shared settings (zero fields: DefaultProtocol).
	Protocol Protocol
	// N3Node and NeoGo are the binaries (needed only for the kinds used;
	// see BuildN3Node and NeoGoBinary).
	N3Node, NeoGo string
	// StartTimeout bounds the wait for each node's RPC server (default
	// DefaultStartTimeout).
	StartTimeout time.Duration
	// Ports, if set, gives each node's P2P and RPC ports (in Nodes order)
	// instead of free ones picked by the kernel.
	Ports []Ports
	// Seed, if set, gives the address node from (an index of Nodes) has
	// in its seed list for node to, instead of to's P2P address: a proxy
	// between the two (internal/chaos).
	Seed func(from, to int) string
}

// Ports are the listen ports of one node.
type Ports struct{ P2P, RPC int }

// Network is a set of node processes that know each other.
type Network struct {
	Nodes    []*Node
	Protocol Protocol
	Dir      string
}

// ErrOptions is returned by New for an impossible network.
var ErrOptions = errors.New("multinode: bad options")

// New allocates ports and writes every node's configuration and wallet;
// it starts nothing.
func New(o Options) (*Network, error) {
	if len(o.Nodes) == 0 {
		return nil, fmt.Errorf("%w: no nodes", ErrOptions)
	}
	if o.Ports != nil && len(o.Ports) != len(o.Nodes) {
		return nil, fmt.Errorf("%w: %d ports for %d nodes", ErrOptions, len(o.Ports), len(o.Nodes))
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	seen := make(map[int]bool)
	for _, s := range o.Nodes {
		switch s.Kind {
		case N3Node:
			if o.N3Node == "" {
				return nil, fmt.Errorf("%w: no n3node binary", ErrOptions)
			}
		case NeoGo:
			if o.NeoGo == "" {
				return nil, fmt.Errorf("%w: no neo-go binary", ErrOptions)
			}
		default:
			return nil, fmt.Errorf("%w: unknown kind %q", ErrOptions, s.Kind)
		}
		if s.Validator < 0 || s.Validator > Validators {
			return nil, fmt.Errorf("%w: validator %d", ErrOptions, s.Validator)
		}
		if s.Validator > 0 {
			if seen[s.Validator] {
				return nil, fmt.Errorf("%w: validator %d twice", ErrOptions, s.Validator)
			}
			seen[s.Validator] = true
		}
	}
	ports := o.Ports
	if ports == nil {
		free, err := FreePorts(2 * len(o.Nodes))
		if err != nil {
			return nil, err
		}
		ports = make([]Ports, len(o.Nodes))
		for i := range ports {
			ports[i] = Ports{P2P: free[2*i], RPC: free[2*i+1]}
		}
	}
	nw := &Network{Protocol: o.Protocol.withDefaults(len(o.Nodes)), Dir: o.Dir}
	seeds := make([]string, len(o.Nodes))
	for i := range o.Nodes {
		seeds[i] = loopback(ports[i].P2P)
	}
	for i, s := range o.Nodes {
		n := &Node{
			Spec:         s,
			Name:         s.name(i),
			P2PPort:      ports[i].P2P,
			RPCPort:      ports[i].RPC,
			startTimeout: o.StartTimeout,
		}
		n.Dir = filepath.Join(o.Dir, n.Name)
		n.cfgPath = filepath.Join(n.Dir, "protocol.yml")
		n.logPath = filepath.Join(n.Dir, "node.log")
		n.bin = o.N3Node
		if s.Kind == NeoGo {
			n.bin = o.NeoGo
		}
		if err := os.MkdirAll(n.Dir, 0o755); err != nil {
			return nil, err
		}
		var others []string
		for j, a := range seeds {
			if j == i {
				continue
			}
			if o.Seed != nil {
				a = o.Seed(i, j)
			}
			others = append(others, a)
		}
		if err := n.writeConfig(nw.Protocol, others); err != nil {
			return nil, err
		}
		c, err := rpcclient.New(n.RPCURL(), rpcclient.Options{RequestTimeout: 10 * time.Second})
		if err != nil {
			return nil, err
		}
		n.RPC = c
		nw.Nodes = append(nw.Nodes, n)
	}
	return nw, nil
}

// Reconfigure rewrites protocol.yml of a node that is not running for
// spec (settings that depend on the running network, such as a
// TrustedHeader); the next Start uses it.
func (n *Node) Reconfigure(spec NodeSpec) error {
	if n.Running() {
		return ErrRunning
	}
	n.Spec = spec
	return n.writeConfig(n.proto, n.seeds)
}

// writeConfig writes protocol.yml (and the wallet of a validator).
func (n *Node) writeConfig(p Protocol, seeds []string) error {
	n.proto, n.seeds = p, seeds
	c := nodeConfig{
		P:        p,
		Seeds:    seeds,
		Kind:     n.Spec.Kind,
		DBType:   n.Spec.DB,
		DataPath: n.DataPath(),
		P2P:      n.P2PAddr(),
		RPC:      loopback(n.RPCPort),
		LogLevel: n.Spec.LogLevel,
		Light:    n.Spec.Light,
	}
	if th := n.Spec.TrustedHeader; th.Index != 0 {
		c.TrustedHeader = fmt.Sprintf("%d: \"0x%s\"", th.Index, th.Hash.StringLE())
	}
	if n.Spec.PprofPort != 0 {
		c.Pprof = loopback(n.Spec.PprofPort)
	}
	if c.DBType == "" {
		c.DBType = "pebble"
		if n.Spec.Kind == NeoGo {
			c.DBType = "leveldb"
		}
	}
	if c.LogLevel == "" {
		c.LogLevel = "info"
	}
	if v := n.Spec.Validator; v > 0 {
		name := fmt.Sprintf("wallet%d.json", v)
		w, err := config.EmbeddedWallet(name)
		if err != nil {
			return err
		}
		c.Wallet = filepath.Join(n.Dir, name)
		c.Password = walletPasswords[v-1]
		if err := os.WriteFile(c.Wallet, w, 0o600); err != nil {
			return err
		}
	}
	b, err := renderConfig(c)
	if err != nil {
		return err
	}
	return os.WriteFile(n.cfgPath, b, 0o644)
}

// FreePorts returns n distinct TCP ports that were free on 127.0.0.1 a
// moment ago (all listeners are held until every port is picked).
func FreePorts(n int) ([]int, error) {
	ls := make([]net.Listener, 0, n)
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("multinode: free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Start launches the given nodes (all when none are named) at once and
// waits for their RPC servers.
func (nw *Network) Start(ctx context.Context, nodes ...*Node) error {
	if len(nodes) == 0 {
		nodes = nw.Nodes
	}
	for _, n := range nodes {
		if err := n.Launch(); err != nil {
			return err
		}
	}
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() { errs[i] = n.WaitRPC(ctx) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Stop shuts every running node down (SIGTERM, in parallel) and reports
// the nodes that did not exit cleanly.
func (nw *Network) Stop() error {
	errs := make([]error, len(nw.Nodes))
	var wg sync.WaitGroup
	for i, n := range nw.Nodes {
		wg.Go(func() { errs[i] = n.Stop() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Kill kills every running node.
func (nw *Network) Kill() {
	for _, n := range nw.Nodes {
		_ = n.Kill()
	}
}

// Close stops the nodes and closes their RPC clients.
func (nw *Network) Close() error {
	err := nw.Stop()
	for _, n := range nw.Nodes {
		n.RPC.Close()
	}
	return err
}

// Running returns the nodes that run.
func (nw *Network) Running() []*Node {
	var out []*Node
	for _, n := range nw.Nodes {
		if n.Running() {
			out = append(out, n)
		}
	}
	return out
}

// ByKind returns the nodes of one implementation.
func (nw *Network) ByKind(k Kind) []*Node {
	var out []*Node
	for _, n := range nw.Nodes {
		if n.Spec.Kind == k {
			out = append(out, n)
		}
	}
	return out
}

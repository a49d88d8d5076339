package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/metrics"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/prometheus/client_golang/prometheus"
)

// DefaultVersion is the version in the default user agent.
const DefaultVersion = "0.1.0-dev"

// Errors of New, Start and Shutdown.
var (
	// ErrDatabaseLocked means another process (or Node) has the database
	// open. It wraps storage.ErrLocked.
	ErrDatabaseLocked = errors.New("another node is running on the database")
	// ErrState is returned by Start and Shutdown called out of order.
	ErrState = errors.New("node: wrong state")
)

// Options are the parts of a node that do not come from the
// configuration.
type Options struct {
	// Logger receives the node's log; nil means slog.Default().
	Logger *slog.Logger
	// Version is the node version for the user agent (default
	// DefaultVersion).
	Version string
	// UserAgent overrides the P2P user agent (default "/n3node:<Version>/").
	UserAgent string
	// Registry receives the metrics when Prometheus is enabled (nil: a
	// new registry with the Go runtime and process collectors).
	Registry *prometheus.Registry
	// Chain tunes the ledger (its Logger is set from Logger when nil).
	Chain core.Options
	// ServiceOptions set up the StateService, state sync, notary and
	// oracle services (services.go).
	ServiceOptions
}

const (
	stateNew int32 = iota
	stateRunning
	stateStopped
)

// Node is a running Neo N3 node: ledger, P2P server, consensus, RPC and
// monitoring, assembled from a configuration.
type Node struct {
	cfg    config.Config
	log    *slog.Logger
	store  storage.Options
	chain  *core.Blockchain
	ledger *chainLedger
	p2p    *network.Server
	// cons and keys are replaced by ReloadConsensus: read them under
	// consMu (or lateMu, which every writer also holds).
	consMu   sync.RWMutex
	cons     *consensus.Service
	keys     []*keys.PrivateKey
	rpc      *rpcserver.Server // replaced by ReloadMonitoring: read it under rpcMu or lateMu
	rpcMu    sync.RWMutex
	rpcEvent *rpcEvents
	prom     *metrics.Service
	pprof    *metrics.Service
	metrics  *metrics.Node
	registry *prometheus.Registry
	svc      services

	version string

	userAgent string

	state atomic.Int32
	stop  chan struct{}
	// lateMu orders the start of the services that wait for sync
	// (consensus, RPC with StartWhenSynchronized) against Shutdown.
	lateMu sync.Mutex
	// rpcLater: the RPC server starts once synchronized (guarded by
	// lateMu).
	rpcLater bool
	wg       sync.WaitGroup

	headers chan core.Event // chain → consensus (headers of added blocks)
}

// New opens the database, the chain (initializing an empty database with
// the genesis block) and builds every enabled service; Start runs them.
// The configuration is copied. Settings n3node does not implement are
// refused (config.CheckSupported: the error names each one).
func New(cfg *config.Config, opts Options) (*Node, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Version == "" {
		opts.Version = DefaultVersion
	}
	if opts.UserAgent == "" {
		opts.UserAgent = "/n3node:" + opts.Version + "/"
	}
	if err := cfg.CheckSupported(); err != nil {
		return nil, err
	}
	n := &Node{cfg: *cfg, log: opts.Logger, stop: make(chan struct{}), userAgent: opts.UserAgent, version: opts.Version, registry: opts.Registry}
	chainCfg, err := n.cfg.Blockchain()
	if err != nil {
		return nil, err
	}
	n.store, err = storage.OptionsFromConfig(n.cfg.ApplicationConfiguration.DBConfiguration, "", "")
	if err != nil {
		return nil, err
	}
	n.store.Logger = n.log.With("module", "storage")
	st, err := storage.Open(n.store)
	if err != nil {
		return nil, describeStoreError(n.store, err)
	}
	co := opts.Chain
	if co.Logger == nil {
		co.Logger = n.log.With("module", "chain")
	}
	n.chain, err = core.New(chainCfg, st, co) // owns st from here
	if err != nil {
		return nil, fmt.Errorf("chain in %s: %w", describeStore(n.store), err)
	}
	if err := n.build(opts); err != nil {
		_ = n.chain.Close()
		return nil, err
	}
	return n, nil
}

// build makes the services around the chain.
func (n *Node) build(opts Options) error {
	app := &n.cfg.ApplicationConfiguration
	if app.Prometheus.Enabled {
		if n.registry == nil {
			n.registry = metrics.NewRegistry()
		}
		n.metrics = metrics.NewNode(n.registry, metricsSource{n, opts.Version})
		n.prom = metrics.NewPrometheus(app.Prometheus, n.registry, n.log)
	}
	if app.Pprof.Enabled {
		n.pprof = metrics.NewPprof(app.Pprof, n.log)
	}
	n.ledger = &chainLedger{bc: n.chain, metrics: n.metrics}

	sc, err := network.NewServerConfig(n.cfg, n.userAgent)
	if err != nil {
		return err
	}
	sc.Logger = n.log.With("module", "p2p")
	if n.metrics != nil {
		sc.OnMessage = func(cmd message.Command, took time.Duration) { n.metrics.ObserveP2P(cmd.String(), took) }
	}
	pool := n.chain.Mempool()
	n.p2p, err = network.NewServer(sc, n.ledger, pool)
	if err != nil {
		return fmt.Errorf("P2P server: %w", err)
	}
	n.ledger.relay = n.p2p.RelayBlock
	validators := n.chain.Config().ValidatorsCount
	pool.SetResendThreshold(max(5, 2*uint32(validators)), func(tx *transaction.Transaction, _ any) {
		n.p2p.AnnounceTx(tx)
	})

	if app.Consensus.Enabled {
		cons, ks, err := n.buildConsensus(app.Consensus)
		if err != nil {
			return err
		}
		n.setConsensus(cons, ks)
		n.headers = make(chan core.Event, 64)
	}

	if err := n.buildServices(opts.ServiceOptions); err != nil {
		return err
	}
	if app.RPC.Enabled {
		if err := n.buildRPC(); err != nil {
			return err
		}
	}
	return nil
}

// buildConsensus unlocks the Consensus section's wallet and makes the
// consensus service (not started).
func (n *Node) buildConsensus(c config.Consensus) (*consensus.Service, []*keys.PrivateKey, error) {
	ks, err := consensus.UnlockWallet(c.UnlockWallet)
	if err != nil {
		return nil, nil, err
	}
	cons, err := consensus.New(consensus.Config{
		Ledger:      consensusLedger{n.ledger},
		Mempool:     n.chain.Mempool(),
		Broadcaster: broadcaster{n.p2p},
		Keys:        ks,
		Logger:      n.log.With("module", "consensus"),
	})
	if err != nil {
		return nil, nil, err
	}
	return cons, ks, nil
}

// setConsensus installs cons (nil: none) with its keys and routes the
// "dBFT" payloads and requested transactions to it.
func (n *Node) setConsensus(cons *consensus.Service, ks []*keys.PrivateKey) {
	n.consMu.Lock()
	n.cons, n.keys = cons, ks
	n.consMu.Unlock()
	if cons == nil {
		n.p2p.RemoveExtensibleHandler(payload.ConsensusCategory)
		n.p2p.SetTxHook(nil)
		return
	}
	n.p2p.AddExtensibleHandler(payload.ConsensusCategory, n.onConsensusPayload)
	n.p2p.SetTxHook(cons.OnTransaction)
}

// consensus returns the consensus service (nil when off) and its keys.
func (n *Node) consensus() (*consensus.Service, []*keys.PrivateKey) {
	n.consMu.RLock()
	defer n.consMu.RUnlock()
	return n.cons, n.keys
}

// onConsensusPayload hands a verified "dBFT" payload to consensus. Only
// undecodable payloads are errors (they drop the peer); payloads for old
// heights or not signed by the validator they name are ignored, as in
// neo-go.
func (n *Node) onConsensusPayload(e *payload.Extensible) error {
	cons, _ := n.consensus()
	if cons == nil {
		return nil
	}
	err := cons.OnPayload(e)
	if errors.Is(err, consensus.ErrInvalidPayload) {
		return err
	}
	return nil
}

// Start runs the services: monitoring, the P2P server, RPC (at once, or
// once synchronized with StartWhenSynchronized) and consensus once the
// node is synchronized. It logs where everything is.
func (n *Node) Start(ctx context.Context) error {
	if !n.state.CompareAndSwap(stateNew, stateRunning) {
		return ErrState
	}
	for _, s := range []*metrics.Service{n.prom, n.pprof} {
		if s == nil {
			continue
		}
		if err := s.Start(); err != nil {
			n.abort(ctx)
			return err
		}
	}
	if n.headers != nil {
		n.chain.Subscribe(n.headers, core.HeaderEvents)
		n.wg.Go(n.feedConsensus)
	}
	if n.rpcEvent != nil {
		n.rpcEvent.start(n)
	}
	n.startServices()
	if err := n.p2p.Start(); err != nil {
		n.abort(ctx)
		return err
	}
	rpcLater := n.rpc != nil && n.cfg.ApplicationConfiguration.RPC.StartWhenSynchronized
	n.rpcLater = rpcLater
	if n.rpc != nil && !rpcLater {
		if err := n.rpc.Start(); err != nil {
			n.abort(ctx)
			return err
		}
	}
	n.logStart(rpcLater)
	n.wg.Go(func() {
		select {
		case <-n.stop:
			return
		case <-n.p2p.Synced():
		}
		// Shutdown may be under way: start nothing after it stopped
		// the services.
		n.lateMu.Lock()
		defer n.lateMu.Unlock()
		if n.state.Load() != stateRunning {
			return
		}
		if n.rpcLater && n.rpc != nil {
			n.rpcLater = false
			if err := n.rpc.Start(); err != nil {
				n.log.Error("RPC server failed to start", "err", err)
			} else {
				n.log.Info("RPC server started", "addresses", n.rpc.Addresses())
			}
		}
		if n.cons != nil {
			n.cons.Start()
			n.log.Info("consensus started", "height", n.chain.BlockHeight())
		}
		n.startLateServices()
	})
	return nil
}

// abort undoes a failed Start.
func (n *Node) abort(ctx context.Context) {
	n.state.Store(stateRunning)
	_ = n.Shutdown(ctx)
}

// feedConsensus passes every added block's header to consensus.
func (n *Node) feedConsensus() {
	for {
		select {
		case <-n.stop:
			return
		case ev := <-n.headers:
			if cons, _ := n.consensus(); cons != nil {
				cons.OnNewBlock(ev.Header)
			}
		}
	}
}

// logStart logs the node's configuration summary.
func (n *Node) logStart(rpcLater bool) {
	c := n.chain.Config()
	attrs := []any{
		"network", uint32(c.Magic),
		"height", n.chain.BlockHeight(),
		"db", string(n.store.Engine),
	}
	if n.store.Engine != storage.EngineMemory {
		attrs = append(attrs, "data", n.store.Path)
	}
	attrs = append(attrs, "p2p", n.p2p.ListenAddrs(), "timePerBlock", c.TimePerBlock.String())
	if n.rpc != nil {
		if rpcLater {
			attrs = append(attrs, "rpc", "after sync")
		} else {
			attrs = append(attrs, "rpc", n.rpc.Addresses())
		}
	}
	if n.prom != nil {
		attrs = append(attrs, "prometheus", n.prom.Addresses())
	}
	if n.pprof != nil {
		attrs = append(attrs, "pprof", n.pprof.Addresses())
	}
	if n.cons != nil {
		addrs := make([]string, len(n.keys))
		for i, k := range n.keys {
			addrs[i] = k.PublicKey().Address()
		}
		attrs = append(attrs, "validator", addrs)
	}
	n.log.Info("node started", attrs...)
}

// Shutdown stops the node: RPC stops accepting requests, consensus and
// the P2P server stop, the chain writes everything to the database and
// closes it, then the monitoring endpoints stop. ctx bounds the wait for
// RPC requests in flight; the chain is always closed.
func (n *Node) Shutdown(ctx context.Context) error {
	switch n.state.Swap(stateStopped) {
	case stateStopped:
		return nil
	case stateNew:
		return n.chain.Close()
	}
	var errs []error
	n.lateMu.Lock() // the services started after sync are up, or will not be
	if n.rpc != nil {
		if err := n.rpc.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("RPC server: %w", err))
		}
	}
	if n.cons != nil {
		n.cons.Shutdown()
	}
	n.stopLateServices()
	n.lateMu.Unlock()
	n.stopServices()
	n.p2p.Shutdown()
	// Unsubscribe while the readers still drain their channels: the
	// chain's event goroutine may be blocked sending to one, and both
	// unsubscribing and closing the chain wait for it.
	if n.headers != nil {
		n.chain.Unsubscribe(n.headers)
	}
	if n.rpcEvent != nil {
		n.rpcEvent.stop(n)
	}
	close(n.stop)
	n.wg.Wait()
	height := n.chain.BlockHeight()
	if err := n.chain.Close(); err != nil {
		errs = append(errs, fmt.Errorf("closing the chain: %w", err))
	}
	for _, s := range []*metrics.Service{n.prom, n.pprof} {
		if s != nil {
			if err := s.Shutdown(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	}
	err := errors.Join(errs...)
	if err != nil {
		n.log.Error("node stopped with errors", "height", height, "err", err)
	} else {
		n.log.Info("node stopped", "height", height)
	}
	return err
}

// Chain returns the ledger.
func (n *Node) Chain() *core.Blockchain { return n.chain }

// Server returns the P2P server.
func (n *Node) Server() *network.Server { return n.p2p }

// Config returns the node's configuration (do not modify it).
func (n *Node) Config() *config.Config { return &n.cfg }

// Storage returns the database settings the node opened.
func (n *Node) Storage() storage.Options { return n.store }

// P2PAddresses returns the P2P listen addresses (after Start).
func (n *Node) P2PAddresses() []string { return n.p2p.ListenAddrs() }

// RPCAddresses returns the RPC listen addresses (empty when RPC is off or
// not started).
func (n *Node) RPCAddresses() []string { return n.rpcAddresses() }

func (n *Node) rpcAddresses() []string {
	n.rpcMu.RLock()
	defer n.rpcMu.RUnlock()
	if n.rpc == nil {
		return nil
	}
	return n.rpc.Addresses()
}

// setRPC replaces the RPC server (nil: none); the caller holds lateMu or
// runs before Start.
func (n *Node) setRPC(r *rpcserver.Server) {
	n.rpcMu.Lock()
	n.rpc = r
	n.rpcMu.Unlock()
}

// PrometheusAddresses and PprofAddresses return the monitoring listen
// addresses (empty when off).
func (n *Node) PrometheusAddresses() []string { return addrsOf(n.prom) }

// PprofAddresses returns the pprof listen addresses.
func (n *Node) PprofAddresses() []string { return addrsOf(n.pprof) }

func addrsOf(s *metrics.Service) []string {
	if s == nil {
		return nil
	}
	return s.Addresses()
}

// ValidatorKeys returns the public keys consensus signs with (none when
// consensus is off).
func (n *Node) ValidatorKeys() []*keys.PublicKey {
	_, ks := n.consensus()
	out := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		out[i] = k.PublicKey()
	}
	return out
}

// SetDatabase points a configuration at a database: engine (empty keeps
// the configured one, or pebble if none) and data directory dir (empty
// keeps the configured path). Pebble and LevelDB use dir itself, BoltDB
// the file chain.bolt in it.
func SetDatabase(cfg *config.Config, engine, dir string) error {
	d := &cfg.ApplicationConfiguration.DBConfiguration
	if engine == "" {
		engine = d.Type
	}
	e, err := storage.ParseEngine(engine)
	if err != nil {
		return err
	}
	path := d.Path()
	if dir != "" {
		path = dir
		if e == storage.EngineBolt {
			path = filepath.Join(dir, "chain.bolt")
		}
	}
	switch e {
	case storage.EnginePebble:
		d.Type = config.DBPebbleDB
		d.PebbleDBOptions.DataDirectoryPath = path
	case storage.EngineLevelDB:
		d.Type = config.DBLevelDB
		d.LevelDBOptions.DataDirectoryPath = path
	case storage.EngineBolt:
		d.Type = config.DBBoltDB
		d.BoltDBOptions.FilePath = path
	case storage.EngineMemory:
		d.Type = config.DBInMemory
	}
	return nil
}

func describeStore(o storage.Options) string {
	if o.Engine == storage.EngineMemory {
		return "the in-memory database"
	}
	return fmt.Sprintf("%s database %s", o.Engine, o.Path)
}

// describeStoreError explains the storage sentinels.
func describeStoreError(o storage.Options, err error) error {
	switch {
	case errors.Is(err, storage.ErrLocked):
		return fmt.Errorf("%w %s (%s): %w", ErrDatabaseLocked, o.Path, o.Engine, err)
	case errors.Is(err, storage.ErrCorrupt):
		return fmt.Errorf("%s is damaged or not a %s database: %w", describeStore(o), o.Engine, err)
	case errors.Is(err, storage.ErrNotExist):
		return fmt.Errorf("%s does not exist: %w", describeStore(o), err)
	}
	return fmt.Errorf("%s: %w", describeStore(o), err)
}

// metricsSource feeds the Prometheus gauges.
type metricsSource struct {
	n       *Node
	version string
}

func (s metricsSource) BlockHeight() uint32  { return s.n.chain.BlockHeight() }
func (s metricsSource) HeaderHeight() uint32 { return s.n.chain.HeaderHeight() }
func (s metricsSource) MempoolSize() int     { return s.n.chain.Mempool().Count() }
func (s metricsSource) PeerCount() int       { return s.n.p2p.PeerCount() }
func (s metricsSource) BlockQueueLen() int   { return s.n.p2p.BlockQueueLen() }
func (s metricsSource) PersistStats() (int64, int64, int) {
	return s.n.chain.PersistStats()
}
func (s metricsSource) PendingKeys() int        { return s.n.chain.PendingKeys() }
func (s metricsSource) WritesPaused() error     { return s.n.chain.WritesPaused() }
func (s metricsSource) PersistedHeight() uint32 { return s.n.chain.PersistedHeight() }
func (s metricsSource) KnownAddresses() int     { return len(s.n.p2p.UnconnectedPeers()) }
func (s metricsSource) NotaryPoolSize() int {
	if p := s.n.svc.notaryPool; p != nil {
		return p.Count()
	}
	return 0
}
func (s metricsSource) VerifiedStateHeight() uint32 {
	return s.n.chain.CurrentValidatedHeight()
}
func (s metricsSource) WSClients() int {
	s.n.rpcMu.RLock()
	defer s.n.rpcMu.RUnlock()
	if s.n.rpc == nil {
		return 0
	}
	return s.n.rpc.WSClients()
}
func (s metricsSource) Identity() (string, uint32) { return s.version, s.n.p2p.ID() }

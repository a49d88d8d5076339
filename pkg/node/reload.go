package node

// Reloading a running node's configuration (neo-go's SIGHUP, SIGUSR1 and
// SIGUSR2 handling in cli/server).

import (
	"context"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/metrics"
	"github.com/n3node/n3node/pkg/services/stateroot"
)

// ErrReloadIncompatible: the new configuration differs from the running
// one in more than what a reload applies (the node keeps running as it
// was; a restart applies it).
var ErrReloadIncompatible = errors.New("configuration changed in a way a reload cannot apply")

// CheckReload reports whether cfg may be applied to the running node by a
// reload: its ProtocolConfiguration must be the same, and its
// ApplicationConfiguration may differ only in the services (Oracle,
// P2PNotary, Pprof, Prometheus, RPC, StateRoot), LogLevel and Consensus
// (config.ApplicationConfiguration.EqualsButServices, as neo-go checks).
func (n *Node) CheckReload(cfg *config.Config) error {
	if !n.cfg.ProtocolConfiguration.Equals(&cfg.ProtocolConfiguration) {
		return fmt.Errorf("%w: ProtocolConfiguration changed", ErrReloadIncompatible)
	}
	if !n.cfg.ApplicationConfiguration.EqualsButServices(&cfg.ApplicationConfiguration) {
		return fmt.Errorf("%w: ApplicationConfiguration changed in incompatible way", ErrReloadIncompatible)
	}
	return nil
}

// lockForReload checks that cfg can be applied (CheckReload) and takes
// the late-services lock of a running node; on success the caller holds
// n.lateMu and unlocks it.
func (n *Node) lockForReload(cfg *config.Config) error {
	if err := n.CheckReload(cfg); err != nil {
		return err
	}
	n.lateMu.Lock()
	if n.state.Load() != stateRunning {
		n.lateMu.Unlock()
		return ErrState
	}
	return nil
}

// ReloadMonitoring applies cfg's RPC, Prometheus and Pprof sections to
// the running node (neo-go's SIGHUP): the RPC server is stopped (requests
// in flight finish within ctx) and, if cfg enables it, made anew from
// cfg and started (once synchronized with StartWhenSynchronized); the
// Prometheus and pprof endpoints are stopped and started again from cfg.
// WebSocket clients are disconnected. The log level is the caller's (it
// owns the logger). An error starting a service is returned: neo-go
// stops the node then, and so does `n3node run`.
//
// Prometheus turned on by a reload on a node started without it serves
// the gauges read at scrape time and the RPC counters; the block and P2P
// timings are collected from the next start on.
func (n *Node) ReloadMonitoring(ctx context.Context, cfg *config.Config) error {
	if err := n.lockForReload(cfg); err != nil {
		return err
	}
	defer n.lateMu.Unlock()
	app := &n.cfg.ApplicationConfiguration
	newApp := &cfg.ApplicationConfiguration
	var errs []error

	// Monitoring first, so that the new RPC server's methods are counted.
	for _, s := range []*metrics.Service{n.prom, n.pprof} {
		if s != nil {
			if err := s.Shutdown(ctx); err != nil {
				n.log.Warn("stopping a monitoring endpoint", "service", s.Name(), "err", err)
			}
		}
	}
	n.prom, n.pprof = nil, nil
	app.Prometheus, app.Pprof = newApp.Prometheus, newApp.Pprof
	if app.Prometheus.Enabled {
		if n.metrics == nil {
			if n.registry == nil {
				n.registry = metrics.NewRegistry()
			}
			n.metrics = metrics.NewNode(n.registry, metricsSource{n, n.version})
		}
		n.prom = metrics.NewPrometheus(app.Prometheus, n.registry, n.log)
	}
	if app.Pprof.Enabled {
		n.pprof = metrics.NewPprof(app.Pprof, n.log)
	}
	for _, s := range []*metrics.Service{n.prom, n.pprof} {
		if s != nil {
			if err := s.Start(); err != nil {
				errs = append(errs, fmt.Errorf("failed to start %s service: %w", s.Name(), err))
			}
		}
	}

	// RPC.
	app.RPC = newApp.RPC
	if err := n.restartRPC(ctx); err != nil {
		errs = append(errs, err)
	}
	app.LogLevel = newApp.LogLevel
	if len(errs) == 0 {
		n.log.Info("configuration reloaded", "rpc", n.rpcAddresses(), "prometheus", addrsOf(n.prom), "pprof", addrsOf(n.pprof))
	}
	return errors.Join(errs...)
}

// synced reports whether the P2P server has reported synchronization.
func (n *Node) synced() bool {
	select {
	case <-n.p2p.Synced():
		return true
	default:
		return false
	}
}

// restartRPC stops the RPC server (if any) and, when the RPC section
// enables it, makes and starts a new one (once synchronized with
// StartWhenSynchronized). The caller holds lateMu.
func (n *Node) restartRPC(ctx context.Context) error {
	if n.rpc != nil {
		if n.svc.notaryFeed != nil {
			n.svc.notaryFeed.stop()
			n.svc.notaryFeed = nil
		}
		if n.rpcEvent != nil {
			n.rpcEvent.stop(n)
			n.rpcEvent = nil
		}
		if err := n.rpc.Shutdown(ctx); err != nil {
			n.log.Warn("stopping the RPC server", "err", err)
		}
		n.setRPC(nil)
	}
	n.rpcLater = false
	rc := n.cfg.ApplicationConfiguration.RPC
	if !rc.Enabled {
		return nil
	}
	if err := n.buildRPC(); err != nil {
		return err
	}
	n.rpcEvent.start(n)
	if p := n.svc.notaryPool; p != nil {
		n.svc.notaryFeed = startNotaryFeed(n.rpc, p.Pool())
	}
	if rc.StartWhenSynchronized && !n.synced() {
		n.rpcLater = true
		return nil
	}
	if err := n.rpc.Start(); err != nil {
		return fmt.Errorf("RPC server: %w", err)
	}
	return nil
}

// ReloadServices applies cfg's Oracle, P2PNotary and StateRoot sections
// to the running node (neo-go's SIGUSR1): each of the three services is
// stopped and made anew from cfg (started at once if the node is
// synchronized). A service that cannot be made (a wallet that does not
// open) stays off and the error is returned; the node runs on. The RPC
// server is restarted when the Oracle service was or becomes on, so that
// submitoracleresponse reaches the new one (neo-go swaps the handler in
// place; n3node's RPC methods are bound when the server is made).
func (n *Node) ReloadServices(ctx context.Context, cfg *config.Config) error {
	if err := n.lockForReload(cfg); err != nil {
		return err
	}
	defer n.lateMu.Unlock()
	app, newApp := &n.cfg.ApplicationConfiguration, &cfg.ApplicationConfiguration
	synced := n.synced()
	s := &n.svc
	hadOracle := s.oracle != nil

	if s.oracle != nil {
		s.oracle.Shutdown()
		s.oracle = nil
	}
	app.Oracle = newApp.Oracle
	o, err := n.buildOracle(app.Oracle)
	if err != nil {
		return fmt.Errorf("failed to create oracle service: %w", err)
	}
	s.oracle = o
	if o != nil && synced {
		o.Start()
	}
	if (hadOracle || o != nil) && n.rpc != nil {
		if err := n.restartRPC(ctx); err != nil {
			return err
		}
	}

	if s.notary != nil {
		s.notary.Shutdown()
		s.notary = nil
	}
	app.P2PNotary = newApp.P2PNotary
	nt, err := n.buildNotary(app.P2PNotary)
	if err != nil {
		return fmt.Errorf("failed to create notary service: %w", err)
	}
	s.notary = nt
	if nt != nil && synced {
		nt.Start()
	}

	n.p2p.RemoveExtensibleHandler(stateroot.Category)
	s.stateRoot.Shutdown()
	app.StateRoot = newApp.StateRoot
	sr, err := n.buildStateRoot(app.StateRoot)
	if err != nil {
		// A StateService without keys still verifies validated roots.
		n.log.Error("failed to create state validation service", "err", err)
		app.StateRoot.Enabled = false
		if sr, err = n.buildStateRoot(app.StateRoot); err != nil {
			return err
		}
		defer func() { n.log.Warn("state root service runs without keys") }()
	}
	s.stateRoot = sr
	n.p2p.AddExtensibleHandler(stateroot.Category, sr.OnPayload)
	sr.Start()
	n.log.Info("services reloaded", "oracle", s.oracle != nil, "notary", s.notary != nil, "stateRootSigning", app.StateRoot.Enabled)
	return nil
}

// ReloadConsensus applies cfg's Consensus section to the running node
// (neo-go's SIGUSR2): the consensus service is stopped and, if cfg
// enables it, made anew with the wallet's keys and started once the node
// is synchronized. An error (a wallet that does not open) leaves
// consensus off; the node runs on.
func (n *Node) ReloadConsensus(_ context.Context, cfg *config.Config) error {
	if err := n.lockForReload(cfg); err != nil {
		return err
	}
	defer n.lateMu.Unlock()
	if cons, _ := n.consensus(); cons != nil {
		cons.Shutdown()
		n.setConsensus(nil, nil)
	}
	app := &n.cfg.ApplicationConfiguration
	app.Consensus = cfg.ApplicationConfiguration.Consensus
	if !app.Consensus.Enabled {
		n.log.Info("consensus stopped")
		return nil
	}
	cons, ks, err := n.buildConsensus(app.Consensus)
	if err != nil {
		return err
	}
	n.setConsensus(cons, ks)
	if n.headers == nil {
		n.headers = make(chan core.Event, 64)
		n.chain.Subscribe(n.headers, core.HeaderEvents)
		n.wg.Go(n.feedConsensus)
	}
	if n.synced() {
		cons.Start()
		n.log.Info("consensus started", "height", n.chain.BlockHeight())
	}
	return nil
}

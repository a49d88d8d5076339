package node

import (
	"context"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/node/rpcledger"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"

	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcserver"
)

// rpcConfig maps the RPC section and the protocol values the server needs
// to rpcserver.Config.
func (n *Node) rpcConfig() rpcserver.Config {
	c := n.chain.Config()
	r := n.cfg.ApplicationConfiguration.RPC.WithDefaults(c.TimePerBlock)
	return rpcserver.Config{
		Addresses: append([]string(nil), r.Addresses...),
		TLSConfig: rpcserver.TLSConfig{
			Enabled:   r.TLSConfig.Enabled,
			Addresses: append([]string(nil), r.TLSConfig.Addresses...),
			CertFile:  r.TLSConfig.CertFile,
			KeyFile:   r.TLSConfig.KeyFile,
		},
		EnableCORSWorkaround:        r.EnableCORSWorkaround,
		MaxRequestBodyBytes:         r.MaxRequestBodyBytes,
		MaxRequestHeaderBytes:       r.MaxRequestHeaderBytes,
		MaxWebSocketClients:         r.MaxWebSocketClients,
		MaxWebSocketFeeds:           r.MaxWebSocketFeeds,
		MempoolSubscriptionsEnabled: r.MempoolSubscriptionsEnabled,
		P2PSigExtensions:            c.P2PSigExtensions,
		MaxBlockSize:                c.MaxBlockSize,
		MaxGasInvoke:                int64(r.MaxGasInvoke),
		DirectRelay:                 r.DirectRelay,
		SessionEnabled:              r.SessionEnabled,
		SessionExpansionEnabled:     r.SessionExpansionEnabled,
		SessionLifetime:             r.SessionLifetime,
		SessionBackedByMPT:          r.SessionBackedByMPT,
		SessionPoolSize:             r.SessionPoolSize,
		TimePerBlock:                c.TimePerBlock,
		MaxIteratorResultItems:      r.MaxIteratorResultItems,
		MaxFindResultItems:          r.MaxFindResultItems,
		MaxFindStorageResultItems:   r.MaxFindStorageResultItems,
		MaxNEP11Tokens:              r.MaxNEP11Tokens,
		Logger:                      n.log.With("module", "rpc"),
	}
}

// buildRPC makes the RPC server and registers the chain methods.
func (n *Node) buildRPC() error {
	n.setRPC(rpcserver.New(n.rpcConfig()))
	return n.registerMethods()
}

// register adds a method, counted in the metrics when they are on.
func (n *Node) register(name string, h func(neorpc.Params) (any, *neorpc.Error)) error {
	m := n.metrics
	m.AddRPCMethod(name)
	if m == nil {
		return n.rpc.Register(name, func(_ context.Context, p neorpc.Params) (any, *neorpc.Error) { return h(p) })
	}
	return n.rpc.Register(name, func(_ context.Context, p neorpc.Params) (any, *neorpc.Error) {
		start := time.Now()
		res, err := h(p)
		m.ObserveRPC(name, time.Since(start), err == nil)
		return res, err
	})
}

// registerMethods registers the chain methods (package chainrpc over the
// ledger), each counted in the metrics when they are on.
func (n *Node) registerMethods() error {
	svc := chainrpc.New(rpcledger.New(n.chain), n.rpc, n.rpcOptions())
	for _, name := range svc.Methods() {
		if err := n.register(name, func(p neorpc.Params) (any, *neorpc.Error) { return svc.Call(name, p) }); err != nil {
			return err
		}
	}
	n.rpcEvent = &rpcEvents{}
	return nil
}

// rpcEvents feeds the chain's and the memory pool's events to WebSocket
// subscribers, in the chain's order. It takes them from the chain only
// while some client subscribes (as neo-go's RPC server does): with nobody
// listening, every transaction, notification and execution would otherwise
// pass through a few goroutines for nothing.
type rpcEvents struct {
	mu          sync.Mutex
	stopped     bool
	unsubscribe func()             // from the chain; nil while off
	cancel      context.CancelFunc // the feeder's
	done        chan struct{}      // closed when the feeder has returned
}

func (e *rpcEvents) start(n *Node) {
	n.rpc.OnSubscriptionChange(func() { e.reconcile(n) })
	e.reconcile(n)
}

// reconcile takes the chain's events if some client subscribes and drops
// them if none does. It is called after every change of the subscriptions
// (before a subscribe is answered, so the new subscriber sees the next
// event).
func (e *rpcEvents) reconcile(n *Node) {
	e.mu.Lock()
	defer e.mu.Unlock()
	want := !e.stopped && n.rpc.HasAnySubscribers()
	switch {
	case want && e.unsubscribe == nil:
		events, unsubscribe := rpcledger.Subscribe(n.chain, true)
		ctx, cancel := context.WithCancel(context.Background())
		e.unsubscribe, e.cancel, e.done = unsubscribe, cancel, make(chan struct{})
		feeder := chainrpc.NewFeeder(n.rpc)
		go func(done chan struct{}) {
			defer close(done)
			feeder.Run(ctx, events)
		}(e.done)
	case !want && e.unsubscribe != nil:
		e.off()
	}
}

// off unsubscribes (draining what the chain is delivering) and waits for
// the feeder; e.mu is held.
func (e *rpcEvents) off() {
	e.unsubscribe()
	e.cancel()
	<-e.done
	e.unsubscribe, e.cancel, e.done = nil, nil, nil
}

// stop turns the events off for good.
func (e *rpcEvents) stop(*Node) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stopped = true
	if e.unsubscribe != nil {
		e.off()
	}
}

// rpcNetwork is the P2P server as the chain methods see it, with the
// first listen address's announced port.
func (n *Node) rpcNetwork() *rpcledger.Network {
	var announced uint16
	if addrs, err := n.cfg.ApplicationConfiguration.GetAddresses(); err == nil && len(addrs) > 0 {
		announced = addrs[0].AnnouncedPort
	}
	return rpcledger.NewNetwork(n.p2p, n.userAgent, announced)
}

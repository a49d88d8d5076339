package node

import (
	"context"
	"time"

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
	n.rpc = rpcserver.New(n.rpcConfig())
	return n.registerMethods()
}

// register adds a method, counted in the metrics when they are on.
func (n *Node) register(name string, h func(neorpc.Params) (any, *neorpc.Error)) error {
	m := n.metrics
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

// rpcEvents feeds chain events to WebSocket subscribers.
type rpcEvents struct{}

func (e *rpcEvents) start(*Node) {}
func (e *rpcEvents) stop(*Node)  {}

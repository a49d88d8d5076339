// Package metrics serves the node's monitoring endpoints: Prometheus
// metrics and Go's pprof profiles, each on its own HTTP listeners, both
// off unless the configuration enables them (ApplicationConfiguration.
// Prometheus and Pprof, as in neo-go).
//
// # Using it
//
//	reg := metrics.NewRegistry()             // Go runtime + process metrics
//	m := metrics.NewNode(reg, source)        // chain, pool, peers, persist
//	svc := metrics.NewPrometheus(cfg.Prometheus, reg, log)
//	err := svc.Start()                       // no-op when disabled
//	...
//	svc.Shutdown(ctx)
//
// Node reads the gauges from its Source when Prometheus scrapes (nothing is
// computed on the node's hot paths); the node reports block persist times
// with ObserveBlock, RPC calls with ObserveRPC (after AddRPCMethod) and P2P
// message handling with ObserveP2P.
//
// Every metric is exported twice where neo-go has it: under n3node's
// names (Namespace) and under neo-go 0.120.0's exact names (NeoGoNamespace:
// neogo_block_height, neogo_p2p_cmdtx_time, neogo_rpc_getversion_time...),
// so that dashboards and alerts written for neo-go work unchanged.
//
// # Invariants
//
// A Service listens only on its configured addresses and only when it is
// enabled; Start binds every listener before serving, so a port conflict
// is an error of Start, not a log line later. Shutdown stops the listeners
// and waits for requests in flight (until its context ends).
package metrics

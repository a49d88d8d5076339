// Package node assembles a running Neo N3 node from a configuration:
// the database, the ledger (core.Blockchain) and its memory pool, the P2P
// server, dBFT consensus, the JSON-RPC server and the monitoring
// endpoints, with the adapters between them.
//
// # Using it
//
//	cfg, _ := config.LoadNetwork("privnet")
//	n, err := node.New(&cfg, node.Options{Logger: log}) // opens the database
//	err = n.Start(ctx)     // serves; logs where everything is
//	...
//	err = n.Shutdown(ctx)  // everything persisted, database closed
//
// # Wiring
//
//   - The P2P server gets the chain through an adapter (network.Ledger):
//     received blocks and headers, transactions to pool, and the
//     extensible payload check (sender whitelist of C#
//     Blockchain.ExtensibleWitnessWhiteList, witness within 0.06 GAS). The
//     memory pool's resend of stale transactions goes to AnnounceTx.
//   - Consensus (when enabled) gets the chain as consensus.Ledger (its
//     blocks are added, then announced with RelayBlock; proposals are
//     checked in a scratch pool as neo-go does), the memory pool, and the
//     P2P server as Broadcaster. "dBFT" extensible payloads are passed to
//     OnPayload as they are; transactions requested by
//     consensus reach OnTransaction through the server's tx hook; every
//     added block's header reaches OnNewBlock from a chain subscription.
//     Consensus starts once the P2P server reports synchronization (at
//     once with MinPeers 0).
//   - RPC (when enabled) serves the chain methods of package chainrpc
//     over rpcledger's adapter of the chain, with the P2P server as its
//     Network (sendrawtransaction relays); the chain's and the memory
//     pool's events reach WebSocket subscribers through chainrpc's Feeder,
//     taken from the chain only while some client subscribes (as in
//     neo-go; the subscribe answer waits for it).
//     With StartWhenSynchronized it starts with consensus.
//   - Prometheus and pprof (off by default) start first and stop last.
//
// # Lifecycle
//
// New opens everything that can fail early (database, wallet, listeners'
// settings) and closes what it opened on error; a locked database is
// ErrDatabaseLocked. Start begins serving. Shutdown stops RPC (requests in
// flight finish within its context), consensus, the P2P server, then
// closes the chain, which writes every block it accepted to the database,
// then the monitoring endpoints. A node runs once: after Shutdown make a
// new one (on the same database it continues from the persisted height).
package node

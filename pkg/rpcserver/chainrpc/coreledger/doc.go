// Package coreledger connects the chain methods (package chainrpc) to the
// node: Ledger adapts core.Blockchain to chainrpc.Ledger, Network adapts
// the P2P server (network.Server) to chainrpc.Network, Subscribe turns the
// chain's and the memory pool's subscriptions into one ordered
// chainrpc.ChainEvent stream for a chainrpc.Feeder, and ClassifyRelayError
// gives the ledger's verification errors their sendrawtransaction codes.
//
// Its tests are the RPC differential tests against neo-go 0.120.0: the
// reference chain (testdata/refchain) restored and served, the recorded
// answers (the fixture's and this package's testdata) replayed, and, with
// N3NODE_NEOGO=1, the same queries, iterator sessions and WebSocket events
// sent to a live neo-go node (docs/rpc-methods.md).
//
// Ownership: the adapters hold the chain and the server they wrap; values
// they return are the chain's shared ones or fresh copies as chainrpc's
// interfaces document.
package coreledger

// Package rpcledger holds the node's adapters for the chain methods
// (package chainrpc), next to the node's other adapters (pkg/node's
// chainLedger and consensusLedger): Ledger presents core.Blockchain as a
// chainrpc.Ledger (the chain's own queries, with neo-go's "key not found"
// texts and RPC-shaped results), Network the P2P server as a
// chainrpc.Network, Notary the notary request pool as a chainrpc.Notary,
// Subscribe the chain's one ordered event stream (core.Event, block and
// memory pool events) as chainrpc.ChainEvents for a chainrpc.Feeder,
// and ClassifyRelayError gives the ledger's verification errors their
// sendrawtransaction codes. pkg/node uses each of them; the tests use the
// same ones.
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
package rpcledger

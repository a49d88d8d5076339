// Package refchain holds the reference chain: a private Neo N3 chain built by
// neo-go 0.120.0 (the reference node), dumped to testdata/refchain/chain.acc,
// together with neo-go's JSON-RPC answers about it (blocks, state roots,
// application logs, transactions, balances, contract state, proofs, errors)
// recorded as request/response pairs under testdata/refchain/rpc/.
//
// n3node's ledger tests restore chain.acc and compare every height's state
// root and every application log with these records; its RPC tests replay the
// records against an n3node RPC server and compare the answers (see Replay).
// The family: chaingen generates the chain (it needs the neo-go binary),
// neogo runs neo-go nodes, ledgerdiff restores a fixture into an n3node
// ledger and reports every state root and application log that differs,
// cmd/refchain rewrites the fixtures. The generator needs the neo-go binary;
// this package does not: Load, Check and the chain.acc reader work on the
// committed files alone. docs/refchain.md describes the scenario and the
// fixture formats.
//
// The chain.acc reader and block decoder here are deliberately independent of
// pkg/core (they parse just enough to find block and transaction hashes), so
// that the fixture checks do not depend on the code the fixtures test.
//
// Ownership: slices returned by Load and ReadChainAcc are owned by the
// caller; decoded blocks alias the raw bytes they were decoded from.
package refchain

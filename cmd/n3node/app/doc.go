// Package app assembles the n3node command line: New returns the root
// command with one subcommand per command family. Each family lives in a
// subpackage of its own that parses flags and calls into pkg/ (the
// commands stay thin):
//
//	nodecmd      run: a node from a configuration (pkg/node)
//	dbcmd        db restore, dump, dump-bin, state: the chain database offline (pkg/core, pkg/core/chaindump)
//	querycmd     query: candidates, committee, height, notarypool, tx, voter
//	walletcmd    wallet (with nep17, nep11 and candidate): wallet files, keys, transfers, votes
//	contractcmd  contract deploy, update, destroy, invokefunction, testinvokefunction, testinvokescript;
//	             compile, init, inspect, calc-hash, manifest add-group, generate-wrapper,
//	             generate-rpcwrapper
//	utilcmd      util convert, ops, txdump, sendtx, canceltx
//	vmcmd        vm run: scripts on a bare VM; vm: the interactive VM over an in-memory chain
//	benchcmd     bench: the TPS benchmark, its transaction cache and reports (pkg/bench)
//
// Three packages hold what the families share:
//
//	console      standard streams of a command (the root's, set by tests), prompts, passwords
//	listing      a script's instruction table as neo-go prints it (util ops, query tx -v, contract inspect)
//	txsend       wallets, RPC connections, signers and contract arguments, transaction
//	             flags, signing and sending (the wallet and contract commands)
//
// A family exports Command() (nodecmd.Command(version)); a new command goes
// into its family's package, a new family into a new package added to New.
// The tests of this package run the whole command line: wallet_test.go the
// wallet and contract commands in process against a fake node
// (pkg/rpcclient/rpctest), run_e2e_test.go the built binary and the wallet
// scenario against an in-process node, wallet_e2e_test.go the same scenario
// against neo-go 0.120.0 (N3NODE_NEOGO=1, make wallet-e2e).
package app

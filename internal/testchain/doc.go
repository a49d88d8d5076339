// Package testchain is the signed single-validator chain of the tests: a
// real core.Blockchain (in memory unless a store is given) with one
// consensus validator, chaintest.CommitteeKey, which is also the committee
// and whose 1-of-1 multisig account holds the genesis NEO and GAS. Blocks
// are signed, so they pass header verification; transactions go through
// the ledger's verification and memory pool. On top of it: transactions
// signed by the committee or by any key, committee runs (designations,
// deployments, GAS transfers) and a small storage contract to grow the
// state trie. Every helper fails the test on error.
//
// # Which harness at which level
//
//   - Native contracts, interop, the VM above the ledger: internal/chaintest
//     (no core.Blockchain, no signatures; blocks persisted straight through
//     the natives — the fastest way to run a script in a block).
//   - The ledger itself and everything that needs a real core.Blockchain
//     with verification: this package (pkg/core's own tests, state sync,
//     the oracle, notary and StateRoot services).
//   - Whole nodes (P2P, RPC, consensus) in one process: pkg/node's tests;
//     as separate processes, internal/multinode.
//   - Against the reference: internal/refchain (the recorded neo-go chain)
//     and the nested module internal/neogodiff.
//   - Load: internal/benchchain.
//
// # Fakes
//
// One convention across the tree: a test replaces a dependency only through
// an interface the package under test declares itself (consensus.Ledger,
// network.Ledger, statesync's ledger, chainrpc.Ledger, a clock), with a
// type named fake<Thing> (fakeLedger, fakeClock, fakeBroadcaster) in the
// package's own test files (fakes_test.go or helpers_test.go), implementing
// only the methods the interface has and keeping state in plain fields the
// test reads. A fake more than one package needs lives in a <pkg>test
// package beside the interface (pkg/core/storage/storagetest,
// pkg/rpcclient/rpctest), or in <pkg>/internal/fake<thing> when only that
// package's tree needs it (pkg/network/internal/fakechain). Concrete types (core.Blockchain) are never faked:
// use this package's real chain instead.
package testchain

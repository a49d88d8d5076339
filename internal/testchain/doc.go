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
// A package's tests declare fakes of the narrow interfaces the package
// itself declares (pkg/consensus's Ledger, pkg/network's Ledger, ...) in a
// file named fakes_test.go, type names starting with "fake" (fakeLedger),
// implementing only what the test needs and embedding the interface for the
// rest so a missing method panics loudly. A fake used by more than one
// package lives in the package that declares the interface, in a
// subpackage named <pkg>test (storagetest, rpctest). A real chain from this
// package beats a fake of core.Blockchain: write a fake only for an
// interface, never for a concrete type.
package testchain

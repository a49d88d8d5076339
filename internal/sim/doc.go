// Package sim is a deterministic simulator of a Neo N3 network: 4 or 7
// validators and an RPC node in one goroutine, each with the real ledger
// (core.Blockchain over a memory "disk" behind a storagetest.FaultStore,
// with its memory pool and state roots) and, for validators, the real
// dBFT Service (pkg/consensus, driven through its Stepper), exchanging
// real signed consensus payloads and blocks over a simulated network and
// clock. All randomness comes from one seed, so a run is a function of
// its seed and configuration.
//
// # What it injects
//
// Message delay, jitter (reordering), loss and duplication; network
// partitions that form and heal and isolated nodes; crashes with restarts
// that lose every write since the node's last persist; clock skew; bursts
// of loss. Byzantine validators (at most f) run the honest Service but
// change what it sends: an equivocating primary, withheld commits,
// change-view floods, replays of old payloads, payloads signed for
// another network, invalid or oversized proposals.
//
// # What it checks
//
// At every block: no two different blocks at one height, the same state
// root at each height on every node. Throughout: the event queue and each
// node's out-of-order blocks stay bounded. After the fault phase, a calm
// phase (every node up, one network, no loss; skew and Byzantine
// behaviour stay) in which every honest node must add LiveBlocks blocks
// (liveness once at least 2f+1 honest validators are connected). The
// test checks for leaked goroutines at the end.
//
// # Use
//
//	make sim SEEDS=200           # seeds 1..200, odd: 4 validators, even: 7;
//	                             # every third seed has Byzantine validators
//	make sim SEED=123            # one seed, verbose, with its fault schedule
//	make sim-smoke               # the CI run
//
// A failure prints the seed, the invariant and the fault schedule; the
// same command with SEED= reproduces it. A seed that found a bug goes into
// regressionSeeds in sim_test.go.
//
// # What it does not model
//
// The P2P server (pkg/network): its peers are goroutines on sockets, so
// it cannot be scheduled deterministically here; payloads and blocks go
// straight from node to node, relay and sync are modelled (blocks are
// announced to every reachable node and fetched every second from a
// reachable peer ahead), as is transaction relay (a transaction every
// 100-600 ms, paid by a single-signature account the genesis block funds
// from the validators' multi-signature account, pooled by
// the real mempool of a random node and relayed to the nodes it reaches;
// a consensus asking for transactions gets them from a reachable node).
//
// Liveness is not required when a Byzantine validator sends conflicting
// votes (equivocation, a Commit beside ChangeViews, a withheld Commit
// beside ChangeViews): dBFT 2.0's commit lock lets such a validator split
// the honest ones across views for good (docs/reliability.md); safety
// is checked all the same.
package sim

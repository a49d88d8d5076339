// Package multinode runs networks of Neo N3 nodes as separate processes on
// loopback for integration tests and benchmarks: n3node validators,
// neo-go 0.120.0 validators, or any mix, plus nodes without consensus.
//
// Every network is neo-go's 4-node private network (magic 56753, the
// standby committee of wallet1..wallet4.json, which pkg/config embeds)
// with the settings of a Protocol: block time, limits, hardforks (all from
// genesis by default). New picks free ports, writes one neo-go style
// configuration per node (both implementations read the same YAML; the
// seed list of each node names every other node) and the validator's
// wallet into the node's directory; Start launches the processes and waits
// for their RPC servers. A Node can be stopped (SIGTERM, clean exit
// checked), killed (SIGKILL) and started again on the same database; its
// output goes to node.log in its directory.
//
// The RPC helpers read heights, block hashes, state roots, headers and
// application logs; CompareChains and WaitTransaction check that nodes
// agree. Committee signs GAS transfers from the validators' multisig
// account, which holds the genesis funds. Rogue is a hand-driven P2P peer
// (pkg/network/message) for misbehaviour tests. BenchProtocol and
// BenchSpecs describe neo-bench's 4-node throughput network (4 validators
// and an RPC node, 5-second blocks); Network.RunBench runs pkg/bench
// against its RPC node and samples the CPU and RSS of every node.
//
// Caller obligations: stop or kill every started node (Network.Close);
// the harness sets the parent-death signal on Linux so that nodes die
// with a crashed test. Nothing here is safe for concurrent use on one
// Node except the read-only RPC helpers and RSS.
//
// The integration tests of this package run with N3NODE_MULTINODE=1 (see
// docs/multinode.md and `make multinode`), the throughput comparison with
// N3NODE_MULTINODE_BENCH=1 (`make bench-4node`).
package multinode

// Package chaos runs a network of real node processes (internal/multinode:
// n3node and neo-go 0.120.0 validators) through a fault-injecting proxy
// and checks that it stays safe and live.
//
// # The proxy
//
// Proxy listens on one loopback port per ordered pair of nodes; node i's
// seed list names Addr(i, j) for every other node j
// (multinode.Options.Seed), so every connection between two nodes passes
// the proxy, which knows who dialed whom. It reads Neo P2P frames (flags,
// command, var-int length, payload; FrameReader, without decoding
// payloads) and forwards whole frames, each after a Decision drawn from a
// Decider seeded by the run's seed and the stream (link, connection
// number, direction): dropped, delayed, sent twice, or held back so that
// later frames overtake it. Version and verack frames are only delayed.
// A partition (Partition, Heal) either drops every frame across the cut
// and keeps the connections (Blackhole) or closes them and refuses new
// ones (Cut). The TcpServer ports of version and addr frames are
// rewritten to the receiver's link to the announced node, so that
// addresses nodes learn from each other lead through the proxy too, and
// each node sees one address per peer.
//
// # A run
//
// Run starts the network and repeats phases of Schedule(seed, nodes, i)
// until the configured duration has passed. A phase holds one fault for
// 5..25 s (a 2+2 or 3+1 partition, a node killed with SIGKILL or stopped
// with SIGTERM, or lossy message faults), ends it (heal, start the node
// again on its database, calm faults), then waits until every node is
// above the highest height any node had when the fault ended; that must
// happen within Bound(fault length, block time). Outside lossy phases the
// frames see CalmFaults (delay, duplication, reordering, no loss).
// Throughout, a checker compares every node's block hash and state root
// (getstateroot) at every height it reaches with the first node's that
// reported that height, and the committee sends a transfer every two
// seconds to a running node. At the end all faults stop, all nodes must
// make two more blocks, and their chains are compared from genesis
// (multinode.CompareChains). The phases are known from the seed before
// the run starts; the per-frame decisions repeat for the same frame
// sequence, which real processes do not repeat exactly.
//
// TestChaos (N3NODE_CHAOS=1, `make chaos`, `make chaos-smoke`) runs 2
// n3node and 2 neo-go validators; see docs/reliability.md.
//
// Nothing here is safe for concurrent use except Proxy's methods.
package chaos

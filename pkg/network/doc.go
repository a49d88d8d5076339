// Package network is the node's P2P layer: a Server that speaks the Neo N3
// protocol with C# and neo-go nodes (framing and payloads live in the
// message, payload and capability subpackages), keeps a set of peers,
// relays transactions, blocks and extensible payloads, and syncs the
// ledger.
//
// # Using it
//
// The node implements two interfaces and builds a ServerConfig (from its
// configuration with NewServerConfig):
//
//	srv, err := network.NewServer(cfg, ledger, mempool) // Ledger, Mempool
//	srv.AddExtensibleHandler(payload.ConsensusCategory, consensus.OnPayload)
//	err = srv.Start()          // listens, dials seeds, starts syncing
//	<-srv.Synced()             // then start consensus and other services
//	srv.RelayTx(tx)            // transactions from RPC
//	srv.RelayBlock(b)          // blocks the ledger got from consensus
//	srv.BroadcastExtensible(p) // consensus messages
//	srv.Shutdown()
//
// Ledger and Mempool methods must be safe for concurrent use. Values
// handed to the server (transactions, blocks, payloads) are shared
// between goroutines and must not change afterwards; their lazily cached
// hashes are computed before they are shared (decoded values have them
// already; RelayTx, RelayBlock and BroadcastExtensible compute them).
// An ExtensibleHandler runs in the sending peer's goroutine; it must not
// block for long, and an error it returns drops that peer.
//
// # Structure
//
// Each peer has three goroutines: a reader that decodes messages, a
// handler that processes them in order (a slow handler delays only its
// peer; the reader stays a few messages ahead), and a writer that drains
// three queues: high priority (handshake, ping/pong, consensus), replies,
// and broadcasts. The server adds an accept loop per listener, a
// maintenance loop (timeouts, dialing, getaddr), a ping loop, the sync
// loop, the block queue, block relay, transaction verification workers
// and a transaction announcement batcher. Shutdown stops and waits for all
// of them.
//
// # Rules
//
// Handshake: both sides send version at once; the first message must be
// version (right magic, not our own nonce, not a node we are already
// connected to), the second verack; anything else drops the peer, as does
// no handshake within HandshakeTimeout. Of two connections to one node
// both ends keep the one dialed by the node with the lower id.
// Pings go out when the chain has not moved for PingInterval; a pong that
// does not come within PingTimeout, or one nobody asked for, drops the
// peer. So does an addr nobody asked for, an invalid or unknown message,
// and a block that contradicts a known header.
//
// Relay: transactions and blocks are announced (inv) to a random two
// thirds of the full-node peers (all of them at BroadcastFactor 100);
// consensus payloads, pings and getaddr go to every peer. An item is
// requested once however many peers announce it, and not at all if it is
// in the pool or the chain; a transaction several peers send at once is
// verified once.
//
// Sync: headers first (one getheaders at a time, to a random peer that is
// ahead), then blocks, in ranges of up to 500 by getblockbyindex, spread
// over the peers that have them and limited to the heights the block queue
// can hold. A request unanswered within SyncTimeout is asked of another
// peer; a peer that leaves three in a row unanswered is dropped.
//
// Addresses: a dial that fails counts against its address; after
// MaxDialAttempts failures in a row the address is gone and never dialed
// again (seeds are retried forever), with the wait doubling after each
// failure. A remote that hangs up before the handshake is busy and is
// retried later; a peer that broke the protocol is banned.
//
// Clock and randomness come from ServerConfig.Now and ServerConfig.Rand;
// the decisions that depend on time (timeouts, backoff, sync retries) read
// Now, so they can be driven by a fake clock.
package network

// Package consensus runs dBFT 2.0, Neo N3's consensus, for one node: it
// wires github.com/nspcc-dev/dbft v0.4.0 (the state machine neo-go uses) to
// the node's ledger, memory pool and P2P layer. Messages are those of
// package message, byte for byte as C# and neo-go write them.
//
// # Using it
//
// The node builds a Service with New(Config{...}) and implements three
// small interfaces for it:
//
//   - Ledger: the chain (height, current hash, headers, validators of the
//     next block and of the one after, the block interval, verification of
//     a proposal's transactions, AddBlock for the blocks agreed on);
//   - Mempool: verified transactions best first, lookup, and a
//     "transaction added" notification (core/mempool.Pool fits);
//   - Broadcaster: relay an extensible payload this node signed, ask peers
//     for missing transactions, and stop waiting for them.
//
// Its obligations towards the Service:
//
//   - call Start once the node has peers, and Shutdown when it stops;
//   - pass every extensible payload of category "dBFT" to OnPayload (the
//     network checks the envelope; OnPayload checks that the validator
//     named in the message sent and signed it, and drops the rest);
//   - pass transactions that arrive after RequestTx to OnTransaction;
//   - call OnNewBlock for every block the chain persists, the node's own
//     included (it never blocks);
//   - never call back into the Service from Ledger or Broadcaster methods
//     synchronously, except OnNewBlock.
//
// The Service signs with the one of Config.Keys that is among the
// validators of the round; with none, it only watches.
//
// # Structure
//
// dbft is a deterministic state machine driven by events: received
// payloads, timeouts, transactions, new blocks. The Service feeds it from
// one goroutine (the event loop), so dbft and its callbacks never run
// concurrently; OnPayload, OnTransaction and OnNewBlock only queue. Time
// comes from an injectable Clock: the round timer (dbft.Timer) arms clock
// timers, and block timestamps are the clock's milliseconds. The tests run
// whole networks in one goroutine on a fake clock; a Stepper drives a
// Service from the caller's goroutine without the event loop, and
// Config.Nonce makes its proposals reproducible (internal/sim). An agreed
// block the ledger refuses (its database refuses writes) is offered again
// every 500 ms until the ledger takes it or moves past its height.
//
// What the Service adds to dbft, following neo-go v0.120.0 unless noted:
//
//   - proposals take the mempool's best transactions, cut to
//     MaxTransactionsPerBlock, MaxBlockSize (with the validators' witness
//     counted) and MaxBlockSystemFee; in later views the previous proposal
//     is reused if at least half of it is still pooled;
//   - a proposal is accepted only with the right previous hash and
//     version, no more transactions than allowed, a timestamp after the
//     previous block's and at most 8 block intervals ahead of the local
//     clock (C#), within the size and fee limits, and with transactions the
//     ledger accepts as a set;
//   - NextConsensus is the BFT address of the validators the ledger
//     computes for the block after; the block witness is the validators'
//     M-of-N multi-signature script with the Commit signatures of the final
//     view in key order;
//   - recovery messages: the payloads rebuilt from them are used only if
//     their signatures verify (C#; neo-go takes them unchecked), and a
//     change view, whose reason the compact form drops, is rebuilt with the
//     reason its signature verifies with;
//   - change views for TxInvalid and TxRejectedByPolicy carry the rejected
//     hashes (C# 3.10 form; older nodes ignore the extra bytes).
//   - recovery replies are bounded: a payload whose only effect is a
//     recovery message (a RecoveryRequest, a ChangeView for a view already
//     reached or received after this node committed) is answered at most
//     once per validator and half block time in a round; the others are
//     dropped before dbft (replylimit.go; dbft and neo-go answer each, so
//     ChangeView floods were amplified).
//   - a validator restarted past genesis holds the payloads of its height
//     until recovery messages from f+1 validators have come (or its timer
//     fires), then hands them to dbft highest view first, so it does not
//     commit in a view it had voted to leave before the restart; its own
//     PrepareResponse in a recovery message is not taken back (dbft would
//     then ignore the transactions it lacks), and a restarted primary that
//     took its own proposal back takes it again once its pool has the
//     transactions it lacked (dbft takes them only as a backup)
//     (restart.go).
//
// With StateRootInHeader (neo-go's extension) proposals carry the local
// state root of the previous block and the Ledger must implement
// StateRootLedger. Not supported: dbft's anti-MEV extension (not part of
// N3).
package consensus

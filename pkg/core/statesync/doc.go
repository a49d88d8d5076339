// Package statesync bootstraps a node from a state sync point instead of
// replaying the chain from genesis (neo-go's P2PStateExchangeExtensions),
// and serves the MPT nodes other nodes need to do so.
//
// # Stages
//
// A sync point P is a multiple of Config.Interval (StateSyncInterval). A
// node at genesis whose peers are at height H starts with
// P = H / Interval * Interval (Init; nothing happens if P < 2*Interval or
// the chain is within 2*Interval of P) and then:
//
//  1. fetches headers up to P+1 (the network's regular header sync);
//  2. fetches the state trie of P node by node: an mpt.Billet starts from
//     the trusted root of P and keeps the hashes still missing
//     (MissingMPTNodes → getmptdata); the nodes that arrive (mptdata →
//     AddMPTNodes) are checked by hash, stored, and their leaves written as
//     contract storage items under the STTempStorage prefix;
//  3. fetches the blocks (P-MaxTraceableBlocks, P] (MaxTraceableBlocks from
//     the restored Policy state from HF_Echidna on) and stores them without
//     executing them (AddBlock → Ledger.AddSyncBlock);
//  4. jumps: Ledger.JumpToState replaces the contract storage by the
//     synced one and makes block P current with the trie at P. The node
//     then syncs the regular way from P+1.
//
// The sync point, the MPT nodes, the temporary storage items and the block
// height are all in the chain's store, so a node restarted in the middle
// resumes (Init finds the point; the billet finds the stored nodes). The
// jump is recorded in stages and resumed when the chain is opened again.
//
// # Trust
//
// The root of P comes from Config.Root. neo-go takes it from the
// PrevStateRoot field of header P+1 (it requires StateRootInHeader for the
// extension); the node does the same on StateRootInHeader networks and
// otherwise supplies the root it trusts: one the operator configured. Every
// node received must hash into that root, so peers cannot forge state;
// headers are verified by the ledger and blocks must match them.
//
// # Serving
//
// ServeMPTNodes answers getmptdata as neo-go does: for each requested
// hash, the subtree below it in pre-order, each node once, up to a size
// limit (MaxServedBytes, smaller than neo-go's). Any node serves, whether it
// syncs or not.
//
// # Use
//
//	m := statesync.New(statesync.Config{Sync: cfg.P2PStateExchangeExtensions && cfg.RemoveUntraceableBlocks,
//		Interval: uint32(cfg.StateSyncInterval), MaxTraceableBlocks: cfg.MaxTraceableBlocks,
//		Mode: stateroot.ModeFor(cfg.Ledger), Root: trustedRoot}, bc)
//	srv.SetStateSync(m) // before srv.Start: the server drives the module
//
// # Concurrency and ownership
//
// All methods are safe for concurrent use. AddMPTNodes and AddBlock keep
// nothing they are given beyond the call (stored values are copies).
package statesync

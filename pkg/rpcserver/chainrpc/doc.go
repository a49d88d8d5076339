// Package chainrpc implements the chain methods of the JSON-RPC server:
// every method neo-go 0.120.0 serves besides the ledger-free built-ins of
// package rpcserver (validateaddress, traverseiterator, terminatesession,
// subscribe, unsubscribe), with neo-go's parameters, results (package
// neorpc/result), error codes and texts.
//
// # Wiring
//
//	srv := rpcserver.New(cfg)
//	svc := chainrpc.New(ledger, srv, chainrpc.Options{Network: p2p, Oracle: orc})
//	svc.Register()                       // before srv.Start
//	go chainrpc.NewFeeder(srv).Run(ctx, events) // WebSocket notifications
//
// The package declares what it needs of the node as interfaces: Ledger
// (blocks, transactions, execution results, contracts, storage, state
// roots and proofs, governance, token transfer logs, the memory pool, test
// invocations, relaying), Network (peers, version data, transaction
// relay), OracleHandler and Notary. Package coreledger adapts the node's
// core.Blockchain to Ledger.
//
// # Invocations
//
// invoke* methods run on a context the Ledger prepares (current or
// historic state) with the server's MaxGasInvoke. Iterators on the result
// stack are expanded in place (no sessions, or session expansion) or kept
// in a session of the server's SessionStore for traverseiterator; the
// execution is finalized when its session ends. Verbose invocations add
// the invocation tree (from the VM's Loaded hook) and the storage changes
// of the execution layer, sorted by key.
//
// # Errors
//
// Relay failures (sendrawtransaction, submitblock, submitnotaryrequest)
// are classified by RelayError values the Ledger, Network or Notary
// return; anything else answers -500.
//
// # Ownership
//
// Results reference the ledger's shared blocks, transactions and
// contracts; they are encoded and dropped by the server.
package chainrpc

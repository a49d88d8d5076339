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
// The package declares what it needs of the node as interfaces: Ledger,
// the union of one narrow interface per family of methods (Blocks,
// Contracts, Policy, States, Invoker, TokenIndex, Relay; each family's
// handlers live in the file named for it), Network (peers, version data,
// transaction relay), OracleHandler and Notary. Package pkg/node/rpcledger
// adapts the node's core.Blockchain, P2P server and notary pool to them.
//
// # The method table
//
// service.go's methods map is the one index: per method, its parameters
// as a list of steps and its handler. A step reads one positional
// parameter into a value (a hash, base64 bytes, signers, a block hash or
// index, a contract identifier, ...) or checks a precondition (the number
// of parameters, KeepOnlyLatestState, an enabled service); params.go runs
// the steps in order and answers the first failure with neo-go's code and
// text, which each step declares. Handlers get the values (get[T](a, i))
// and are short functions over their family's interface. A *historic
// method is its current-state twin behind a state point (historic,
// stateRoot) that the handler finds in args.at or args.root.
//
// To add a method: declare its steps (reuse the readers of params.go;
// a reader that needs the chain is a step whose read uses the Service),
// write the handler in its family's file, add the entry to the table and
// a recorded answer to the tests.
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

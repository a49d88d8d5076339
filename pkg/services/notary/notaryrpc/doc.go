// Package notaryrpc adapts the notary request pool to the RPC layer: it
// implements chainrpc.Notary over a notary.RequestPool, so that
// submitnotaryrequest, getrawnotarypool and getrawnotarytransaction
// (package chainrpc) serve the node's pool:
//
//	chainrpc.New(ledger, srv, chainrpc.Options{Notary: notaryrpc.New(pool)})
//
// Relay errors are classified like sendrawtransaction's (the pool's
// errors wrap the ledger's sentinels).
package notaryrpc

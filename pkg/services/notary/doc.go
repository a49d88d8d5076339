// Package notary is neo-go's P2P notary extension (P2PSigExtensions): the
// notary request pool every such node keeps and the service of a node
// designated P2PNotary (RoleManagement role 32) that completes
// multi-party transactions. It follows neo-go 0.120.0 (pkg/services/notary
// and the notary parts of pkg/network) so that n3node and neo-go notary
// nodes complete the same transactions.
//
// # Requests
//
// A P2PNotaryRequest (package payload) carries a main transaction that
// needs signatures of several parties and the Notary contract's, and a
// fallback transaction (sender: the Notary contract; payer: the second
// signer, whose Notary deposit pays; NotValidBefore; Conflicts with the
// main transaction), signed by the payer, who also signs the payload.
// Every party sends its own request with its part of the main
// transaction's witnesses and its own fallback.
//
// # Pool
//
// RequestPool keeps the verified requests keyed by fallback hash: the
// payload witness, the senders, the deposit lock (the fallback must
// expire before it), then the ledger's verification of the fallback as a
// partial transaction (the Notary witness may be a placeholder;
// NotValidBefore within MaxNotValidBeforeDelta) and the pool's deposit
// accounting per payer (the fallbacks of one payer must fit its deposit
// together). After each block, stale requests are dropped (Start
// subscribes it to blocks; RemoveStale is the hook).
//
// # Service
//
// For each pooled request the service checks what the main transaction's
// witnesses need (signature, m-of-n multisig, contract, or a contract call
// script whose missing arguments the requests supply) against its
// NotaryAssisted NKeys, verifies and collects the parts the request brings,
// and once all are in, adds the Notary witness (its signature) and hands
// the main transaction to OnTransaction, until the smallest NotValidBefore
// of its fallbacks. From a fallback's NotValidBefore on, the fallback gets
// the Notary witness and is sent instead. The static reader of witness
// scripts (scriptparse.go) accepts exactly what neo-go's scparser does; it
// refuses PACK counts above 65536, on which neo-go runs out of memory.
//
// # Caller obligations
//
//	pool := notary.NewRequestPool(bc, cfg.P2PNotaryRequestPayloadPoolSize)
//	pool.SetAnnouncer(p2p inventory broadcast); pool.Start()
//	P2P P2PNotaryRequest / RPC submitnotaryrequest -> pool.Relay(r)
//	svc, _ := notary.New(notary.Config{Chain: bc, Pool: pool, Main: app.P2PNotary,
//		OnTransaction: pool-and-relay})
//	svc.Start() ... svc.Shutdown(); pool.Shutdown()
package notary

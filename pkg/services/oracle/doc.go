// Package oracle is the Oracle node service: a node holding the key of a
// designated Oracle node (RoleManagement role 8) answers the requests of
// the OracleContract native contract. It follows neo-go 0.120.0
// (pkg/services/oracle) so that n3node and neo-go Oracle nodes build
// byte-identical response transactions and can complete each other's
// multi-signatures.
//
// # Flow
//
// For every pending request (all of them at Start, then the new ones of
// each committed block) a worker fetches the URL (https only; neofs URLs
// are answered with Error, see docs/oracle.md), applies the JSONPath
// filter (package jsonpath) and builds two transactions: the response
// (code, result) and the backup (ConsensusUnreachable), both with the
// fixed script calling Oracle.finish, signers [Oracle contract, the
// nodes' BFT multisig] with scope None, nonce = request id, fees
// computed as neo-go does and ValidUntilBlock = the request's block +
// MaxValidUntilBlockIncrement (the backup later if that has passed). It
// signs both, keeps the signatures of both per request and sends its
// response signature to the other Oracle nodes (Broadcaster, by default
// the submitoracleresponse RPC to Config.Nodes). Signatures of other
// nodes arrive through AddResponse (the RPC handler calls it). When M of
// the N nodes signed the same transaction, the invocation script is
// assembled (signatures in the nodes' designation order) and the
// transaction goes to Config.OnTransaction (the node pools and relays
// it). A request not answered on chain within RefreshInterval is
// completed with the backup transaction; after MaxTaskTimeout it is
// dropped.
//
// # Caller obligations
//
//	svc, err := oracle.New(oracle.Config{Chain: bc, Main: app.Oracle, ...})
//	svc.Start()          // subscribes to blocks, loads pending requests
//	rpc: submitoracleresponse -> svc.AddResponse(pub, id, txSig)
//	svc.Shutdown()
//
// Chain is the node's *core.Blockchain (or anything with its methods).
// OnTransaction must not block for long (it runs on a worker).
//
// # Determinism
//
// Time comes from Config.Now; Refresh is what the refresh ticker calls,
// so tests drive timeouts explicitly. Nothing else depends on the clock.
package oracle

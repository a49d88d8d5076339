// Package rpcclient is a JSON-RPC client for Neo N3 nodes (ours or the
// reference ones): Client over HTTP, tuned for high request rates, and
// WSClient over WebSocket with event subscriptions.
//
// Call sends one request and decodes the result into a Go value; RPC
// errors come back as *neorpc.Error (use errors.As, or errors.Is with the
// neorpc.Err* values, which compare codes). Batch sends several calls in one
// request.
//
// Typed methods (methods.go) cover what wallets and tools need: getversion,
// getnativecontracts, getcontractstate, invokefunction/invokescript (with
// signers; arguments are smartcontract.Parameter values), calculatenetworkfee,
// getnep17balances/getnep17transfers, getunclaimedgas, getapplicationlog,
// getrawtransaction, sendrawtransaction, getcandidates,
// getnextblockvalidators, getcommittee. Their result types are the
// server's (package neorpc/result; result.go names them here): neo-go
// 0.120.0's field names, types and key order, so decoding a neo-go answer
// and encoding it again gives the same bytes. InvokeResult and Iterator
// are result.Invoke and result.Iterator too: stack items are decoded with
// the answer (iterators as Interop items wrapping an Iterator), as neo-go's
// client does, and read with the result's helpers (CheckHalt, Int, Bool,
// String, Array, Iterator). The client has no result type of its own.
// Neither the client nor the result types depend on a storage engine (the
// layering test checks).
//
// Subpackages: actor (build, sign through parameter contexts, send and
// await transactions), nep17 (token info, transfer scripts, decimal
// amounts) and rpctest (a fake node for tests).
//
// Client is safe for concurrent use. It keeps idle keep-alive connections
// to the endpoint (Options.MaxIdleConnsPerHost, 64 by default; the
// net/http default of 2 makes a busy multi-worker client reconnect all the
// time) and pools its request and response buffers. Results decoded into a
// *json.RawMessage are copies the caller owns.
//
// WSClient delivers events to the channel given to Subscribe. As in
// neo-go, the reader blocks until a subscriber's channel takes the event,
// an event is sent once per channel even when several of its subscriptions
// match, and all subscriber channels are closed when the server reports
// event_missed or the connection ends (the server-side subscriptions then
// remain until Unsubscribe or disconnection).
package rpcclient

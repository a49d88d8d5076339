// Package rpctest is a scriptable fake Neo N3 JSON-RPC node for tests of
// RPC clients, wallets and command-line tools (in the spirit of
// net/http/httptest). It is test support: production code never imports it.
//
// A Server answers each method with the Handler registered for it
// (method "x" not supported otherwise) and records every call. Chain
// installs a small simulated ledger on a Server: getversion, getblockcount,
// invokescript/invokefunction (a fixed GAS cost), calculatenetworkfee (a
// deterministic formula), sendrawtransaction (decodes the transaction and
// checks every standard witness signature against the network magic),
// getapplicationlog (HALT for accepted transactions once a block passed)
// and getnep17balances.
//
// Handlers run on the server's goroutines; Server serialises them with a
// mutex, so a handler may read and change shared test state freely.
//
// Ownership: Calls returns copies of the recorded parameters; a Chain
// belongs to the Server it serves (change it inside handlers or Do).
package rpctest

// Package neogotext is the one place for neo-go's wording: the texts and
// decoding quirks of neo-go 0.120.0 that clients see in JSON-RPC answers
// and that n3node's own decoders would word differently. Everything here
// reproduces an observable fact (an error text, a lenient input form); no
// other package imitates neo-go's texts. Each entry names its user and the
// test that pins it against neo-go (the tests that import neo-go live in
// the nested module internal/neogodiff, under the importing package's
// path: chainrpc's in internal/neogodiff/rpcserver/chainrpc, neorpc's in
// internal/neogodiff/neorpc).
//
// # Map
//
//	what                         where                     used by                      pinned by
//	EOF wording of truncated     EOFText (eof.go)          chainrpc sendrawtransaction,  chainrpc TestTruncatedInputNeoGo
//	  transactions and blocks                              calculatenetworkfee,
//	  ("EOF" vs "unexpected EOF")                          submitblock
//	public keys of invoke*       PublicKey (pubkey.go)     chainrpc invokefunction       chainrpc TestPublicKeyParams,
//	  arguments (infinity "00",                            arguments                     TestInvocationScriptNeoGo
//	  uncompressed keys, texts)
//	hash JSON decoding           util.Uint160, Uint256     neorpc signers, filters,      neorpc TestSignersMatchNeoGo,
//	  ("Go value of type                                    smartcontract.Parameter      TestDecodeFilterMatchesNeoGo
//	  util.Uint160" texts)
//	the fake block header of     block.DecodeFakeHeader    chainrpc                      recorded answers of
//	  invokecontainedscript                                invokecontainedscript         rpcledger TestNeoGoExtraRecords
//	  ("type block.baseAux")
//
// The subpackages are named util and block on purpose: encoding/json's
// error texts name the package of the Go type being decoded, and those
// texts are part of the answers. Contract parameters need no shim: the
// one parameter type, pkg/smartcontract.Parameter, decodes as neo-go's
// does and has its package and type name ("[]smartcontract.Parameter");
// neorpc TestDecodeFilterMatchesNeoGo pins it.
package neogotext

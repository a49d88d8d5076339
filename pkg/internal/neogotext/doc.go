// Package neogotext is the one place for neo-go's wording: the texts and
// decoding quirks of neo-go 0.120.0 that clients see in JSON-RPC answers
// and that n3node's own decoders would word differently. Everything here
// reproduces an observable fact (an error text, a lenient input form); no
// other package imitates neo-go's texts. Each entry names its user and the
// test that pins it against neo-go.
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
//	hash JSON decoding           util.Uint160, Uint256     neorpc signers, filters       neorpc TestSignersMatchNeoGo,
//	  ("Go value of type                                                                 TestDecodeFilterMatchesNeoGo
//	  util.Uint160" texts)
//	contract parameters in       smartcontract.Parameter   neorpc subscription filters,  neorpc TestDecodeFilterMatchesNeoGo
//	  JSON ("[]smartcontract.                              the slow request decoder
//	  Parameter" texts)                                    (neorpc/internal/params)
//	the fake block header of     block.DecodeFakeHeader    chainrpc                      recorded answers of
//	  invokecontainedscript                                invokecontainedscript         rpcledger TestNeoGoExtraRecords
//	  ("type block.baseAux")
//
// The subpackages are named util, smartcontract and block on purpose:
// encoding/json's error texts name the package of the Go type being
// decoded, and those texts are part of the answers.
package neogotext

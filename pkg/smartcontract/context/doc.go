// Package context implements contract parameter contexts: the JSON files
// (C# ContractParametersContext, neo-go context.ParameterContext) that carry
// a transaction and the witness parameters collected so far from machine to
// machine, so that the holders of a multi-signature account's keys can sign
// one after the other and the last one can assemble the witnesses.
//
// # Format
//
//	{"type": "Neo.Network.P2P.Payloads.Transaction", "network": <magic>,
//	 "hash": "0x<tx hash>", "data": "<base64 of the unsigned transaction>",
//	 "items": {"0x<script hash>": {"script": "<base64 verification script>",
//	   "parameters": [{"type": "Signature", "value": "<base64>"}, ...],
//	   "signatures": {"<compressed public key hex>": "<base64>"}}}}
//
// Written in neo-go's field order (C# writes "network" last; both read
// either). Items and signatures come out sorted by key. Reading accepts
// the neo-go 2.x type name "Neo.Core.ContractTransaction" too, checks "hash"
// against the data when present and validates every parameter value.
// Parameters are smartcontract.Parameter values, in its JSON form (so an
// integer is written as a decimal string, as neo-go writes it); one
// without a value is not set yet. A file may not nest brackets more than
// 40 deep.
//
// # Multi-signature order
//
// Once a multi-signature item has m signatures they become its parameters
// in descending order of their keys' positions in the script (C#
// AddSignature), and the invocation script pushes the parameters last to
// first, so the signature of the first key comes first, as CheckMultisig
// wants.
//
// # Ownership
//
// A context owns its transaction; GetCompleteTransaction fills in that
// transaction's witnesses and returns it.
package context

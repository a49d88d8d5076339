// Package binding generates Go bindings of a contract from its manifest,
// with the output neo-go 0.120.0's generators write (their format is a
// fact clients of the bindings see; the generators are our own: the
// source is written directly, then gofmt'ed):
//
//   - Generate: the wrapper other contracts import to call it (`n3node
//     contract generate-wrapper`), over neo-go's interop packages;
//   - GenerateRPC: the RPC client package (`n3node contract
//     generate-rpcwrapper`) over neo-go's rpcclient: a ContractReader for
//     safe methods (results unwrapped with rpcclient/unwrap, iterators
//     as sessions plus an "Expanded" variant), a Contract for the others
//     (sent, signed and unsigned transactions; Boolean results asserted
//     in the script), structures of named types and events with their
//     stack item and parameter conversions, event parsers of application
//     logs. NEP-11, -17, -22, -24 and -31 contracts embed the readers and
//     writers of those standards instead (pkg/smartcontract/manifest/standard
//     recognises them).
//
// A Config carries the manifest, the contract hash (empty: the wrapper
// takes the hash at run time) and the optional YAML configuration
// `contract compile --bindings` writes: package name, per-method or
// per-parameter type overrides and call flags (the contract wrapper's),
// and structured type descriptions (the RPC binding's).
//
// Layout: generate.go (Describe, shared by both, and the contract
// wrapper), rpc.go (what the RPC binding contains), rpctypes.go (client
// types and the conversion expressions), rpcwrite.go (the printing).
package binding

// Package result holds the JSON-RPC result types of the chain methods, with
// neo-go 0.120.0's JSON forms (pkg/neorpc/result there): field names, field
// order, number-as-string fields, omitted-when-zero fields and the merged
// objects (a block or transaction with its metadata at the same level).
//
// The server encodes them, the client decodes them: every type has
// MarshalJSON (or struct tags) producing neo-go's bytes and, where a client
// needs it, UnmarshalJSON accepting them.
//
// Ownership: values hold references to the blocks, transactions and byte
// slices they were built from; they do not copy them.
package result

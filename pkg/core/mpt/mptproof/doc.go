// Package mptproof is the wire format of MPT proofs (the getproof result
// and the verifyproof parameter before base64): a var-bytes key, then the
// proof's nodes as a var-array of var-bytes. It depends on binary I/O only,
// so that RPC types (pkg/neorpc/result) and clients carry proofs without
// the trie and its storage engines; package mpt makes and verifies them.
//
// Decode applies the C# limits and never panics; its results do not
// alias the input.
package mptproof

// Package block implements Neo N3 block headers and blocks: the binary
// format (identical to C# and neo-go), the JSON form (identical to neo-go
// v0.120.0's block.Block and block.Header; RPC adds size, confirmations and
// nextblockhash around it), hashes (one SHA-256 of the unsigned header),
// sign data (network magic LE || hash), merkle roots and the genesis block.
//
// # Decoding
//
// Decoding follows C# Header.Deserialize and Block.Deserialize: version 0,
// exactly one witness, at most MaxTransactionsPerBlock (65535)
// transactions, no two transactions with the same hash, and a merkle root
// that matches the transactions. Every transaction is checked as package
// transaction describes. Malformed input returns an error, never a panic.
// Protocol-setting limits (MaxTransactionsPerBlock of a network, block size,
// timestamps, witness validity) belong to block verification, not here.
//
// # Ownership
//
// NewBlockFromBytes copies its input once; the header witness and every
// transaction alias that one copy. NewBlockFromOwnedBytes aliases the
// caller's slice, which must not be modified afterwards. DecodeBinary
// copies what it keeps.
//
// Hashes are cached: a decoded header's hash is computed while decoding;
// a header built in code is hashed on first use, so set all fields first.
package block

// Package hash holds Neo's hash value types and hash functions.
//
// Uint160 (script hashes, addresses) and Uint256 (block, transaction and
// trie node hashes) are fixed-size arrays kept in serialized byte order,
// which is the raw digest output. Their "LE" string form is the reversed hex
// that C# prints (UInt160.ToString) and RPC uses, without the 0x prefix;
// JSON uses the same form with 0x. The "BE" form is hex of the serialized
// bytes.
//
// Sha256 is one SHA-256 (header and transaction hashes); Hash256 is double
// SHA-256 (merkle nodes, MPT nodes, checksums); Hash160 is RIPEMD-160 of
// SHA-256 (script hashes). RIPEMD-160 comes from decred's maintained copy,
// since x/crypto's is deprecated.
//
// Hash values are values: methods never retain or alias caller slices.
package hash

// Package base58 implements Base58 and Base58Check as used by Neo for
// addresses, WIF and NEP-2 keys.
//
// Base58Check appends the first four bytes of Hash256 (double SHA-256) of
// the payload before encoding, and CheckDecode verifies and strips them.
// Encoding uses the Bitcoin alphabet via github.com/mr-tron/base58.
//
// Every function returns fresh slices the caller owns.
package base58

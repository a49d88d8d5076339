// Package keys implements Neo's secp256r1 (NIST P-256) keys and signatures,
// secp256k1 signature verification, WIF and NEP-2 private key encodings and
// the public key ordering used to sort validators and committees.
//
// # Public keys
//
// A PublicKey is an immutable value holding the affine point in SEC1
// uncompressed form plus, for points on the curve, a parsed
// *ecdsa.PublicKey ready for verification. Keys are decoded the way C#
// ECPoint.DecodePoint does it: 0x02/0x03 + 32-byte X (decompressed with a
// modular square root; X must be below p and on the curve) or 0x04 + X + Y
// (both below p; like C#, the point is not checked to lie on the curve, so
// such a key decodes, re-encodes and compares but never verifies a
// signature). The point at infinity is rejected. Keys always encode in
// compressed form (33 bytes), as C# ECPoint.Serialize does.
//
// Decompression costs a square root, and witness checking meets the same
// validator, committee and sender keys over and over, so the decoders for
// compressed keys go through a bounded, concurrency-safe cache of decoded
// keys (DecodeCompressed, NewPublicKeyFromBytes). Cached *PublicKey values
// are shared: never modify what a *PublicKey points to.
//
// # Signatures
//
// Neo signatures are 64 bytes r‖s (big-endian, 32 bytes each) over
// SHA-256 of the signed message; for transactions and blocks the message is
// network magic (uint32 LE) ‖ hash. PrivateKey.Sign is deterministic
// (RFC 6979 via crypto/ecdsa). Verification accepts high-S signatures, as
// C# does.
//
// A key that makes a steady share of the signature checks
// (HotKeyPromoteAfter of a window of recent ones) gets a table of its
// multiples, which makes each further P-256 check about 2.6× cheaper
// (hotkeys.go, filippo.io/nistec point arithmetic, and fixed-size
// arithmetic mod the group order in p256order.go, so such a check
// allocates nothing); at most HotKeyTables keys (about 0.8 MB each) have
// one, least recently used first out. The answer is crypto/ecdsa's, which
// tests and a fuzz target compare.
//
// # Ordering
//
// PublicKey.Cmp orders keys like C# ECPoint.CompareTo: by X, then by Y, as
// unsigned integers. This is not the byte order of compressed encodings.
//
// # Ownership
//
// Functions returning []byte return fresh slices the caller owns. Decoders
// never retain their input.
package keys

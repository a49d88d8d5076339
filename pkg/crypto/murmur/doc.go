// Package murmur provides the two MurmurHash3 variants Neo uses, with the
// byte order of the C# reference (Neo.Cryptography.Murmur32/Murmur128):
//
//   - Sum32: MurmurHash3_x86_32, the result written as 4 little-endian
//     bytes. This is CryptoLib.murmur32(data, seed).
//   - Sum128: MurmurHash3_x64_128 with the 32-bit seed zero-extended into
//     both 64-bit lanes; the result is h1 then h2, each 8 little-endian
//     bytes. System.Runtime.GetRandom hashes the 16-byte nonce data with
//     it: seed = network magic before Aspidochelone (and the result
//     replaces the nonce data), seed = network magic + call counter (uint32
//     arithmetic, the counter starting at 0 per engine) from
//     Aspidochelone on; the 16 bytes are then read as an unsigned
//     little-endian integer.
//
// Both are thin wrappers over github.com/twmb/murmur3; they return arrays,
// so nothing is allocated and nothing is retained.
package murmur

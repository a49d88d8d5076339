// Package bigint implements Neo's integer byte encoding: little-endian two's
// complement with the fewest bytes that keep the sign, as produced by .NET's
// BigInteger.ToByteArray(). The VM, StdLib serialization, storage values and
// native contracts all use it.
//
// Zero is special: BigInteger.ToByteArray() gives one 0x00 byte, but the VM's
// Integer item reports an empty span for zero. ToBytes follows the VM (empty
// slice); ToBytesCSharp gives the one-byte form where the C# code uses
// ToByteArray directly.
//
// Decoding accepts any length, including non-minimal encodings (extra 0x00 or
// 0xff bytes), exactly as new BigInteger(span) does. Callers enforce size
// limits (MaxBytesLen for VM integers) before decoding.
//
// # Ownership
//
// Functions returning []byte return fresh slices; Append* functions append to
// the caller's slice. Decoders never retain their input.
//
// # Fast paths
//
// Most integers seen by the VM fit in int64. Int64FromBytes, AppendInt64 and
// Int64Len handle those without allocating; the *big.Int functions are the
// general fallback.
package bigint

// Package nef implements the NEO Executable Format version 3 (NEF3), the
// container of a contract's script (C# Neo.SmartContract.NefFile and
// MethodToken).
//
// # Layout
//
//	Magic     u32 LE   0x3346454E ("NEF3")
//	Compiler  [64]byte UTF-8, zero-padded; every byte after the first zero must be zero
//	Source    var-string, at most 256 bytes
//	Reserved  u8, must be 0
//	Tokens    var-array of MethodToken, at most 128
//	Reserved  u16, must be 0
//	Script    var-bytes, 1..131070 bytes (ExecutionEngineLimits.MaxItemSize)
//	Checksum  u32 LE   first four bytes of Hash256 of everything before it
//
// A MethodToken is a Uint160 contract hash, a method name (var-string, at
// most 32 bytes, not starting with '_'), a u16 parameter count, a bool
// (strictly 0 or 1) and a CallFlags byte with no undefined bit.
//
// # Decoding follows C#, not neo-go
//
// The checks are those of C# NefFile.Deserialize with verify=true: as in
// C#, the checksum is computed over the canonical re-encoding of the decoded
// file (so a file that uses non-minimal var-ints but whose checksum matches
// its canonical form is accepted), the bytes consumed may not exceed
// MaxFileSize, and trailing input after the checksum is ignored (C#
// AsSerializable does not look at it). Where neo-go 0.120.0 is laxer the
// C# rule is applied: a non-zero byte after the compiler name's
// terminator, invalid UTF-8 in strings, a bool byte other than 0 or 1 and
// more than 128 method tokens are errors. These files cannot have been
// deployed on a network validated by C# nodes.
//
// # Ownership
//
// Decoded files own their memory: Script and strings are copies of the
// input. Bytes returns a fresh slice.
package nef

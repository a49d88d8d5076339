// Package io implements Neo's binary wire encoding: little-endian fixed-size
// integers, the CompactSize variable-length integer ("var-int"), var-bytes and
// var-strings, and generic array helpers that need no reflection.
//
// # Errors
//
// BinReader and BinWriter carry a sticky error: the first failure is kept in
// the Err field and every later call is a no-op that returns zero values. A
// decoder can therefore read a whole structure and check Err once at the end.
// Decoders must never panic on malformed input; every length read from the
// wire is checked against a limit before anything is allocated.
//
// # Ownership
//
// BinReader reads from a byte slice it does not copy. Methods whose name ends
// in Alias return sub-slices of that input: they are valid as long as the
// caller keeps the input unchanged, and let a decoder that owns its input (for
// example, one that copied a network message once) avoid an allocation per
// field. All other methods return fresh copies the caller may keep and modify.
//
// BufBinWriter appends to a growing buffer. Bytes returns that buffer without
// copying; Reset keeps its capacity for reuse.
package io

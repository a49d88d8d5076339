// Package interopid computes SYSCALL ids: the first 4 bytes, read as a
// little-endian uint32, of SHA-256 of the syscall name (C#
// InteropDescriptor.Hash). The VM passes the id to its Syscall hook.
package interopid

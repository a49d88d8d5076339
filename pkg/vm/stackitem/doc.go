// Package stackitem implements the NeoVM stack item types and everything
// that works on items without running scripts: conversions (CONVERT), the
// equality rules of EQUAL, struct cloning and deep copies, the reference
// counter the VM uses for its stack limit, the StdLib binary format
// (Serialize/Deserialize), the StdLib JSON format (ToJSON/FromJSON) and the
// RPC {type, value} JSON form.
//
// # Types
//
//	Null{}      Any (0x00)          Bool        Boolean (0x20)
//	*Integer    Integer (0x21)      *ByteString ByteString (0x28)
//	*Buffer     Buffer (0x30)       *Array      Array (0x40) and Struct (0x41)
//	*Map        Map (0x48)          *Pointer    Pointer (0x10)
//	*Interop    InteropInterface (0x60)
//
// Array and Struct share one Go type, as Struct derives from Array in C#:
// a type switch on *Array accepts both, Type() tells them apart.
//
// # Invariants
//
//   - An Integer holds a value of at most MaxIntegerSize (32) bytes in the
//     minimal little-endian two's-complement encoding; values that fit int64
//     are stored without a big.Int.
//   - Primitive items (Bool, Integer, ByteString) are immutable and may be
//     shared freely. Buffer, Array and Map are mutable and compared by
//     identity, except Struct, which EQUAL compares deeply.
//   - Map keys are primitive items of at most MaxKeySize (64) bytes; Integer
//     1, ByteString 0x01 and Boolean true are three different keys.
//
// # Ownership
//
// Constructors take ownership of the slices and big.Ints they are given.
// Accessors that return slices (Bytes, Items, Elements) return the item's own
// storage: callers must not modify it unless they own the item (for a Buffer
// that is the point). TryInteger and BigInt return fresh big.Ints.
//
// Items are not safe for concurrent use, and an item graph must not be shared
// by two running VMs: compound items carry the VM's stack-reference counts.
package stackitem

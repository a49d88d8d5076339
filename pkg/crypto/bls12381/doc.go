// Package bls12381 implements the BLS12-381 values and operations of Neo's
// CryptoLib native contract (bls12381Serialize, bls12381Deserialize,
// bls12381Equal, bls12381Add, bls12381Mul, bls12381Pairing) on top of
// gnark-crypto, with the exact acceptance rules and result types of the C#
// reference (Neo.Cryptography.BLS12_381 3.9.0 behind
// CryptoLib.BLS12_381.cs).
//
// # Values
//
// A *Point is one of the five interop values the C# contract passes around;
// its Kind is observable (bls12381Equal and bls12381Add refuse mixed kinds):
//
//	G1Affine, G2Affine  what bls12381Deserialize returns for 48/96 bytes
//	G1Projective,       what bls12381Add and bls12381Mul return on G1/G2
//	G2Projective        (the C# projective types; kept here in Jacobian form,
//	                    which is never observable: every output is
//	                    normalised)
//	GT                  an Fp12 element: 576 bytes, from deserialization or
//	                    pairing
//
// Points are immutable once made; operations return new points and never
// modify their operands, so a *Point may be shared freely (the VM may hold
// the same interop item in several stack slots).
//
// # Neo quirks (kept on purpose)
//
//   - "Add" on GT is multiplication in Fp12 and "Mul" on GT is
//     exponentiation (C# Gt.operator+ multiplies, Gt.Double squares).
//   - The scalar of Mul is exactly 32 bytes, little-endian, and must be
//     below the group order r (C# Scalar.FromBytes); neg negates it modulo r
//     before use. Mul by zero yields the identity of the group.
//   - GT deserialization checks only that each of the 12 Fp coordinates is
//     canonical (below p); it does NOT check membership of the order-r
//     subgroup, so GT values may be arbitrary Fp12 elements (including
//     zero) and exponentiation is plain square-and-multiply.
//   - G1/G2 deserialization accepts only the compressed forms (48 and 96
//     bytes) and checks the flags, canonical coordinates, that the point is
//     on the curve and that it lies in the order-r subgroup. The compressed
//     encoding of the G2 identity (0xc0 followed by zeros) is REJECTED: the
//     C# decoder takes a square root of x³+4(u+1) before it looks at the
//     infinity flag, and 4(u+1) is not a square in Fp2. gnark (and so
//     neo-go 0.120.0) accepts it; we follow C#. The G1 identity encoding
//     is accepted by both.
//   - Deserialization of any other length is an error (C# throws; neo-go
//     0.120.0 returned an empty value that failed only when used; fixed in
//     neo-go 0.122.0).
//
// # Ownership
//
// Deserialize does not retain its input; Bytes returns a fresh slice.
package bls12381

// Package cryptolib holds the primitive layer of Neo's CryptoLib native
// contract: plain functions over byte slices that reproduce the C# methods
// (src/Neo/SmartContract/Native/CryptoLib*.cs) including every hardfork
// variant, so that the native-contract wrapper only converts stack items,
// charges prices and picks the variant by hardfork. BLS12-381 lives in
// pkg/crypto/bls12381 and is called directly.
//
// # Error convention
//
// A function returning (T, error) reports a C# exception — the VM faults —
// as a non-nil error. Results that C# returns as a value (false, Null) are
// values here: false, or a nil slice for Null.
//
// # Variants by hardfork (the wrapper chooses)
//
//	sha256, ripemd160, murmur32       all heights
//	keccak256                         from Cockatrice
//	verifyWithECDsa V0                before Cockatrice (arg "curve")
//	verifyWithECDsa V1                Cockatrice up to Gorgon (arg "curveHash")
//	verifyWithECDsa V2                from Gorgon
//	verifyWithEd25519 V0              Echidna up to Gorgon
//	verifyWithEd25519 V1              from Gorgon
//	recoverSecp256K1                  from Echidna
//
// The integer curve argument is converted by the wrapper to a byte first
// (C# casts the BigInteger to the enum's byte type, which throws above 255
// or below 0); Null arguments fault in the wrapper (C# refuses Null for
// these non-nullable parameters).
//
// See VerifyWithECDsaV0/V1/V2 and VerifyWithEd25519V0/V1 for the exact
// false-versus-fault tables.
//
// # Ownership
//
// Inputs are never retained or modified; returned slices are fresh.
package cryptolib

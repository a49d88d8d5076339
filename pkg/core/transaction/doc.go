// Package transaction implements the Neo N3 transaction: its binary wire
// format (identical to C# Neo 3.8/3.9 and neo-go), its JSON form (identical
// to neo-go v0.120.0 RPC output), its hash and sign data, signers with
// witness scopes and witness rules, attributes and witnesses.
//
// # Decoding
//
// Decoding enforces every check C# Transaction.DeserializeUnsigned and its
// parts make (version 0, non-negative fees without overflow, 1..16 signers
// without duplicates, at most 16 signers+attributes, known attribute types
// without forbidden duplicates, oracle response code and result rules,
// valid scopes, rule actions and condition types, condition nesting depth 3
// and 16 subitems, strict booleans, non-empty script of at most 65535
// bytes, witness scripts of at most 1024 bytes, as many witnesses as
// signers) and returns an error, never panics. MaxTransactionSize is a
// verification limit in C# (VerifyStateIndependent), not a decoding one, so
// decoding does not apply it: admission code calls CheckSize.
//
// The hash is one SHA-256 over the unsigned part, computed once while
// decoding (or on first use) and cached along with the size: changing a
// field of a decoded or hashed transaction requires a fresh value (see
// Transaction.Copy). Non-minimal var-ints and uncompressed group keys are
// accepted like C# does, and then, like C#, the hash and size are those of
// the canonical re-encoding.
//
// # Ownership
//
// NewTransactionFromBytes copies its input once and every byte-slice field
// (script, witness scripts, oracle result) aliases that copy.
// NewTransactionFromOwnedBytes aliases the caller's slice instead: the
// caller must not modify it afterwards. DecodeBinary copies what it keeps.
// Block decoding lets every transaction alias the block's one copy.
//
// A decoded Transaction keeps its first signer and witness in inline
// storage, so a shallow struct copy (t2 := *t) shares them with the
// original; use Copy for an independent value. Public keys in signers and
// witness conditions are shared immutable *keys.PublicKey values.
package transaction

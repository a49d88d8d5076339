// Package message implements the dBFT 2.0 consensus messages of Neo N3 and
// the extensible payload that carries them between nodes, byte for byte as
// the C# DBFTPlugin and neo-go v0.120.0 write them.
//
// # Wire format
//
// A consensus message is the Data of an extensible payload of category
// "dBFT". Every message starts with a common header, then a body that
// depends on its type:
//
//	type u8 | block index u32 | validator index u8 | view number u8 | body
//
//	ChangeView      0x00  timestamp u64 (ms) | reason u8 [| rejected hashes]
//	PrepareRequest  0x20  version u32 | prev hash | timestamp u64 (ms) |
//	                      nonce u64 | var-array of transaction hashes
//	PrepareResponse 0x21  preparation hash (of the PrepareRequest payload)
//	Commit          0x30  64-byte block signature
//	RecoveryRequest 0x40  timestamp u64 (ms)
//	RecoveryMessage 0x41  change views | has request u8 | request message
//	                      or var-bytes preparation hash | preparations |
//	                      commits (compact forms, each with the invocation
//	                      script of the payload it stands for)
//
// The rejected hashes of a ChangeView (reasons TxRejectedByPolicy and
// TxInvalid) appeared in C# 3.10 and neo-go 0.121; C# 3.9 and neo-go 0.120.0
// neither write nor read them. Decoding reads them when they are present;
// HasRejectedHashes records whether they were, so a message re-encodes to
// the bytes it came from.
//
// # Decoding
//
// Decoders take untrusted bytes and return errors, never panic. Every limit
// is a named constant with the C# name beside it. Like C# and neo-go, a
// message decoder ignores bytes after the message (the payload hash, which
// signatures cover, is computed over the exact Data received, so the bytes
// are not lost). Stricter than neo-go and as C#: a PrepareRequest may not
// repeat a transaction hash, and a RecoveryMessage may not list a validator
// twice in one section.
//
// # Signing
//
// A payload is signed by one validator: Sender is the script hash of its
// signature contract, the witness is PUSHDATA1 <64-byte signature> with
// that contract as verification script, and the signature covers network
// magic (u32 LE) || SHA-256 of the unsigned envelope. ValidBlockStart is 0
// and ValidBlockEnd the message's block index, as both reference nodes set
// them.
//
// # Recovery
//
// A RecoveryMessage carries compact forms of other validators' payloads;
// the Recovered* methods rebuild the full payloads from them. Rebuilt
// payloads carry the original signers' invocation scripts and must be
// verified (VerifyWitness) before use: a recovery message is only as
// trustworthy as the signatures inside it.
//
// # Ownership
//
// Decoded values own their memory (decoding copies what it keeps). Values
// built in code are not copied: do not modify a slice after handing it to a
// message. Payload caches the envelope hash; Sign and SetMessage reset it.
package message

// Package smartcontract holds the standard verification scripts of Neo N3
// and the hashes derived from scripts:
//
//   - single-signature scripts (PUSHDATA1 <33-byte key> SYSCALL
//     System.Crypto.CheckSig) and m-of-n multi-signature scripts (PUSH m,
//     sorted keys, PUSH n, SYSCALL System.Crypto.CheckMultisig), built and
//     recognized exactly as C# Contract and SmartContract.Helper do;
//   - the matching invocation scripts (PUSHDATA1 <64-byte signature>...);
//   - BFT and majority thresholds (m = n - (n-1)/3, m = n - (n-1)/2);
//   - deployed contract hashes (Hash160 of ABORT, sender, NEF checksum,
//     name) and interop (SYSCALL) ids.
//
// It also holds the contract parameter types (ParamType) and the one
// contract parameter type of the node, Parameter, with its forms: the
// JSON object {"type", "value"} that RPC clients send and the server,
// parameter contexts and subscription filters read (neo-go's decoding and
// error texts), and the command line's "type:value" words
// (ParseParameter). Manifest parameter definitions (name and type) are a
// different thing and live in manifest.
//
// Scripts are built byte by byte from named opcode constants so that this
// package does not depend on the VM. Parsers never retain or modify their
// input; returned signature and key slices alias the script passed in.
// Subpackages (nef, manifest, ...) hold contract file formats.
package smartcontract

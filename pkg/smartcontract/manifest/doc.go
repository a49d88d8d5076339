// Package manifest implements the Neo N3 contract manifest (C#
// Neo.SmartContract.Manifest): name, groups, features, supported standards,
// ABI (methods and events), permissions, trusts and extra data.
//
// # JSON
//
// Manifests arrive as JSON in deploy and update transactions, so their
// parsing decides which contracts exist: it follows neo-go 0.120.0 exactly
// (encoding/json field matching, parameter type aliases, "*" wildcards, null
// method lists meaning a wildcard, and so on). Marshalling writes neo-go's
// key order (name, abi, features, groups, permissions, supportedstandards,
// trusts, extra), which is what neo-go's RPC prints.
//
// # Stack items
//
// A manifest is part of a contract state, stored as the stack item form of
// C# ContractManifest.ToStackItem (see ToStackItem). Extra data is stored as
// a ByteString holding the compact re-encoding of the JSON value (object
// keys kept in order, strings escaped as neo-go's ordered JSON encoder does),
// or "null".
// Every part (ABI, method, event, parameter, group, permission) is a Struct
// of its fields and every list an Array; the encoders and the shape checks
// shared by all parts live in items.go, and a shape mismatch is reported as
// ErrInvalidItem naming the part ("invalid Method stackitem type").
//
// # Validity
//
// IsValid checks what the reference checks on deploy and update: a name, an
// ABI with at least one method and no duplicate methods (name and parameter
// count), events or parameter names, valid types, non-negative offsets, empty
// features, no duplicate standards, trusts or permission contracts, valid
// group signatures over the contract hash, and (optionally) that the
// manifest serializes within the VM limits.
//
// # Ownership
//
// Decoders copy what they keep from their input. Manifest values are plain
// data: a Manifest obtained from a shared cache must not be modified.
package manifest

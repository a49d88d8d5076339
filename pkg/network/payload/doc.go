// Package payload implements the payloads of Neo N3 P2P messages (C#
// Neo.Network.P2P.Payloads, neo-go pkg/network/payload): version, addr,
// ping/pong, inv/getdata/notfound, getblocks, getblockbyindex/getheaders,
// headers, extensible, merkleblock, filterload/filteradd, and neo-go's
// extensions P2PNotaryRequest, getmptdata (MPTInventory) and mptdata.
// Transactions and blocks are package transaction's and package block's
// types; package message maps commands to payloads.
//
// # Decoding
//
// Every DecodeBinary enforces the limits the reference nodes enforce (each
// one a named constant carrying the C# or neo-go name) and reports problems
// through the reader's sticky error; nothing panics on malformed input.
// Where C# and neo-go 0.120.0 differ, decoding follows the stricter of the
// two unless that would reject what either reference sends (the choices are
// listed in docs/network.md). Encoding a decoded payload gives back the same
// bytes whenever the input used minimal var-ints (C# accepts non-minimal
// ones, and so do we; they re-encode shorter).
//
// # Ownership
//
// Decoders copy what they keep: a decoded payload never aliases the input.
// Payloads built in code keep the slices they are given. Hashes of
// Extensible payloads are cached on first use: set all fields first.
package payload

// Package capability implements the node capabilities that Neo N3 peers
// announce in their version message and in address lists (C#
// Neo.Network.P2P.Capabilities, neo-go pkg/network/capability).
//
// A capability is a type byte followed by type-specific data: a 16-bit
// port for TcpServer and WsServer, a 32-bit start height for FullNode, a
// single zero byte for ArchivalNode and DisableCompression, and var-bytes
// (at most MaxDataSize) for every other type, so that new capability types
// pass through older nodes unchanged.
//
// # Decoding
//
// Capabilities.DecodeBinary reads at most MaxCapabilities entries and
// rejects a list that repeats a known type (unknown types may repeat), as
// both reference nodes do. Malformed input sets the reader's error; nothing
// panics. Decoding then encoding a list gives back the same bytes whenever
// the input used minimal var-ints.
//
// # Ownership
//
// Decoded Unknown data is a copy of the input.
package capability

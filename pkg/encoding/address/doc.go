// Package address converts script hashes to and from Neo N3 addresses:
// Base58Check(version || script hash in serialized order) with the fixed
// N3 address version 0x35 (53), which makes every address start with 'N'.
//
// The version is a constant, not configuration: every N3 network (MainNet,
// TestNet, private networks) uses 53, and C# ProtocolSettings.AddressVersion
// defaults to it. EncodeVersion/DecodeVersion exist for tools that need
// another version byte.
package address

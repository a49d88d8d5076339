package payload

import (
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/capability"
)

// MaxUserAgentLength bounds Version.UserAgent in bytes (C# VersionPayload:
// ReadVarString(1024)).
const MaxUserAgentLength = 1024

// ProtocolVersion is the version field both reference nodes send (C#
// LocalNode.ProtocolVersion, neo-go payload.NewVersion).
const ProtocolVersion = 0

// Version is the first message on every connection (C# VersionPayload).
type Version struct {
	Magic        uint32 // network magic (C# Network)
	Version      uint32
	Timestamp    uint32 // seconds since the Unix epoch
	Nonce        uint32 // the sender's node id
	UserAgent    string // strict UTF-8
	Capabilities capability.Capabilities
}

// Size returns the encoded size.
func (v *Version) Size() int {
	return 16 + nio.VarBytesSize(len(v.UserAgent)) + v.Capabilities.Size()
}

// EncodeBinary implements io.Encodable.
func (v *Version) EncodeBinary(w *nio.BinWriter) {
	w.WriteU32LE(v.Magic)
	w.WriteU32LE(v.Version)
	w.WriteU32LE(v.Timestamp)
	w.WriteU32LE(v.Nonce)
	w.WriteString(v.UserAgent)
	v.Capabilities.EncodeBinary(w)
}

// DecodeBinary implements io.Decodable.
func (v *Version) DecodeBinary(r *nio.BinReader) {
	v.Magic = r.ReadU32LE()
	v.Version = r.ReadU32LE()
	v.Timestamp = r.ReadU32LE()
	v.Nonce = r.ReadU32LE()
	v.UserAgent = r.ReadVarString(MaxUserAgentLength)
	v.Capabilities = nil
	v.Capabilities.DecodeBinary(r)
}

// StartHeight returns the FullNode start height, if announced.
func (v *Version) StartHeight() (uint32, bool) {
	c, ok := v.Capabilities.Find(capability.FullNode)
	return c.StartHeight, ok
}

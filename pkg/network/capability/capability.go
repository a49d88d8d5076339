package capability

import (
	"errors"
	"fmt"

	nio "github.com/n3node/n3node/pkg/io"
)

const (
	// MaxCapabilities bounds the number of capabilities in one list (C#
	// VersionPayload.MaxCapabilities).
	MaxCapabilities = 32
	// MaxDataSize bounds the data of an unknown capability (C#
	// UnknownCapability.MaxDataSize).
	MaxDataSize = 1024
)

// Type is a capability type (C# NodeCapabilityType).
type Type byte

// Capability types.
const (
	TCPServer          Type = 0x01
	WSServer           Type = 0x02 // obsolete in C#, still decoded
	DisableCompression Type = 0x03
	FullNode           Type = 0x10
	ArchivalNode       Type = 0x11
	// ReservedFirst..ReservedLast are for private extensions (C# Extension0).
	ReservedFirst Type = 0xf0
	ReservedLast  Type = 0xff
)

// String returns the C# name of t.
func (t Type) String() string {
	switch t {
	case TCPServer:
		return "TcpServer"
	case WSServer:
		return "WsServer"
	case DisableCompression:
		return "DisableCompression"
	case FullNode:
		return "FullNode"
	case ArchivalNode:
		return "ArchivalNode"
	}
	return fmt.Sprintf("Capability(0x%02x)", byte(t))
}

// known reports whether t has a fixed layout (and so may not repeat).
func (t Type) known() bool {
	switch t {
	case TCPServer, WSServer, DisableCompression, FullNode, ArchivalNode:
		return true
	}
	return false
}

// Errors set on the reader by the decoders.
var (
	ErrDuplicate   = errors.New("capability type repeated")
	ErrNonZeroData = errors.New("capability must carry a single zero byte")
)

// Capability is one announced capability. Port is used by TCPServer and
// WSServer, StartHeight by FullNode and Data by unknown types; the other
// fields are zero.
type Capability struct {
	Type        Type
	Port        uint16
	StartHeight uint32
	Data        []byte
}

// NewTCPServer returns a TcpServer capability.
func NewTCPServer(port uint16) Capability { return Capability{Type: TCPServer, Port: port} }

// NewFullNode returns a FullNode capability.
func NewFullNode(startHeight uint32) Capability {
	return Capability{Type: FullNode, StartHeight: startHeight}
}

// Size returns the encoded size of c.
func (c *Capability) Size() int {
	switch c.Type {
	case TCPServer, WSServer:
		return 3
	case FullNode:
		return 5
	case ArchivalNode, DisableCompression:
		return 2
	}
	return 1 + nio.VarBytesSize(len(c.Data))
}

// EncodeBinary implements io.Encodable.
func (c *Capability) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(byte(c.Type))
	switch c.Type {
	case TCPServer, WSServer:
		w.WriteU16LE(c.Port)
	case FullNode:
		w.WriteU32LE(c.StartHeight)
	case ArchivalNode, DisableCompression:
		w.WriteU8(0)
	default:
		w.WriteVarBytes(c.Data)
	}
}

// DecodeBinary implements io.Decodable (C# NodeCapability.DeserializeFrom,
// with neo-go's strict zero byte for DisableCompression).
func (c *Capability) DecodeBinary(r *nio.BinReader) {
	*c = Capability{Type: Type(r.ReadU8())}
	switch c.Type {
	case TCPServer, WSServer:
		c.Port = r.ReadU16LE()
	case FullNode:
		c.StartHeight = r.ReadU32LE()
	case ArchivalNode, DisableCompression:
		if z := r.ReadU8(); z != 0 && r.Err == nil {
			r.SetError(fmt.Errorf("%w: %s", ErrNonZeroData, c.Type))
		}
	default:
		c.Data = r.ReadVarBytes(MaxDataSize)
	}
}

// Capabilities is a list of capabilities.
type Capabilities []Capability

// Size returns the encoded size of the list.
func (cs Capabilities) Size() int {
	n := nio.VarUintSize(uint64(len(cs)))
	for i := range cs {
		n += cs[i].Size()
	}
	return n
}

// EncodeBinary implements io.Encodable.
func (cs Capabilities) EncodeBinary(w *nio.BinWriter) {
	w.WriteVarUint(uint64(len(cs)))
	for i := range cs {
		cs[i].EncodeBinary(w)
	}
}

// DecodeBinary implements io.Decodable: at most MaxCapabilities entries,
// no known type twice.
func (cs *Capabilities) DecodeBinary(r *nio.BinReader) {
	n := r.ReadArrayLen(MaxCapabilities)
	if r.Err != nil {
		return
	}
	if n*2 > r.Len() { // every capability takes at least two bytes
		r.SetError(nio.ErrUnexpectedEOF)
		return
	}
	list := make(Capabilities, n)
	var seen [256]bool
	for i := range list {
		list[i].DecodeBinary(r)
		if r.Err != nil {
			return
		}
		t := list[i].Type
		if t.known() {
			if seen[t] {
				r.SetError(fmt.Errorf("%w: %s", ErrDuplicate, t))
				return
			}
			seen[t] = true
		}
	}
	*cs = list
}

// Find returns the first capability of type t.
func (cs Capabilities) Find(t Type) (Capability, bool) {
	for _, c := range cs {
		if c.Type == t {
			return c, true
		}
	}
	return Capability{}, false
}

// Has reports whether the list holds a capability of type t.
func (cs Capabilities) Has(t Type) bool {
	_, ok := cs.Find(t)
	return ok
}

// TCPPort returns the TcpServer port, or 0 if there is none.
func (cs Capabilities) TCPPort() uint16 {
	c, _ := cs.Find(TCPServer)
	return c.Port
}

package payload

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// MaxHashesCount bounds the hashes of inv, getdata and notfound messages
// and the answer to getblocks and getblockbyindex (C#
// InvPayload.MaxHashesCount).
const MaxHashesCount = 500

// InventoryType is the kind of item an inventory names (C# InventoryType).
// The values are the commands that carry the items.
type InventoryType byte

// Inventory types.
const (
	TXType               InventoryType = 0x2b
	BlockType            InventoryType = 0x2c
	ExtensibleType       InventoryType = 0x2e
	P2PNotaryRequestType InventoryType = 0x50 // neo-go P2PSigExtensions
)

// ErrInventoryType is set for an unknown inventory type.
var ErrInventoryType = errors.New("invalid inventory type")

// Valid reports whether t is a known inventory type. C# knows the first
// three; neo-go adds P2PNotaryRequest, which the server accepts only with
// P2PSigExtensions on.
func (t InventoryType) Valid() bool {
	switch t {
	case TXType, BlockType, ExtensibleType, P2PNotaryRequestType:
		return true
	}
	return false
}

// String returns the C# name of t.
func (t InventoryType) String() string {
	switch t {
	case TXType:
		return "TX"
	case BlockType:
		return "Block"
	case ExtensibleType:
		return "Extensible"
	case P2PNotaryRequestType:
		return "P2PNotaryRequest"
	}
	return fmt.Sprintf("InventoryType(0x%02x)", byte(t))
}

// Inventory is the inv, getdata and notfound payload (C# InvPayload): a
// type and at most MaxHashesCount hashes.
type Inventory struct {
	Type   InventoryType
	Hashes []hash.Uint256
}

// Size returns the encoded size.
func (p *Inventory) Size() int {
	return 1 + nio.VarUintSize(uint64(len(p.Hashes))) + len(p.Hashes)*hash.Uint256Size
}

// EncodeBinary implements io.Encodable.
func (p *Inventory) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(byte(p.Type))
	writeHashes(w, p.Hashes)
}

// DecodeBinary implements io.Decodable.
func (p *Inventory) DecodeBinary(r *nio.BinReader) {
	p.Type = InventoryType(r.ReadU8())
	if r.Err == nil && !p.Type.Valid() {
		r.SetError(fmt.Errorf("%w: 0x%02x", ErrInventoryType, byte(p.Type)))
		return
	}
	p.Hashes = readHashes(r, MaxHashesCount)
}

func writeHashes(w *nio.BinWriter, hs []hash.Uint256) {
	w.WriteVarUint(uint64(len(hs)))
	for i := range hs {
		w.WriteBytes(hs[i][:])
	}
}

// readHashes reads a var-int count (at most max) and that many hashes into
// one allocation.
func readHashes(r *nio.BinReader, max int) []hash.Uint256 {
	n := r.ReadArrayLen(max)
	if r.Err != nil {
		return nil
	}
	if n*hash.Uint256Size > r.Len() {
		r.SetError(nio.ErrUnexpectedEOF)
		return nil
	}
	hs := make([]hash.Uint256, n)
	for i := range hs {
		r.ReadBytes(hs[i][:])
	}
	return hs
}

// MaxMPTHashesCount bounds the hashes of a getmptdata message (neo-go
// payload.MaxMPTHashesCount).
const MaxMPTHashesCount = 32

// MPTInventory is the getmptdata payload (neo-go state-sync extension):
// hashes of MPT nodes.
type MPTInventory struct {
	Hashes []hash.Uint256
}

// Size returns the encoded size.
func (p *MPTInventory) Size() int {
	return nio.VarUintSize(uint64(len(p.Hashes))) + len(p.Hashes)*hash.Uint256Size
}

// EncodeBinary implements io.Encodable.
func (p *MPTInventory) EncodeBinary(w *nio.BinWriter) { writeHashes(w, p.Hashes) }

// DecodeBinary implements io.Decodable.
func (p *MPTInventory) DecodeBinary(r *nio.BinReader) {
	p.Hashes = readHashes(r, MaxMPTHashesCount)
}

// MPTData is the mptdata payload (neo-go state-sync extension): serialized
// MPT nodes, at least one.
type MPTData struct {
	Nodes [][]byte
}

// Size returns the encoded size.
func (d *MPTData) Size() int {
	n := nio.VarUintSize(uint64(len(d.Nodes)))
	for _, b := range d.Nodes {
		n += nio.VarBytesSize(len(b))
	}
	return n
}

// EncodeBinary implements io.Encodable.
func (d *MPTData) EncodeBinary(w *nio.BinWriter) {
	w.WriteVarUint(uint64(len(d.Nodes)))
	for _, b := range d.Nodes {
		w.WriteVarBytes(b)
	}
}

// DecodeBinary implements io.Decodable. neo-go bounds the count only by
// the message size; every node takes at least one byte.
func (d *MPTData) DecodeBinary(r *nio.BinReader) {
	n := r.ReadVarUint()
	if r.Err != nil {
		return
	}
	if n == 0 {
		r.SetError(ErrEmptyList)
		return
	}
	if n > uint64(r.Len()) {
		r.SetError(nio.ErrUnexpectedEOF)
		return
	}
	d.Nodes = make([][]byte, n)
	for i := range d.Nodes {
		d.Nodes[i] = r.ReadVarBytes()
		if r.Err != nil {
			d.Nodes = nil
			return
		}
	}
}

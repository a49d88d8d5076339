package payload

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// MaxHeadersCount bounds a headers message and the count of a getheaders
// or getblockbyindex request (C# HeadersPayload.MaxHeadersCount, neo-go
// MaxHeadersAllowed).
const MaxHeadersCount = 2000

// ErrInvalidCount is set for a request count out of range.
var ErrInvalidCount = errors.New("invalid count")

// GetBlocks is the getblocks payload (C# GetBlocksPayload): block hashes
// after HashStart are wanted. Count is -1 (as many as allowed) or positive.
type GetBlocks struct {
	HashStart hash.Uint256
	Count     int16
}

// Size returns the encoded size.
func (p *GetBlocks) Size() int { return hash.Uint256Size + 2 }

// EncodeBinary implements io.Encodable.
func (p *GetBlocks) EncodeBinary(w *nio.BinWriter) {
	w.WriteBytes(p.HashStart[:])
	w.WriteU16LE(uint16(p.Count))
}

// DecodeBinary implements io.Decodable.
func (p *GetBlocks) DecodeBinary(r *nio.BinReader) {
	r.ReadBytes(p.HashStart[:])
	p.Count = int16(r.ReadU16LE())
	if r.Err == nil && (p.Count < -1 || p.Count == 0) {
		r.SetError(fmt.Errorf("%w: %d", ErrInvalidCount, p.Count))
	}
}

// GetBlockByIndex is the getblockbyindex and getheaders payload (C#
// GetBlockByIndexPayload): Count items from IndexStart; Count is -1 (as
// many as allowed) or 1..MaxHeadersCount.
type GetBlockByIndex struct {
	IndexStart uint32
	Count      int16
}

// Size returns the encoded size.
func (p *GetBlockByIndex) Size() int { return 6 }

// EncodeBinary implements io.Encodable.
func (p *GetBlockByIndex) EncodeBinary(w *nio.BinWriter) {
	w.WriteU32LE(p.IndexStart)
	w.WriteU16LE(uint16(p.Count))
}

// DecodeBinary implements io.Decodable.
func (p *GetBlockByIndex) DecodeBinary(r *nio.BinReader) {
	p.IndexStart = r.ReadU32LE()
	p.Count = int16(r.ReadU16LE())
	if r.Err == nil && (p.Count < -1 || p.Count == 0 || p.Count > MaxHeadersCount) {
		r.SetError(fmt.Errorf("%w: %d", ErrInvalidCount, p.Count))
	}
}

// Headers is the headers payload (C# HeadersPayload): 1..MaxHeadersCount
// headers. C# refuses a longer list; neo-go keeps the first 2000 and
// reports an error. We refuse it, as C# does.
type Headers struct {
	Hdrs []*block.Header
	// StateRootInHeader selects the header format when decoding (the
	// network's setting); encoding follows each header's own.
	StateRootInHeader bool
}

// minHeaderSize is the smallest encoded header: the unsigned part, the
// witness count and an empty witness.
const minHeaderSize = block.UnsignedHeaderSize + 1 + 2

// Size returns the encoded size.
func (p *Headers) Size() int {
	n := nio.VarUintSize(uint64(len(p.Hdrs)))
	for _, h := range p.Hdrs {
		n += h.Size()
	}
	return n
}

// EncodeBinary implements io.Encodable.
func (p *Headers) EncodeBinary(w *nio.BinWriter) {
	w.WriteVarUint(uint64(len(p.Hdrs)))
	for _, h := range p.Hdrs {
		h.EncodeBinary(w)
	}
}

// DecodeBinary implements io.Decodable.
func (p *Headers) DecodeBinary(r *nio.BinReader) {
	p.Hdrs = nil
	n := r.ReadArrayLen(MaxHeadersCount)
	if r.Err != nil {
		return
	}
	if n == 0 {
		r.SetError(ErrEmptyList)
		return
	}
	if n*minHeaderSize > r.Len() {
		r.SetError(nio.ErrUnexpectedEOF)
		return
	}
	vals := make([]block.Header, n)
	hdrs := make([]*block.Header, n)
	for i := range vals {
		vals[i].StateRootEnabled = p.StateRootInHeader
		vals[i].DecodeBinary(r)
		if r.Err != nil {
			return
		}
		hdrs[i] = &vals[i]
	}
	p.Hdrs = hdrs
}

// Ping is the ping and pong payload (C# PingPayload).
type Ping struct {
	LastBlockIndex uint32
	Timestamp      uint32 // seconds since the Unix epoch
	Nonce          uint32
}

// Size returns the encoded size.
func (p *Ping) Size() int { return 12 }

// EncodeBinary implements io.Encodable.
func (p *Ping) EncodeBinary(w *nio.BinWriter) {
	w.WriteU32LE(p.LastBlockIndex)
	w.WriteU32LE(p.Timestamp)
	w.WriteU32LE(p.Nonce)
}

// DecodeBinary implements io.Decodable.
func (p *Ping) DecodeBinary(r *nio.BinReader) {
	p.LastBlockIndex = r.ReadU32LE()
	p.Timestamp = r.ReadU32LE()
	p.Nonce = r.ReadU32LE()
}

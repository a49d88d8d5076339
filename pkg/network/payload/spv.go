package payload

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// SPV limits (C# FilterLoadPayload, FilterAddPayload).
const (
	// MaxFilterSize bounds FilterLoad.Filter (C#: ReadVarMemory(36000)).
	MaxFilterSize = 36000
	// MaxFilterK bounds FilterLoad.K (C#: K > 50 is invalid).
	MaxFilterK = 50
	// MaxFilterAddSize bounds FilterAdd.Data (C#: ReadVarMemory(520)).
	MaxFilterAddSize = 520
)

// ErrFilterK is set for a FilterLoad.K above MaxFilterK.
var ErrFilterK = errors.New("filterload: K out of range")

// MerkleBlock is the merkleblock payload (C# MerkleBlockPayload): a header,
// the transaction count and a partial merkle tree. C# bounds Hashes by
// TxCount and Flags by ceil(max(TxCount,1)/8) bytes; neo-go 0.120.0 also
// demands len(Hashes) == TxCount, which C#'s own sender does not meet (a
// trimmed tree has fewer hashes), so we follow C#.
type MerkleBlock struct {
	Header  block.Header
	TxCount int // at most block.MaxTransactionsPerBlock
	Hashes  []hash.Uint256
	Flags   []byte
}

// Size returns the encoded size.
func (m *MerkleBlock) Size() int {
	return m.Header.Size() + nio.VarUintSize(uint64(m.TxCount)) +
		nio.VarUintSize(uint64(len(m.Hashes))) + len(m.Hashes)*hash.Uint256Size +
		nio.VarBytesSize(len(m.Flags))
}

// EncodeBinary implements io.Encodable.
func (m *MerkleBlock) EncodeBinary(w *nio.BinWriter) {
	m.Header.EncodeBinary(w)
	w.WriteVarUint(uint64(m.TxCount))
	writeHashes(w, m.Hashes)
	w.WriteVarBytes(m.Flags)
}

// DecodeBinary implements io.Decodable.
func (m *MerkleBlock) DecodeBinary(r *nio.BinReader) {
	m.Header.DecodeBinary(r)
	m.TxCount = int(r.ReadVarUintMax(block.MaxTransactionsPerBlock))
	m.Hashes = readHashes(r, m.TxCount)
	m.Flags = r.ReadVarBytes((max(m.TxCount, 1) + 7) / 8)
}

// FilterLoad is the filterload payload (C# FilterLoadPayload): a bloom
// filter for SPV clients.
type FilterLoad struct {
	Filter []byte
	K      uint8
	Tweak  uint32
}

// Size returns the encoded size.
func (p *FilterLoad) Size() int { return nio.VarBytesSize(len(p.Filter)) + 5 }

// EncodeBinary implements io.Encodable.
func (p *FilterLoad) EncodeBinary(w *nio.BinWriter) {
	w.WriteVarBytes(p.Filter)
	w.WriteU8(p.K)
	w.WriteU32LE(p.Tweak)
}

// DecodeBinary implements io.Decodable.
func (p *FilterLoad) DecodeBinary(r *nio.BinReader) {
	p.Filter = r.ReadVarBytes(MaxFilterSize)
	p.K = r.ReadU8()
	if r.Err == nil && p.K > MaxFilterK {
		r.SetError(fmt.Errorf("%w: %d", ErrFilterK, p.K))
		return
	}
	p.Tweak = r.ReadU32LE()
}

// FilterAdd is the filteradd payload (C# FilterAddPayload).
type FilterAdd struct {
	Data []byte
}

// Size returns the encoded size.
func (p *FilterAdd) Size() int { return nio.VarBytesSize(len(p.Data)) }

// EncodeBinary implements io.Encodable.
func (p *FilterAdd) EncodeBinary(w *nio.BinWriter) { w.WriteVarBytes(p.Data) }

// DecodeBinary implements io.Decodable.
func (p *FilterAdd) DecodeBinary(r *nio.BinReader) { p.Data = r.ReadVarBytes(MaxFilterAddSize) }

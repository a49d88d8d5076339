package message

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// Body limits.
const (
	// MaxTransactionHashes bounds PrepareRequest.TransactionHashes (C#
	// PrepareRequest.Deserialize: ReadSerializableArray(ushort.MaxValue));
	// the network's MaxTransactionsPerBlock is checked by the service.
	MaxTransactionHashes = 0xffff
	// MaxRejectedHashes bounds ChangeView.RejectedHashes (C# 3.10
	// ChangeView.Deserialize: ushort.MaxValue).
	MaxRejectedHashes = 0xffff
	// SignatureSize is the size of a Commit signature (C# Commit:
	// ReadMemory(64)).
	SignatureSize = 64
)

// ChangeViewReason says why a validator asks for a new view (C#
// ChangeViewReason; dbft's ChangeViewReason values).
type ChangeViewReason byte

// Change view reasons.
const (
	CVTimeout               ChangeViewReason = 0x0
	CVChangeAgreement       ChangeViewReason = 0x1
	CVTxNotFound            ChangeViewReason = 0x2
	CVTxRejectedByPolicy    ChangeViewReason = 0x3
	CVTxInvalid             ChangeViewReason = 0x4
	CVBlockRejectedByPolicy ChangeViewReason = 0x5
)

// HasHashes reports whether C# 3.10 writes rejected hashes for reason r.
func (r ChangeViewReason) HasHashes() bool {
	return r == CVTxRejectedByPolicy || r == CVTxInvalid
}

// ChangeView asks to move to view ViewNumber+1 (C# ChangeView).
type ChangeView struct {
	// Timestamp is the sender's clock in milliseconds.
	Timestamp uint64
	Reason    ChangeViewReason
	// HasRejectedHashes says whether the rejected hash list is on the
	// wire (only for reasons that carry it; see the package doc).
	HasRejectedHashes bool
	RejectedHashes    []hash.Uint256
}

// Type implements Body.
func (*ChangeView) Type() Type { return ChangeViewType }

// Size implements Body.
func (c *ChangeView) Size() int {
	if c.HasRejectedHashes && c.Reason.HasHashes() {
		return 9 + hashesSize(len(c.RejectedHashes))
	}
	return 9
}

// EncodeBinary implements io.Encodable.
func (c *ChangeView) EncodeBinary(w *nio.BinWriter) {
	w.WriteU64LE(c.Timestamp)
	w.WriteU8(byte(c.Reason))
	if c.HasRejectedHashes && c.Reason.HasHashes() {
		writeHashes(w, c.RejectedHashes)
	}
}

// DecodeBinary implements io.Decodable.
func (c *ChangeView) DecodeBinary(r *nio.BinReader) {
	*c = ChangeView{}
	c.Timestamp = r.ReadU64LE()
	c.Reason = ChangeViewReason(r.ReadU8())
	if r.Err == nil && c.Reason.HasHashes() && r.Len() > 0 {
		c.HasRejectedHashes = true
		c.RejectedHashes = readHashes(r, MaxRejectedHashes)
	}
}

// PrepareRequest is the primary's block proposal (C# PrepareRequest).
type PrepareRequest struct {
	Version  uint32
	PrevHash hash.Uint256
	// Timestamp is the proposed block timestamp in milliseconds.
	Timestamp         uint64
	Nonce             uint64
	TransactionHashes []hash.Uint256
	// StateRootEnabled (neo-go's StateRootInHeader networks) adds
	// StateRoot after the hashes: the primary's local state root of the
	// previous block, which the block's header will carry. Decoding keeps
	// the value the caller set.
	StateRootEnabled bool
	StateRoot        hash.Uint256
}

// Type implements Body.
func (*PrepareRequest) Type() Type { return PrepareRequestType }

// Size implements Body.
func (p *PrepareRequest) Size() int {
	n := 4 + hash.Uint256Size + 8 + 8 + hashesSize(len(p.TransactionHashes))
	if p.StateRootEnabled {
		n += hash.Uint256Size
	}
	return n
}

// EncodeBinary implements io.Encodable.
func (p *PrepareRequest) EncodeBinary(w *nio.BinWriter) {
	w.WriteU32LE(p.Version)
	w.WriteBytes(p.PrevHash[:])
	w.WriteU64LE(p.Timestamp)
	w.WriteU64LE(p.Nonce)
	writeHashes(w, p.TransactionHashes)
	if p.StateRootEnabled {
		w.WriteBytes(p.StateRoot[:])
	}
}

// DecodeBinary implements io.Decodable.
func (p *PrepareRequest) DecodeBinary(r *nio.BinReader) {
	*p = PrepareRequest{StateRootEnabled: p.StateRootEnabled}
	p.Version = r.ReadU32LE()
	r.ReadBytes(p.PrevHash[:])
	p.Timestamp = r.ReadU64LE()
	p.Nonce = r.ReadU64LE()
	p.TransactionHashes = readHashes(r, MaxTransactionHashes)
	if p.StateRootEnabled {
		r.ReadBytes(p.StateRoot[:])
	}
	if r.Err == nil && hasDuplicate(p.TransactionHashes) {
		r.SetError(ErrDuplicateHash)
	}
}

// PrepareResponse accepts a proposal (C# PrepareResponse).
type PrepareResponse struct {
	// PreparationHash is the hash of the PrepareRequest payload.
	PreparationHash hash.Uint256
}

// Type implements Body.
func (*PrepareResponse) Type() Type { return PrepareResponseType }

// Size implements Body.
func (*PrepareResponse) Size() int { return hash.Uint256Size }

// EncodeBinary implements io.Encodable.
func (p *PrepareResponse) EncodeBinary(w *nio.BinWriter) { w.WriteBytes(p.PreparationHash[:]) }

// DecodeBinary implements io.Decodable.
func (p *PrepareResponse) DecodeBinary(r *nio.BinReader) { r.ReadBytes(p.PreparationHash[:]) }

// Commit carries the sender's signature of the proposed block header (C#
// Commit).
type Commit struct {
	Signature [SignatureSize]byte
}

// Type implements Body.
func (*Commit) Type() Type { return CommitType }

// Size implements Body.
func (*Commit) Size() int { return SignatureSize }

// EncodeBinary implements io.Encodable.
func (c *Commit) EncodeBinary(w *nio.BinWriter) { w.WriteBytes(c.Signature[:]) }

// DecodeBinary implements io.Decodable.
func (c *Commit) DecodeBinary(r *nio.BinReader) { r.ReadBytes(c.Signature[:]) }

// RecoveryRequest asks the others for a RecoveryMessage (C#
// RecoveryRequest).
type RecoveryRequest struct {
	// Timestamp is the sender's clock in milliseconds.
	Timestamp uint64
}

// Type implements Body.
func (*RecoveryRequest) Type() Type { return RecoveryRequestType }

// Size implements Body.
func (*RecoveryRequest) Size() int { return 8 }

// EncodeBinary implements io.Encodable.
func (m *RecoveryRequest) EncodeBinary(w *nio.BinWriter) { w.WriteU64LE(m.Timestamp) }

// DecodeBinary implements io.Decodable.
func (m *RecoveryRequest) DecodeBinary(r *nio.BinReader) { m.Timestamp = r.ReadU64LE() }

func hashesSize(n int) int { return nio.VarUintSize(uint64(n)) + n*hash.Uint256Size }

func writeHashes(w *nio.BinWriter, hs []hash.Uint256) {
	w.Grow(hashesSize(len(hs)))
	w.WriteVarUint(uint64(len(hs)))
	for i := range hs {
		w.WriteBytes(hs[i][:])
	}
}

func readHashes(r *nio.BinReader, max int) []hash.Uint256 {
	n := r.ReadArrayLen(max)
	if r.Err != nil {
		return nil
	}
	if n*hash.Uint256Size > r.Len() {
		r.SetError(fmt.Errorf("%w: %d hashes", nio.ErrUnexpectedEOF, n))
		return nil
	}
	hs := make([]hash.Uint256, n)
	for i := range hs {
		r.ReadBytes(hs[i][:])
	}
	return hs
}

// hasDuplicate reports whether a hash repeats. Large lists go through an
// open-addressing table keyed by the first 8 bytes (hashes are uniform),
// which costs one small allocation instead of a map.
func hasDuplicate(hs []hash.Uint256) bool {
	if len(hs) <= 16 {
		for i := range hs {
			if slices.Contains(hs[:i], hs[i]) {
				return true
			}
		}
		return false
	}
	size := 1
	for size < 2*len(hs) {
		size <<= 1
	}
	table := make([]int32, size) // index+1 into hs, 0 = empty
	mask := uint64(size - 1)
	for i := range hs {
		j := binary.LittleEndian.Uint64(hs[i][:8]) & mask
		for table[j] != 0 {
			if hs[table[j]-1] == hs[i] {
				return true
			}
			j = (j + 1) & mask
		}
		table[j] = int32(i + 1)
	}
	return false
}

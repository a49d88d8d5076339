package payload

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

const (
	// MaxCategorySize bounds Extensible.Category in bytes (C#
	// ExtensiblePayload: ReadVarString(32)).
	MaxCategorySize = 32
	// MaxExtensibleDataSize bounds Extensible.Data (C# ReadVarMemory's
	// default 0x1000000; the message limit is the tighter bound in practice).
	MaxExtensibleDataSize = nio.MaxArraySize
)

// Well-known categories.
const (
	// ConsensusCategory carries dBFT messages.
	ConsensusCategory = "dBFT"
	// StateServiceCategory carries state root messages (C# StateService
	// plugin, neo-go stateroot service).
	StateServiceCategory = "StateService"
)

// Extensible payload errors.
var (
	ErrValidRange   = errors.New("extensible: ValidBlockStart >= ValidBlockEnd")
	ErrWitnessCount = errors.New("extensible: witness count must be 1")
)

// Extensible is a payload for services above the ledger (C#
// ExtensiblePayload): consensus, state roots, anything keyed by Category.
// It is valid while the chain height h satisfies ValidBlockStart <= h <
// ValidBlockEnd, and its witness is checked against Sender.
type Extensible struct {
	Category        string // strict UTF-8, at most MaxCategorySize bytes
	ValidBlockStart uint32
	ValidBlockEnd   uint32
	Sender          hash.Uint160
	Data            []byte
	Witness         transaction.Witness

	hash   hash.Uint256
	hashed bool
}

func (e *Extensible) unsignedSize() int {
	return nio.VarBytesSize(len(e.Category)) + 8 + hash.Uint160Size + nio.VarBytesSize(len(e.Data))
}

// Size returns the encoded size.
func (e *Extensible) Size() int { return e.unsignedSize() + 1 + e.Witness.Size() }

// encodeUnsigned writes the signed part: category, validity range, sender,
// data.
func (e *Extensible) encodeUnsigned(w *nio.BinWriter) {
	w.WriteString(e.Category)
	for _, height := range [2]uint32{e.ValidBlockStart, e.ValidBlockEnd} {
		w.WriteU32LE(height)
	}
	e.Sender.EncodeBinary(w)
	w.WriteVarBytes(e.Data)
}

// EncodeBinary implements io.Encodable.
func (e *Extensible) EncodeBinary(w *nio.BinWriter) {
	e.encodeUnsigned(w)
	w.WriteU8(1)
	e.Witness.EncodeBinary(w)
}

// DecodeBinary implements io.Decodable (C# ExtensiblePayload.Deserialize).
func (e *Extensible) DecodeBinary(r *nio.BinReader) {
	*e = Extensible{}
	e.Category = r.ReadVarString(MaxCategorySize)
	e.ValidBlockStart = r.ReadU32LE()
	e.ValidBlockEnd = r.ReadU32LE()
	if r.Err == nil && e.ValidBlockStart >= e.ValidBlockEnd {
		r.SetError(fmt.Errorf("%w: %d >= %d", ErrValidRange, e.ValidBlockStart, e.ValidBlockEnd))
		return
	}
	r.ReadBytes(e.Sender[:])
	e.Data = r.ReadVarBytes(MaxExtensibleDataSize)
	if n := r.ReadU8(); r.Err == nil && n != 1 {
		r.SetError(fmt.Errorf("%w: got %d", ErrWitnessCount, n))
		return
	}
	e.Witness.DecodeBinary(r)
}

// EncodeHashableFields returns the unsigned part, which the hash covers.
func (e *Extensible) EncodeHashableFields() []byte {
	w := nio.NewBinWriterWithCap(e.unsignedSize())
	e.encodeUnsigned(w)
	return w.Bytes()
}

// Hash returns SHA-256 of the unsigned part (C# CalculateHash), cached on
// first use.
func (e *Extensible) Hash() hash.Uint256 {
	if !e.hashed {
		e.hash = sha256.Sum256(e.EncodeHashableFields())
		e.hashed = true
	}
	return e.hash
}

// ResetHash drops the cached hash after a field was changed.
func (e *Extensible) ResetHash() { e.hashed = false }

// SignData returns network magic (uint32 LE) || hash, the data the witness
// signs.
func (e *Extensible) SignData(magic uint32) [4 + hash.Uint256Size]byte {
	return transaction.SignData(magic, e.Hash())
}

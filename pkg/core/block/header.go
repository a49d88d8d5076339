package block

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	nio "github.com/n3node/n3node/pkg/io"
)

// UnsignedHeaderSize is the size of the hashed part of a header without
// a state root (StateRootInHeader off, the Neo N3 format).
const UnsignedHeaderSize = 4 + hash.Uint256Size + hash.Uint256Size + 8 + 8 + 4 + 1 + hash.Uint160Size

// MaxUnsignedHeaderSize is the size of the hashed part of a header that
// carries the previous state root (StateRootInHeader on).
const MaxUnsignedHeaderSize = UnsignedHeaderSize + hash.Uint256Size

// UnsignedSize returns the size of the hashed part of a header in the
// given format.
func UnsignedSize(stateRootInHeader bool) int {
	if stateRootInHeader {
		return MaxUnsignedHeaderSize
	}
	return UnsignedHeaderSize
}

// Header errors.
var (
	ErrInvalidVersion = errors.New("invalid block version")
	ErrWitnessCount   = errors.New("header must have exactly one witness")
	ErrTrailingBytes  = errors.New("trailing bytes after block")
	ErrHashMismatch   = errors.New("JSON hash does not match the block")
	ErrNoStateRoot    = errors.New("'previousstateroot' is empty")
)

// Header is a block header.
type Header struct {
	Version       uint32
	PrevHash      hash.Uint256
	MerkleRoot    hash.Uint256
	Timestamp     uint64 // milliseconds since the Unix epoch
	Nonce         uint64
	Index         uint32
	PrimaryIndex  uint8
	NextConsensus hash.Uint160
	// StateRootEnabled selects the format of networks with
	// StateRootInHeader (neo-go's extension): the hashed part ends with
	// PrevStateRoot, the state root after the previous block. Decoders
	// keep the value the caller set before decoding.
	StateRootEnabled bool
	PrevStateRoot    hash.Uint256
	Witness          transaction.Witness

	hash   hash.Uint256
	hashed bool
}

// NewHeaderFromBytes decodes a header spanning all of b; b is copied.
func NewHeaderFromBytes(b []byte) (*Header, error) { return DecodeHeader(b, false) }

// DecodeHeader decodes a header spanning all of b in the format of a
// network with or without StateRootInHeader; b is copied.
func DecodeHeader(b []byte, stateRootInHeader bool) (*Header, error) {
	b = append([]byte(nil), b...)
	h := &Header{StateRootEnabled: stateRootInHeader}
	r := nio.NewBinReaderFromBuf(b)
	h.decode(r, b)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, ErrTrailingBytes
	}
	return h, nil
}

// Hash returns SHA-256 of the unsigned header, cached.
func (h *Header) Hash() hash.Uint256 {
	if !h.hashed {
		var buf [MaxUnsignedHeaderSize]byte
		h.hash = sha256.Sum256(h.appendUnsigned(buf[:0]))
		h.hashed = true
	}
	return h.hash
}

// SignData returns network magic (uint32 LE) || hash.
func (h *Header) SignData(magic uint32) [4 + hash.Uint256Size]byte {
	return transaction.SignData(magic, h.Hash())
}

// Size returns the encoded header size.
func (h *Header) Size() int { return UnsignedSize(h.StateRootEnabled) + 1 + h.Witness.Size() }

func (h *Header) appendUnsigned(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, h.Version)
	b = append(b, h.PrevHash[:]...)
	b = append(b, h.MerkleRoot[:]...)
	b = binary.LittleEndian.AppendUint64(b, h.Timestamp)
	b = binary.LittleEndian.AppendUint64(b, h.Nonce)
	b = binary.LittleEndian.AppendUint32(b, h.Index)
	b = append(b, h.PrimaryIndex)
	b = append(b, h.NextConsensus[:]...)
	if h.StateRootEnabled {
		b = append(b, h.PrevStateRoot[:]...)
	}
	return b
}

// EncodeHashableFields returns the unsigned header.
func (h *Header) EncodeHashableFields() []byte {
	return h.appendUnsigned(make([]byte, 0, UnsignedSize(h.StateRootEnabled)))
}

// EncodeBinary writes the header with its witness.
func (h *Header) EncodeBinary(w *nio.BinWriter) {
	var buf [MaxUnsignedHeaderSize]byte
	w.WriteBytes(h.appendUnsigned(buf[:0]))
	w.WriteVarUint(1)
	h.Witness.EncodeBinary(w)
}

// DecodeBinary reads a header in the format StateRootEnabled selects; the
// witness scripts are copies.
func (h *Header) DecodeBinary(r *nio.BinReader) {
	rest := r.Unread()
	if rest == nil {
		r.SetError(nio.ErrUnexpectedEOF)
		return
	}
	sub := nio.NewBinReaderFromBuf(rest)
	h.decode(sub, rest)
	if sub.Err != nil {
		r.SetError(sub.Err)
		return
	}
	r.ReadBytesAlias(sub.Offset())
	h.Witness = h.Witness.Copy()
}

// decode reads a header from r, whose input is buf, aliasing buf. The
// format is the one h.StateRootEnabled selects.
func (h *Header) decode(r *nio.BinReader, buf []byte) {
	*h = Header{StateRootEnabled: h.StateRootEnabled}
	start := r.Offset()
	unsigned := UnsignedSize(h.StateRootEnabled)
	f := r.ReadBytesAlias(unsigned)
	if r.Err != nil {
		return
	}
	h.Version = binary.LittleEndian.Uint32(f)
	if h.Version > 0 {
		r.SetError(fmt.Errorf("%w: %d", ErrInvalidVersion, h.Version))
		return
	}
	copy(h.PrevHash[:], f[4:])
	copy(h.MerkleRoot[:], f[36:])
	h.Timestamp = binary.LittleEndian.Uint64(f[68:])
	h.Nonce = binary.LittleEndian.Uint64(f[76:])
	h.Index = binary.LittleEndian.Uint32(f[84:])
	h.PrimaryIndex = f[88]
	copy(h.NextConsensus[:], f[89:])
	if h.StateRootEnabled {
		copy(h.PrevStateRoot[:], f[UnsignedHeaderSize:])
	}
	// C#: ReadSerializableArray<Witness>(1), then exactly one.
	n := r.ReadVarUintMax(1)
	if r.Err != nil || n != 1 {
		r.Err = fmt.Errorf("%w: %w", ErrWitnessCount, errOr(r.Err))
		return
	}
	inv := readVarBytes(r, transaction.MaxInvocationScript)
	ver := readVarBytes(r, transaction.MaxVerificationScript)
	if r.Err != nil {
		return
	}
	h.Witness = transaction.Witness{InvocationScript: inv, VerificationScript: ver}
	h.hash = sha256.Sum256(buf[start : start+unsigned])
	h.hashed = true
}

func errOr(err error) error {
	if err == nil {
		return errors.New("count is not 1")
	}
	return err
}

func readVarBytes(r *nio.BinReader, max int) []byte {
	n := r.ReadVarUintMax(uint64(max))
	if r.Err != nil {
		return nil
	}
	return r.ReadBytesAlias(int(n))
}

// headerJSON mirrors neo-go's field order.
type headerJSON struct {
	Hash          hash.Uint256          `json:"hash"`
	Version       uint32                `json:"version"`
	PrevHash      hash.Uint256          `json:"previousblockhash"`
	MerkleRoot    hash.Uint256          `json:"merkleroot"`
	Timestamp     uint64                `json:"time"`
	Nonce         string                `json:"nonce"`
	Index         uint32                `json:"index"`
	NextConsensus string                `json:"nextconsensus"`
	PrimaryIndex  byte                  `json:"primary"`
	PrevStateRoot *hash.Uint256         `json:"previousstateroot,omitzero"`
	Witnesses     []transaction.Witness `json:"witnesses"`
}

func (h *Header) toJSON() headerJSON {
	aux := headerJSON{
		Hash:          h.Hash(),
		Version:       h.Version,
		PrevHash:      h.PrevHash,
		MerkleRoot:    h.MerkleRoot,
		Timestamp:     h.Timestamp,
		Nonce:         fmt.Sprintf("%016X", h.Nonce),
		Index:         h.Index,
		NextConsensus: address.FromUint160(h.NextConsensus),
		PrimaryIndex:  h.PrimaryIndex,
		Witnesses:     []transaction.Witness{h.Witness},
	}
	if h.StateRootEnabled {
		root := h.PrevStateRoot
		aux.PrevStateRoot = &root
	}
	return aux
}

// MarshalJSON writes hash, version, previousblockhash, merkleroot, time,
// nonce (16 upper-case hex digits), index, nextconsensus (address), primary,
// previousstateroot (only with StateRootEnabled) and witnesses.
func (h *Header) MarshalJSON() ([]byte, error) { return json.Marshal(h.toJSON()) }

// UnmarshalJSON parses the JSON form and checks "hash". With
// StateRootEnabled set before the call, "previousstateroot" is required.
func (h *Header) UnmarshalJSON(data []byte) error {
	var aux headerJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	return h.fromJSON(&aux)
}

func (h *Header) fromJSON(aux *headerJSON) error {
	var nonce uint64
	if aux.Nonce != "" {
		var err error
		if nonce, err = strconv.ParseUint(aux.Nonce, 16, 64); err != nil {
			return fmt.Errorf("nonce: %w", err)
		}
	}
	nc, err := address.ToUint160(aux.NextConsensus)
	if err != nil {
		return fmt.Errorf("nextconsensus: %w", err)
	}
	if len(aux.Witnesses) != 1 {
		return ErrWitnessCount
	}
	if aux.Version > 0 {
		return ErrInvalidVersion
	}
	var root hash.Uint256
	if h.StateRootEnabled {
		if aux.PrevStateRoot == nil {
			return ErrNoStateRoot
		}
		root = *aux.PrevStateRoot
	}
	*h = Header{
		StateRootEnabled: h.StateRootEnabled,
		PrevStateRoot:    root,
		Version:          aux.Version,
		PrevHash:         aux.PrevHash,
		MerkleRoot:       aux.MerkleRoot,
		Timestamp:        aux.Timestamp,
		Nonce:            nonce,
		Index:            aux.Index,
		PrimaryIndex:     aux.PrimaryIndex,
		NextConsensus:    nc,
		Witness:          aux.Witnesses[0],
	}
	if h.Hash() != aux.Hash {
		return ErrHashMismatch
	}
	return nil
}

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

// UnsignedHeaderSize is the size of the hashed part of a header.
const UnsignedHeaderSize = 4 + hash.Uint256Size + hash.Uint256Size + 8 + 8 + 4 + 1 + hash.Uint160Size

// Header errors.
var (
	ErrInvalidVersion = errors.New("invalid block version")
	ErrWitnessCount   = errors.New("header must have exactly one witness")
	ErrTrailingBytes  = errors.New("trailing bytes after block")
	ErrHashMismatch   = errors.New("JSON hash does not match the block")
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
	Witness       transaction.Witness

	hash   hash.Uint256
	hashed bool
}

// NewHeaderFromBytes decodes a header spanning all of b; b is copied.
func NewHeaderFromBytes(b []byte) (*Header, error) {
	b = append([]byte(nil), b...)
	h := &Header{}
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
		var buf [UnsignedHeaderSize]byte
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
func (h *Header) Size() int { return UnsignedHeaderSize + 1 + h.Witness.Size() }

func (h *Header) appendUnsigned(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, h.Version)
	b = append(b, h.PrevHash[:]...)
	b = append(b, h.MerkleRoot[:]...)
	b = binary.LittleEndian.AppendUint64(b, h.Timestamp)
	b = binary.LittleEndian.AppendUint64(b, h.Nonce)
	b = binary.LittleEndian.AppendUint32(b, h.Index)
	b = append(b, h.PrimaryIndex)
	return append(b, h.NextConsensus[:]...)
}

// EncodeHashableFields returns the unsigned header.
func (h *Header) EncodeHashableFields() []byte {
	return h.appendUnsigned(make([]byte, 0, UnsignedHeaderSize))
}

// EncodeBinary writes the header with its witness.
func (h *Header) EncodeBinary(w *nio.BinWriter) {
	var buf [UnsignedHeaderSize]byte
	w.WriteBytes(h.appendUnsigned(buf[:0]))
	w.WriteVarUint(1)
	h.Witness.EncodeBinary(w)
}

// DecodeBinary reads a header; the witness scripts are copies.
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

// decode reads a header from r, whose input is buf, aliasing buf.
func (h *Header) decode(r *nio.BinReader, buf []byte) {
	*h = Header{}
	start := r.Offset()
	f := r.ReadBytesAlias(UnsignedHeaderSize)
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
	h.hash = sha256.Sum256(buf[start : start+UnsignedHeaderSize])
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
	Witnesses     []transaction.Witness `json:"witnesses"`
}

func (h *Header) toJSON() headerJSON {
	return headerJSON{
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
}

// MarshalJSON writes hash, version, previousblockhash, merkleroot, time,
// nonce (16 upper-case hex digits), index, nextconsensus (address), primary
// and witnesses.
func (h *Header) MarshalJSON() ([]byte, error) { return json.Marshal(h.toJSON()) }

// UnmarshalJSON parses the JSON form and checks "hash".
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
	*h = Header{
		Version:       aux.Version,
		PrevHash:      aux.PrevHash,
		MerkleRoot:    aux.MerkleRoot,
		Timestamp:     aux.Timestamp,
		Nonce:         nonce,
		Index:         aux.Index,
		PrimaryIndex:  aux.PrimaryIndex,
		NextConsensus: nc,
		Witness:       aux.Witnesses[0],
	}
	if h.Hash() != aux.Hash {
		return ErrHashMismatch
	}
	return nil
}

package stateroot

import (
	"encoding/json"
	"fmt"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// Root is the state root of one height (neo-go state.MPTRoot, C# StateRoot
// of the StateService plugin): version, index, root hash and the
// validators' witness once validated.
type Root struct {
	Version  byte
	Index    uint32
	RootHash hash.Uint256
	Witness  []transaction.Witness
}

// EncodeBinary writes the wire form: version, index (u32 LE), root,
// witnesses (var-array, at most one).
func (r *Root) EncodeBinary(w *nio.BinWriter) {
	r.EncodeBinaryUnsigned(w)
	w.WriteVarUint(uint64(len(r.Witness)))
	for i := range r.Witness {
		r.Witness[i].EncodeBinary(w)
	}
}

// EncodeBinaryUnsigned writes the signed part: version, index, root.
func (r *Root) EncodeBinaryUnsigned(w *nio.BinWriter) {
	w.WriteU8(r.Version)
	w.WriteU32LE(r.Index)
	w.WriteBytes(r.RootHash[:])
}

// DecodeBinary reads the wire form.
func (r *Root) DecodeBinary(br *nio.BinReader) {
	r.Version = br.ReadU8()
	r.Index = br.ReadU32LE()
	br.ReadBytes(r.RootHash[:])
	n := br.ReadArrayLen(1)
	r.Witness = make([]transaction.Witness, n)
	for i := range r.Witness {
		r.Witness[i].DecodeBinary(br)
	}
}

// Bytes returns the wire form.
func (r *Root) Bytes() []byte {
	w := nio.NewBinWriterWithCap(1 + 4 + hash.Uint256Size + 1)
	r.EncodeBinary(w)
	return w.Bytes()
}

// Hash returns SHA-256 of the unsigned part (what validators sign).
func (r *Root) Hash() hash.Uint256 {
	w := nio.NewBinWriterWithCap(1 + 4 + hash.Uint256Size)
	r.EncodeBinaryUnsigned(w)
	return hash.Sha256(w.Bytes())
}

// RootFromBytes decodes the wire form.
func RootFromBytes(b []byte) (*Root, error) {
	r := new(Root)
	br := nio.NewBinReaderFromBuf(b)
	r.DecodeBinary(br)
	if br.Err == nil && br.Len() != 0 {
		br.Err = fmt.Errorf("%d trailing bytes", br.Len())
	}
	if br.Err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, br.Err)
	}
	return r, nil
}

type rootJSON struct {
	Version  byte                  `json:"version"`
	Index    uint32                `json:"index"`
	RootHash hash.Uint256          `json:"roothash"`
	Witness  []transaction.Witness `json:"witnesses"`
}

// MarshalJSON writes neo-go's getstateroot form (witnesses always an
// array).
func (r *Root) MarshalJSON() ([]byte, error) {
	w := r.Witness
	if w == nil {
		w = []transaction.Witness{}
	}
	return json.Marshal(&rootJSON{Version: r.Version, Index: r.Index, RootHash: r.RootHash, Witness: w})
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (r *Root) UnmarshalJSON(data []byte) error {
	var aux rootJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*r = Root{Version: aux.Version, Index: aux.Index, RootHash: aux.RootHash, Witness: aux.Witness}
	return nil
}

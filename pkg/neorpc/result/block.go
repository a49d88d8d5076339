package result

import (
	"encoding/json"
	"errors"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// BlockMetadata is what getblock and getblockheader add to a verbose block
// or header: its size, the next block's hash (if any) and the number of
// confirmations (chain height - index + 1).
type BlockMetadata struct {
	Size          int           `json:"size"`
	NextBlockHash *hash.Uint256 `json:"nextblockhash,omitzero"`
	Confirmations uint32        `json:"confirmations"`
}

// Block is a verbose getblock result: the metadata fields, then the block's
// own fields.
type Block struct {
	block.Block
	BlockMetadata
}

// Header is a verbose getblockheader result.
type Header struct {
	block.Header
	BlockMetadata
}

// errMerge is returned when two JSON objects cannot be merged.
var errMerge = errors.New("can't merge internal jsons")

// mergeObjects returns the fields of a followed by those of b in one object.
// Both must be non-empty JSON objects; a is modified.
func mergeObjects(a, b []byte) ([]byte, error) {
	if len(a) < 2 || len(b) < 2 || a[len(a)-1] != '}' || b[0] != '{' {
		return nil, errMerge
	}
	if len(b) == 2 { // {}
		return a, nil
	}
	if len(a) == 2 {
		return b, nil
	}
	a[len(a)-1] = ','
	return append(a, b[1:]...), nil
}

// MarshalJSON writes size, nextblockhash, confirmations, then the block.
func (b Block) MarshalJSON() ([]byte, error) {
	meta, err := json.Marshal(b.BlockMetadata)
	if err != nil {
		return nil, err
	}
	// The block's own form (header fields, then "tx"), built from the
	// parts' MarshalJSON so that encoding/json does not re-validate the
	// transactions.
	head, err := b.Block.Header.MarshalJSON()
	if err != nil {
		return nil, err
	}
	out, err := mergeObjects(meta, head)
	if err != nil {
		return nil, err
	}
	out = append(out[:len(out)-1], `,"tx":[`...)
	for i, tx := range b.Transactions {
		tb, err := tx.MarshalJSON()
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, tb...)
	}
	return append(out, "]}"...), nil
}

// UnmarshalJSON reads both parts from the same object.
func (b *Block) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &b.BlockMetadata); err != nil {
		return err
	}
	return json.Unmarshal(data, &b.Block)
}

// MarshalJSON writes size, nextblockhash, confirmations, then the header.
func (h Header) MarshalJSON() ([]byte, error) {
	meta, err := json.Marshal(h.BlockMetadata)
	if err != nil {
		return nil, err
	}
	body, err := h.Header.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return mergeObjects(meta, body)
}

// UnmarshalJSON reads both parts from the same object.
func (h *Header) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &h.BlockMetadata); err != nil {
		return err
	}
	return json.Unmarshal(data, &h.Header)
}

package block

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// MaxTransactionsPerBlock bounds the transaction count when decoding (C#
// Block.Deserialize: ushort.MaxValue). Networks set a lower limit that
// block verification enforces.
const MaxTransactionsPerBlock = 0xffff

// minTransactionSize is the smallest encoded transaction: fixed fields,
// one signer, no attributes, a 1-byte script and an empty witness.
const minTransactionSize = transaction.HeaderSize + 1 + 21 + 1 + 2 + 1 + 2

// Block errors.
var (
	ErrDuplicateTransaction = errors.New("duplicate transaction in block")
	ErrMerkleRoot           = errors.New("merkle root does not match the transactions")
)

// Block is a header with transactions.
type Block struct {
	Header
	Transactions []*transaction.Transaction
}

// NewBlockFromBytes decodes a block spanning all of b. b is copied once
// and the block aliases the copy.
func NewBlockFromBytes(b []byte) (*Block, error) {
	return NewBlockFromOwnedBytes(append([]byte(nil), b...))
}

// NewBlockFromOwnedBytes decodes a block spanning all of b and aliases b,
// which the caller must not modify afterwards.
func NewBlockFromOwnedBytes(b []byte) (*Block, error) { return DecodeOwnedBlock(b, false) }

// DecodeOwnedBlock is NewBlockFromOwnedBytes for a network with or
// without StateRootInHeader.
func DecodeOwnedBlock(b []byte, stateRootInHeader bool) (*Block, error) {
	blk := &Block{Header: Header{StateRootEnabled: stateRootInHeader}}
	r := nio.NewBinReaderFromBuf(b)
	blk.decode(r, b, true)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, ErrTrailingBytes
	}
	return blk, nil
}

// DecodeBinary implements io.Decodable in the format StateRootEnabled
// selects; it keeps copies, not aliases of r's input.
func (b *Block) DecodeBinary(r *nio.BinReader) {
	rest := r.Unread()
	if rest == nil {
		r.SetError(nio.ErrUnexpectedEOF)
		return
	}
	sub := nio.NewBinReaderFromBuf(rest)
	b.decode(sub, rest, false)
	if sub.Err != nil {
		r.SetError(sub.Err)
		return
	}
	r.ReadBytesAlias(sub.Offset())
	b.Witness = b.Witness.Copy()
}

// decode follows C# Block.Deserialize. With alias, transactions alias buf;
// otherwise they copy their bytes.
func (b *Block) decode(r *nio.BinReader, buf []byte, alias bool) {
	b.Header.decode(r, buf)
	if r.Err != nil {
		return
	}
	n := int(r.ReadVarUintMax(MaxTransactionsPerBlock))
	if r.Err != nil {
		return
	}
	if n*minTransactionSize > r.Len() {
		r.SetError(nio.ErrUnexpectedEOF)
		return
	}
	b.Transactions = make([]*transaction.Transaction, n)
	txs := make([]transaction.Transaction, n)
	hashes := make([]hash.Uint256, n)
	for i := range txs {
		tx := &txs[i]
		if alias {
			tx.DecodeAliased(r, buf)
		} else {
			tx.DecodeBinary(r)
		}
		if r.Err != nil {
			r.Err = fmt.Errorf("transaction %d: %w", i, r.Err)
			return
		}
		b.Transactions[i] = tx
		hashes[i] = tx.Hash()
	}
	if hasDuplicate(hashes) {
		r.SetError(ErrDuplicateTransaction)
		return
	}
	if hash.MerkleRoot(hashes) != b.MerkleRoot {
		r.SetError(ErrMerkleRoot)
	}
}

func hasDuplicate(hashes []hash.Uint256) bool {
	if len(hashes) <= 16 {
		for i := range hashes {
			for j := range i {
				if hashes[i] == hashes[j] {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[hash.Uint256]struct{}, len(hashes))
	for _, h := range hashes {
		if _, ok := seen[h]; ok {
			return true
		}
		seen[h] = struct{}{}
	}
	return false
}

// EncodeBinary writes the header and the transactions.
func (b *Block) EncodeBinary(w *nio.BinWriter) {
	b.Header.EncodeBinary(w)
	w.WriteVarUint(uint64(len(b.Transactions)))
	for _, tx := range b.Transactions {
		tx.EncodeBinary(w)
	}
}

// Size returns the encoded size.
func (b *Block) Size() int {
	n := b.Header.Size() + nio.VarUintSize(uint64(len(b.Transactions)))
	for _, tx := range b.Transactions {
		n += tx.Size()
	}
	return n
}

// Bytes returns the encoding in a fresh slice (nil if a transaction cannot
// be encoded).
func (b *Block) Bytes() []byte {
	var w nio.BinWriter
	w.Grow(b.Size())
	b.EncodeBinary(&w)
	return w.Bytes()
}

// ComputeMerkleRoot returns the merkle root of the transaction hashes.
func (b *Block) ComputeMerkleRoot() hash.Uint256 {
	hashes := make([]hash.Uint256, len(b.Transactions))
	for i, tx := range b.Transactions {
		hashes[i] = tx.Hash()
	}
	return hash.MerkleRoot(hashes)
}

// RebuildMerkleRoot sets MerkleRoot from the transactions. Call it before
// the header hash is first used.
func (b *Block) RebuildMerkleRoot() { b.MerkleRoot = b.ComputeMerkleRoot() }

// MarshalJSON writes the header fields followed by "tx".
func (b *Block) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(b.Header.toJSON())
	if err != nil {
		return nil, err
	}
	txs := b.Transactions
	if txs == nil {
		txs = []*transaction.Transaction{}
	}
	tail, err := json.Marshal(struct {
		Transactions []*transaction.Transaction `json:"tx"`
	}{txs})
	if err != nil {
		return nil, err
	}
	head[len(head)-1] = ','
	return append(head, tail[1:]...), nil
}

// UnmarshalJSON parses the JSON form; every transaction is validated and
// the header hash checked. StateRootEnabled is kept (set it first to
// parse a block of a StateRootInHeader network).
func (b *Block) UnmarshalJSON(data []byte) error {
	var aux struct {
		headerJSON
		Transactions []json.RawMessage `json:"tx"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*b = Block{Header: Header{StateRootEnabled: b.StateRootEnabled}}
	if err := b.Header.fromJSON(&aux.headerJSON); err != nil {
		return err
	}
	if len(aux.Transactions) > MaxTransactionsPerBlock {
		return fmt.Errorf("%d transactions", len(aux.Transactions))
	}
	if len(aux.Transactions) > 0 {
		b.Transactions = make([]*transaction.Transaction, len(aux.Transactions))
		for i, raw := range aux.Transactions {
			tx := &transaction.Transaction{}
			if err := tx.UnmarshalJSON(bytes.TrimSpace(raw)); err != nil {
				return fmt.Errorf("transaction %d: %w", i, err)
			}
			b.Transactions[i] = tx
		}
	}
	return nil
}

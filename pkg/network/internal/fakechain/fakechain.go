// Package fakechain builds chains of well-formed but unsigned blocks and
// transactions for the network package's tests and benchmarks. Blocks link
// by PrevHash and carry correct merkle roots; witnesses are filler bytes of
// realistic size, so nothing here verifies.
//
// Everything returned is freshly built and owned by the caller.
package fakechain

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
)

// transferB64 is a MainNet NEP-17 transfer (about 250 bytes).
const transferB64 = "AK9KzFu0P5gAAAAAAIjOEgAAAAAA7jAAAAGIDdjSt7aj2J+dktSobkC9j0/CJwEAWwsCAMLrCwwUtXfkIuockX9HAVMNeEuQMxMlYkMMFIgN2NK3tqPYn52S1KhuQL2PT8InFMAfDAh0cmFuc2ZlcgwUz3bii9AGLEpHjuNVYQETGfPPpNJBYn1bUjkBQgxAUiZNae4OTSu2EOGW+6fwslLIpVsczOAR9o6R796tFf2KG+nLzs709tCQ7NELZOQ7zUzfF19ADLvH/efNT4v9LygMIQNT96/wFdPSBO7NUI9Kpn9EffTRXsS6ZJ9PqRvbenijVEFW57Mn"

var transfer *transaction.Transaction

func init() {
	raw, err := base64.StdEncoding.DecodeString(transferB64)
	if err != nil {
		panic(err)
	}
	if transfer, err = transaction.NewTransactionFromBytes(raw); err != nil {
		panic(err)
	}
}

// Tx returns a copy of the MainNet transfer with the given nonce, so
// distinct nonces give distinct hashes. Like a received transaction it is
// decoded from bytes, so its hash and size are cached and it may be shared
// between goroutines.
func Tx(nonce uint32) *transaction.Transaction {
	tx := transfer.Copy()
	tx.Nonce = nonce
	// A signature-like witness: 64 bytes that differ per transaction, so
	// a block of these compresses like a real one, not like copies.
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], nonce)
	s1, s2 := sha256.Sum256(n[:]), sha256.Sum256(append(n[:], 1))
	inv := append([]byte{0x0c, 0x40}, append(s1[:], s2[:]...)...)
	tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: tx.Witnesses[0].VerificationScript}}
	out, err := transaction.NewTransactionFromBytes(tx.Bytes())
	if err != nil {
		panic(err)
	}
	return out
}

// Block returns a block at index after prev (nil for a genesis-like first
// block) holding txs, with a BFT-sized filler witness.
func Block(prev *block.Header, index uint32, txs []*transaction.Transaction) *block.Block {
	b := &block.Block{Header: block.Header{
		Index:     index,
		Timestamp: 1_700_000_000_000 + uint64(index)*1000,
		Nonce:     uint64(index) * 7919,
		Witness: transaction.Witness{
			InvocationScript:   make([]byte, 5*66),
			VerificationScript: make([]byte, 7*35+8),
		},
	}, Transactions: txs}
	binary.LittleEndian.PutUint32(b.Witness.InvocationScript, index)
	if prev != nil {
		b.PrevHash = prev.Hash()
	}
	b.RebuildMerkleRoot()
	b.Hash() // cache it before the block is shared
	return b
}

// Chain returns blocks 0..n-1, each with txsPerBlock transactions of
// distinct nonces.
func Chain(n, txsPerBlock int) []*block.Block {
	out := make([]*block.Block, n)
	var prev *block.Header
	nonce := uint32(1)
	for i := range out {
		txs := make([]*transaction.Transaction, txsPerBlock)
		for j := range txs {
			txs[j] = Tx(nonce)
			nonce++
		}
		out[i] = Block(prev, uint32(i), txs)
		prev = &out[i].Header
	}
	return out
}

package network

import (
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/payload"
)

// Ledger is what the server needs of the blockchain. Every method must be
// safe for concurrent use; the server calls them from many goroutines.
type Ledger interface {
	// BlockHeight is the index of the last block added.
	BlockHeight() uint32
	// HeaderHeight is the index of the last header known (at least
	// BlockHeight). Headers run ahead of blocks during sync.
	HeaderHeight() uint32
	// GetHeaderHash returns the hash of the header at index, or the zero
	// hash if there is none.
	GetHeaderHash(index uint32) hash.Uint256
	// GetHeader and GetBlock return an error if the item is unknown.
	GetHeader(h hash.Uint256) (*block.Header, error)
	GetBlock(h hash.Uint256) (*block.Block, error)
	// HasBlock reports whether the block is in the chain.
	HasBlock(h hash.Uint256) bool
	// HasTransaction reports whether the transaction is in the chain (so
	// it must not be requested or pooled again).
	HasTransaction(h hash.Uint256) bool
	// AddBlock verifies b and adds it; b.Index is BlockHeight()+1. The
	// server calls it from one goroutine, in height order.
	AddBlock(b *block.Block) error
	// AddHeaders verifies headers that continue the known header chain
	// and stores them, advancing HeaderHeight; headers already known are
	// skipped.
	AddHeaders(hs ...*block.Header) error
	// PoolTx verifies tx and adds it to the memory pool.
	PoolTx(tx *transaction.Transaction) error
	// VerifyExtensible checks that an extensible payload's sender may send
	// one (a current validator or committee member, C#
	// Blockchain.ExtensibleWitnessWhiteList) and that its witness is valid
	// within 0.06 GAS. The server checks the height window itself.
	VerifyExtensible(e *payload.Extensible) error
}

// Mempool is the read side of the memory pool. Methods must be safe for
// concurrent use.
type Mempool interface {
	ContainsKey(h hash.Uint256) bool
	TryGetValue(h hash.Uint256) (*transaction.Transaction, bool)
	GetVerifiedTransactions() []*transaction.Transaction
}

// ExtensibleHandler processes a verified extensible payload of the
// category it was registered for (consensus, state roots). It runs in the
// sending peer's handler goroutine; an error drops that peer.
type ExtensibleHandler func(e *payload.Extensible) error

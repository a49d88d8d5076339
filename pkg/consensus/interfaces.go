package consensus

import (
	"fmt"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// Ledger is what the Service needs of the chain. Its methods are called
// from the Service's goroutine and, for GetNextBlockValidators and
// BlockHeight, from the goroutines that call OnPayload; they must be safe
// for concurrent use.
type Ledger interface {
	// GetConfig returns the chain's configuration; the Service reads it
	// once, in New.
	GetConfig() config.Blockchain
	// BlockHeight returns the index of the last persisted block.
	BlockHeight() uint32
	// CurrentBlockHash returns the hash of that block.
	CurrentBlockHash() hash.Uint256
	// GetHeader returns a persisted header by hash.
	GetHeader(h hash.Uint256) (*block.Header, error)
	// GetNextBlockValidators returns the validators of the block after the
	// last persisted one (NEO getNextBlockValidators), in their usual
	// order (sorted keys). They sign the block being agreed on.
	GetNextBlockValidators() ([]*keys.PublicKey, error)
	// ComputeNextBlockValidators returns the validators of the block after
	// that one (neo-go Blockchain.ComputeNextBlockValidators): at the end
	// of a dBFT epoch they are recomputed from the votes. Their BFT
	// multi-signature address is the NextConsensus of the block being
	// agreed on.
	ComputeNextBlockValidators() []*keys.PublicKey
	// GetMillisecondsPerBlock returns the block interval for the next
	// block (the Policy contract's value after HFEchidna, the
	// configuration's before).
	GetMillisecondsPerBlock() uint32
	// VerifyProposedTransactions checks the transactions of a block
	// proposed for height BlockHeight()+1 as a set, as neo-go's consensus
	// does with a scratch memory pool: each must be valid against the
	// current state (those already in the node's mempool were verified on
	// entry), and together they must not conflict and their payers must
	// cover all their fees. A *RejectedTxError names the culprit when
	// there is one.
	VerifyProposedTransactions(txs []*transaction.Transaction) error
	// AddBlock hands over a block this node's consensus assembled, signed
	// by the validators. It may queue the block and return before it is
	// persisted; it must not call back into the Service synchronously
	// (OnNewBlock does not block, so a synchronous chain may call it).
	AddBlock(b *block.Block) error
}

// StateRootLedger is what a Ledger adds on a StateRootInHeader network
// (neo-go's extension): proposals and the headers they make carry the
// local state root of the previous block.
type StateRootLedger interface {
	// LocalStateRoot returns the local state root after the block at
	// height (a committed one).
	LocalStateRoot(height uint32) (hash.Uint256, error)
}

// RejectedTxError is the error Ledger.VerifyProposedTransactions returns
// for a transaction it refuses; the Service puts the hash into its
// TxInvalid change view.
type RejectedTxError struct {
	Hash hash.Uint256
	Err  error
}

func (e *RejectedTxError) Error() string {
	return fmt.Sprintf("transaction %s: %v", e.Hash.StringLE(), e.Err)
}

func (e *RejectedTxError) Unwrap() error { return e.Err }

// Mempool is the node's transaction pool (core/mempool.Pool satisfies it).
type Mempool interface {
	// GetVerifiedTransactions returns the pooled transactions, best first.
	GetVerifiedTransactions() []*transaction.Transaction
	// TryGetValue returns a pooled transaction.
	TryGetValue(h hash.Uint256) (*transaction.Transaction, bool)
	// RegisterTransactionAddedSubscriber registers a single-use channel
	// the pool closes when the next transaction is added. It is used only
	// when MaxTimePerBlock is set.
	RegisterTransactionAddedSubscriber(ch chan struct{})
}

// Broadcaster is what the Service needs of the P2P layer. Its methods are
// called from the Service's goroutine; they must not call back into the
// Service synchronously, nor wait for a goroutine that may be blocked in
// OnPayload or OnTransaction (queue the sends instead).
type Broadcaster interface {
	// BroadcastExtensible relays a consensus payload this node signed: it
	// should enter the node's extensible payload pool (so peers can fetch
	// it) and be announced to peers.
	BroadcastExtensible(e *message.Extensible)
	// RequestTx asks peers for transactions of a proposal that the mempool
	// lacks; when they arrive (and enter the mempool) the node passes them
	// to Service.OnTransaction.
	RequestTx(hashes ...hash.Uint256)
	// StopTxFlow says the Service no longer waits for requested
	// transactions.
	StopTxFlow()
}

// Clock is the Service's time source. The system clock is used unless
// Config.Clock is set; tests drive a fake one.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer that sends the time on its channel once,
	// d after now.
	NewTimer(d time.Duration) ClockTimer
}

// ClockTimer is a one-shot timer of a Clock.
type ClockTimer interface {
	C() <-chan time.Time
	// Stop prevents the timer from firing; it reports whether it did.
	Stop() bool
}

type systemClock struct{}

type systemTimer struct{ t *time.Timer }

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) NewTimer(d time.Duration) ClockTimer { return systemTimer{time.NewTimer(d)} }

func (t systemTimer) C() <-chan time.Time { return t.t.C }

func (t systemTimer) Stop() bool { return t.t.Stop() }

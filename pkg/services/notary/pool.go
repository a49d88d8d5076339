package notary

import (
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/payload"

	nio "github.com/n3node/n3node/pkg/io"
)

// PoolLedger is what the request pool needs of the chain (*core.Blockchain
// has it all).
type PoolLedger interface {
	BlockHeight() uint32
	FeePerByte() int64
	GetNotaryDeposit(acc hash.Uint160) (*state.Deposit, error)
	GetMaxVerificationGAS() int64
	VerifyWitness(h hash.Uint160, c interop.Container, w *transaction.Witness, gas int64) (int64, error)
	PoolTxWithData(t *transaction.Transaction, data any, mp *mempool.Pool, feer mempool.Feer,
		verify func(*transaction.Transaction, any) error) error
	IsTxStillRelevant(t *transaction.Transaction, isPartial bool) bool
	SubscribeForBlocks(ch chan<- *block.Block)
	UnsubscribeFromBlocks(ch chan<- *block.Block)
}

// Request pool errors (wrapped with the reason).
var (
	// ErrRequestWitness: the payload is not signed by the fallback's payer.
	ErrRequestWitness = errors.New("bad P2PNotaryRequest payload witness")
	// ErrFallbackSender: the Notary contract is not the fallback's sender.
	ErrFallbackSender = errors.New("P2PNotary contract should be a sender of the fallback transaction")
	// ErrMainSender: the Notary contract is the main transaction's
	// sender.
	ErrMainSender = errors.New("P2PNotary contract is not allowed to be the sender of the main transaction")
	// ErrDepositExpiration: the fallback stays valid after the payer's
	// deposit unlocks.
	ErrDepositExpiration = errors.New("fallback transaction is valid after deposit is unlocked")
)

// RequestPool is the notary request pool of a node with P2PSigExtensions
// (neo-go's Server notary pool): the fallback transactions of verified
// P2PNotaryRequest payloads in a memory pool whose payer is the second
// signer (the deposit owner) and whose balance is the Notary deposit, the
// payload kept as the pooled transaction's data. Requests are keyed by
// the fallback transaction's hash.
type RequestPool struct {
	chain PoolLedger
	pool  *mempool.Pool
	feer  depositFeer

	mu       sync.Mutex
	announce func(*payload.P2PNotaryRequest)

	runMu   sync.Mutex
	running bool
	stop    chan struct{}
	done    chan struct{}
	blocks  chan *block.Block
}

// NewRequestPool returns a pool of the given capacity (the protocol's
// P2PNotaryRequestPayloadPoolSize).
func NewRequestPool(chain PoolLedger, capacity int) *RequestPool {
	return &RequestPool{
		chain:  chain,
		pool:   mempool.New(capacity, mempool.Options{PayerIndex: 1}),
		feer:   depositFeer{chain: chain},
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
		blocks: make(chan *block.Block, 16),
	}
}

// depositFeer makes the pool count Notary deposits instead of GAS
// (neo-go NotaryFeer).
type depositFeer struct{ chain PoolLedger }

func (f depositFeer) FeePerByte() int64   { return f.chain.FeePerByte() }
func (f depositFeer) BlockHeight() uint32 { return f.chain.BlockHeight() }

// GetUtilityTokenBalance returns acc's Notary deposit.
func (f depositFeer) GetUtilityTokenBalance(acc hash.Uint160) *big.Int {
	dep, err := f.chain.GetNotaryDeposit(acc)
	if err != nil || dep == nil {
		return new(big.Int)
	}
	return new(big.Int).Set(&dep.Amount)
}

// Pool returns the underlying memory pool (subscriptions: the notary
// service and RPC notification feeds listen to it).
func (p *RequestPool) Pool() *mempool.Pool { return p.pool }

// SetAnnouncer sets what Relay calls for a newly pooled request (the P2P
// server's inventory broadcast).
func (p *RequestPool) SetAnnouncer(f func(*payload.P2PNotaryRequest)) {
	p.mu.Lock()
	p.announce = f
	p.mu.Unlock()
}

// Add verifies r and pools it (neo-go verifyAndPoolNotaryRequest): the
// payload witness of the fallback's payer, the senders, the deposit lock,
// then the chain's verification of the fallback as a partial transaction
// and the pool's deposit accounting. Errors wrap the chain's sentinels
// (core.ErrAlreadyInPool, core.ErrInsufficientFunds, ...).
func (p *RequestPool) Add(r *payload.P2PNotaryRequest) error {
	if err := p.chain.PoolTxWithData(r.FallbackTransaction, r, p.pool, p.feer, p.verify); err != nil {
		return fmt.Errorf("failed to add fallback transaction to the notary pool: %w", err)
	}
	return nil
}

// Relay adds r and announces it if it was new (neo-go
// RelayP2PNotaryRequest).
func (p *RequestPool) Relay(r *payload.P2PNotaryRequest) error {
	if err := p.Add(r); err != nil {
		return err
	}
	p.mu.Lock()
	f := p.announce
	p.mu.Unlock()
	if f != nil {
		f(r)
	}
	return nil
}

// verify is the state-dependent check of a payload before the fallback's
// verification (neo-go Server.verifyNotaryRequest).
func (p *RequestPool) verify(_ *transaction.Transaction, data any) error {
	r, ok := data.(*payload.P2PNotaryRequest)
	if !ok {
		return errors.New("not a P2PNotaryRequest")
	}
	payer := r.FallbackTransaction.Signers[1].Account
	if _, err := p.chain.VerifyWitness(payer, r, &r.Witness, p.chain.GetMaxVerificationGAS()); err != nil {
		return fmt.Errorf("%w: %w", ErrRequestWitness, err)
	}
	if r.FallbackTransaction.Sender() != nativenames.NotaryHash {
		return fmt.Errorf("%w, got %s", ErrFallbackSender, r.FallbackTransaction.Sender().StringLE())
	}
	if r.MainTransaction.Sender() == nativenames.NotaryHash {
		return ErrMainSender
	}
	var till uint32
	if dep, err := p.chain.GetNotaryDeposit(payer); err == nil && dep != nil {
		till = dep.Till
	}
	if r.FallbackTransaction.ValidUntilBlock >= till {
		return fmt.Errorf("%w: ValidUntilBlock is %d, deposit lock for %s expires at %d", ErrDepositExpiration,
			r.FallbackTransaction.ValidUntilBlock, payer.StringLE(), till)
	}
	return nil
}

// Get returns the pooled request whose fallback has hash h.
func (p *RequestPool) Get(h hash.Uint256) (*payload.P2PNotaryRequest, bool) {
	d, ok := p.pool.TryGetData(h)
	if !ok {
		return nil, false
	}
	r, ok := d.(*payload.P2PNotaryRequest)
	return r, ok
}

// ContainsKey reports whether a request with fallback hash h is pooled.
func (p *RequestPool) ContainsKey(h hash.Uint256) bool { return p.pool.ContainsKey(h) }

// Count returns the number of pooled requests.
func (p *RequestPool) Count() int { return p.pool.Count() }

// Requests returns the pooled requests in pool order (the pool's
// priority order of their fallbacks).
func (p *RequestPool) Requests() []*payload.P2PNotaryRequest {
	var res []*payload.P2PNotaryRequest
	p.pool.IterateVerifiedTransactions(func(_ *transaction.Transaction, d any) bool {
		if r, ok := d.(*payload.P2PNotaryRequest); ok {
			res = append(res, r)
		}
		return true
	})
	return res
}

// RemoveStale drops the requests whose fallback is no longer valid after
// a block (neo-go's post-block RemoveStale of the notary pool).
func (p *RequestPool) RemoveStale() {
	if p.pool.Count() == 0 {
		return
	}
	p.pool.RemoveStale(func(t *transaction.Transaction) bool { return p.chain.IsTxStillRelevant(t, true) }, p.feer)
}

// Start subscribes the pool to the chain's blocks (RemoveStale after
// each). It runs once.
func (p *RequestPool) Start() {
	p.runMu.Lock()
	defer p.runMu.Unlock()
	if p.running {
		return
	}
	p.running = true
	p.chain.SubscribeForBlocks(p.blocks)
	go func() {
		defer close(p.done)
		for {
			select {
			case <-p.stop:
				return
			case <-p.blocks:
				p.RemoveStale()
			}
		}
	}()
}

// Shutdown stops what Start started.
func (p *RequestPool) Shutdown() {
	p.runMu.Lock()
	defer p.runMu.Unlock()
	if !p.running {
		return
	}
	p.running = false
	// Unsubscribe while the loop still reads: the chain may be delivering
	// a block to a full channel, and unsubscribing waits for that.
	p.chain.UnsubscribeFromBlocks(p.blocks)
	close(p.stop)
	<-p.done
}

// DecodeRequest decodes a P2PNotaryRequest payload (submitnotaryrequest).
func DecodeRequest(b []byte) (*payload.P2PNotaryRequest, error) {
	r := new(payload.P2PNotaryRequest)
	if err := nio.FromBytes(b, r); err != nil {
		return nil, err
	}
	return r, nil
}

package node

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/metrics"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// ExtensibleVerifyMaxGAS is the GAS an extensible payload's witness may
// use (C# Blockchain: 0.06 GAS, neo-go extensibleVerifyMaxGAS).
const ExtensibleVerifyMaxGAS = 6_000_000

// Errors of extensible payload checks.
var (
	ErrSenderNotAllowed = errors.New("extensible payload sender is not allowed")
)

// Block origins reported to the metrics.
const (
	originConsensus = "consensus"
	originNetwork   = "network"
)

// chainLedger adapts core.Blockchain to network.Ledger and
// consensus.Ledger: the extensible whitelist, proposal verification, and
// timing of added blocks.
type chainLedger struct {
	bc      *core.Blockchain
	metrics *metrics.Node
	// relay announces blocks consensus made (nil until the P2P server
	// exists).
	relay func(*block.Block)

	whitelist atomic.Pointer[whitelist]
}

var (
	_ network.Ledger    = (*chainLedger)(nil)
	_ consensus.Ledger  = (*consensusLedger)(nil)
	_ network.Mempool   = (*mempool.Pool)(nil)
	_ consensus.Mempool = (*mempool.Pool)(nil)
)

// whitelist is the set of accounts that may send extensible payloads at
// one height (C# Blockchain.ExtensibleWitnessWhiteList, neo-go
// updateExtensibleWhitelist): the committee address, the BFT address of
// the next block's validators and each validator's signature address, and
// the same for the designated state validators.
type whitelist struct {
	height uint32
	top    hash.Uint256
	hashes []hash.Uint160 // sorted
}

func (l *chainLedger) BlockHeight() uint32                             { return l.bc.BlockHeight() }
func (l *chainLedger) HeaderHeight() uint32                            { return l.bc.HeaderHeight() }
func (l *chainLedger) GetHeaderHash(i uint32) hash.Uint256             { return l.bc.GetHeaderHash(i) }
func (l *chainLedger) GetHeader(h hash.Uint256) (*block.Header, error) { return l.bc.GetHeader(h) }
func (l *chainLedger) GetBlock(h hash.Uint256) (*block.Block, error)   { return l.bc.GetBlock(h) }
func (l *chainLedger) HasBlock(h hash.Uint256) bool                    { return l.bc.HasBlock(h) }
func (l *chainLedger) PoolTx(tx *transaction.Transaction) error        { return l.bc.PoolTx(tx) }

// HasTransaction reports whether tx is on chain (the network checks the
// pool itself).
func (l *chainLedger) HasTransaction(h hash.Uint256) bool { return l.bc.HasTransaction(h) }

// AddBlock adds a block the P2P server received.
func (l *chainLedger) AddBlock(b *block.Block) error {
	return l.addBlock(b, originNetwork)
}

func (l *chainLedger) addBlock(b *block.Block, origin string) error {
	start := time.Now()
	if err := l.bc.AddBlock(b); err != nil {
		return err
	}
	l.metrics.ObserveBlock(origin, time.Since(start), len(b.Transactions))
	return nil
}

// headerAdder is the ledger's header-chain API (headers ahead of blocks
// during sync).
type headerAdder interface {
	AddHeaders(hs ...*block.Header) error
}

// AddHeaders stores headers ahead of blocks. A ledger without a header
// API ignores them; new blocks then still arrive by announcement, but a
// node far behind syncs only as fast as blocks are announced.
func (l *chainLedger) AddHeaders(hs ...*block.Header) error {
	if a, ok := any(l.bc).(headerAdder); ok {
		return a.AddHeaders(hs...)
	}
	return nil
}

// VerifyExtensible checks that the sender may send extensible payloads
// and that the witness is valid within ExtensibleVerifyMaxGAS.
func (l *chainLedger) VerifyExtensible(e *payload.Extensible) error {
	if !l.isExtensibleAllowed(e.Sender) {
		return fmt.Errorf("%w: %s", ErrSenderNotAllowed, e.Sender.StringLE())
	}
	if _, err := l.bc.VerifyWitness(e.Sender, e, &e.Witness, ExtensibleVerifyMaxGAS); err != nil {
		return fmt.Errorf("extensible payload witness: %w", err)
	}
	return nil
}

func (l *chainLedger) isExtensibleAllowed(h hash.Uint160) bool {
	w := l.whitelist.Load()
	height, top := l.bc.BlockHeight(), l.bc.CurrentBlockHash()
	if w == nil || w.height != height || w.top != top {
		w = l.buildWhitelist(height, top)
		l.whitelist.Store(w)
	}
	_, ok := slices.BinarySearchFunc(w.hashes, h, hash.Uint160.Compare)
	return ok
}

func (l *chainLedger) buildWhitelist(height uint32, top hash.Uint256) *whitelist {
	w := &whitelist{height: height, top: top}
	w.hashes = append(w.hashes, l.bc.GetCommitteeAddress())
	addGroup := func(pubs []*keys.PublicKey) {
		if len(pubs) == 0 {
			return
		}
		if s, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs); err == nil {
			w.hashes = append(w.hashes, hash.Hash160(s))
		}
		for _, p := range pubs {
			w.hashes = append(w.hashes, p.ScriptHash())
		}
	}
	if vs, err := nextValidators(l.bc); err == nil {
		addGroup(vs)
	}
	if sv, _, err := l.bc.Natives().RoleManagement().GetDesignatedByRole(l.bc.DAO(), noderoles.StateValidator, height); err == nil {
		addGroup(sv)
	}
	slices.SortFunc(w.hashes, hash.Uint160.Compare)
	w.hashes = slices.Compact(w.hashes)
	return w
}

// consensusLedger is the chain as the consensus service sees it.
type consensusLedger struct{ *chainLedger }

func (l consensusLedger) GetConfig() config.Blockchain   { return *l.bc.Config() }
func (l consensusLedger) CurrentBlockHash() hash.Uint256 { return l.bc.CurrentBlockHash() }
func (l consensusLedger) ComputeNextBlockValidators() []*keys.PublicKey {
	return l.bc.ComputeNextBlockValidators()
}
func (l consensusLedger) GetMillisecondsPerBlock() uint32 { return l.bc.GetMillisecondsPerBlock() }

// GetNextBlockValidators returns the validators of the next block.
func (l consensusLedger) GetNextBlockValidators() ([]*keys.PublicKey, error) {
	vs, err := nextValidators(l.bc)
	if err == nil && len(vs) == 0 {
		err = errors.New("no validators for the next block")
	}
	return vs, err
}

// The ledger's API is changing shape (validators with an error, proposal
// verification and scratch pools in core); these helpers accept either
// form so that the node builds against both.

func nextValidators(bc any) ([]*keys.PublicKey, error) {
	switch c := bc.(type) {
	case interface {
		GetNextBlockValidators() ([]*keys.PublicKey, error)
	}:
		return c.GetNextBlockValidators()
	case interface{ GetNextBlockValidators() []*keys.PublicKey }:
		return c.GetNextBlockValidators(), nil
	}
	return nil, errors.New("the ledger does not report validators")
}

// poolTxTo verifies tx and adds it to mp.
func poolTxTo(bc any, tx *transaction.Transaction, mp *mempool.Pool) error {
	switch c := bc.(type) {
	case interface {
		PoolTxTo(*transaction.Transaction, *mempool.Pool) error
	}:
		return c.PoolTxTo(tx, mp)
	case interface {
		PoolTx(*transaction.Transaction, ...*mempool.Pool) error
	}:
		return c.PoolTx(tx, mp)
	}
	return errors.New("the ledger cannot verify into another pool")
}

// VerifyProposedTransactions checks a proposal's transactions as a set
// (neo-go consensus verifyBlock): the ledger's own check when it has one,
// else a scratch pool here (pooled transactions only for conflicts and
// fees, the others fully). The culprit is reported as a
// consensus.RejectedTxError.
func (l consensusLedger) VerifyProposedTransactions(txs []*transaction.Transaction) error {
	if v, ok := any(l.bc).(interface {
		VerifyProposedTransactions([]*transaction.Transaction) error
	}); ok {
		err := v.VerifyProposedTransactions(txs)
		var rej interface{ RejectedHash() hash.Uint256 }
		if err != nil && errors.As(err, &rej) {
			return &consensus.RejectedTxError{Hash: rej.RejectedHash(), Err: err}
		}
		return err
	}
	scratch := mempool.New(max(len(txs), 1), mempool.Options{Workers: 1})
	main := l.bc.Mempool()
	for _, tx := range txs {
		var err error
		if main.ContainsKey(tx.Hash()) {
			err = scratch.Add(tx, l.bc)
		} else {
			err = poolTxTo(l.bc, tx, scratch)
		}
		if err != nil {
			return &consensus.RejectedTxError{Hash: tx.Hash(), Err: err}
		}
	}
	return nil
}

// AddBlock adds a block this node's consensus agreed on and announces it.
func (l consensusLedger) AddBlock(b *block.Block) error {
	if err := l.addBlock(b, originConsensus); err != nil {
		return err
	}
	if l.relay != nil {
		l.relay(b)
	}
	return nil
}

// broadcaster is the P2P server as the consensus service sees it.
type broadcaster struct{ srv *network.Server }

// BroadcastExtensible relays a consensus message.
func (b broadcaster) BroadcastExtensible(e *payload.Extensible) {
	_ = b.srv.BroadcastExtensible(e)
}

func (b broadcaster) RequestTx(hashes ...hash.Uint256) { b.srv.RequestTx(hashes...) }
func (b broadcaster) StopTxFlow()                      { b.srv.StopTxFlow() }

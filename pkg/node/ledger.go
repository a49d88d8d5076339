package node

import (
	"context"
	"errors"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/metrics"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/bqueue"
	"github.com/n3node/n3node/pkg/network/payload"
)

// Block origins reported to the metrics.
const (
	originConsensus = "consensus"
	originNetwork   = "network"
)

// chainLedger adapts core.Blockchain to network.Ledger and
// consensus.Ledger: a thin decorator that times added blocks for the
// metrics, announces blocks consensus made and unwraps extensible
// payloads for the chain's check. The behaviour is the chain's.
type chainLedger struct {
	bc      *core.Blockchain
	metrics *metrics.Node
	// relay announces blocks consensus made (nil until the P2P server
	// exists).
	relay func(*block.Block)
}

var (
	_ network.Ledger            = (*chainLedger)(nil)
	_ bqueue.StreamLedger       = (*chainLedger)(nil)
	_ consensus.Ledger          = (*consensusLedger)(nil)
	_ consensus.StateRootLedger = (*consensusLedger)(nil)
	_ network.Mempool           = (*mempool.Pool)(nil)
	_ consensus.Mempool         = (*mempool.Pool)(nil)
)

func (l *chainLedger) BlockHeight() uint32                             { return l.bc.BlockHeight() }
func (l *chainLedger) HeaderHeight() uint32                            { return l.bc.HeaderHeight() }
func (l *chainLedger) GetHeaderHash(i uint32) hash.Uint256             { return l.bc.GetHeaderHash(i) }
func (l *chainLedger) GetHeader(h hash.Uint256) (*block.Header, error) { return l.bc.GetHeader(h) }
func (l *chainLedger) GetBlock(h hash.Uint256) (*block.Block, error)   { return l.bc.GetBlock(h) }
func (l *chainLedger) HasBlock(h hash.Uint256) bool                    { return l.bc.HasBlock(h) }
func (l *chainLedger) PoolTx(tx *transaction.Transaction) error        { return l.bc.PoolTx(tx) }

// GetMaxTraceableBlocks is the chain's current MaxTraceableBlocks (the
// network's ArchivalNodesSync reads it).
func (l *chainLedger) GetMaxTraceableBlocks() uint32 { return l.bc.GetMaxTraceableBlocks() }

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

// AddBlockStream adds the blocks the P2P server queued as one pipelined
// stream (core.Blockchain.AddBlockStream: bqueue uses it when catching up),
// timing each block from the commit of the one before for the metrics.
func (l *chainLedger) AddBlockStream(ctx context.Context, in <-chan *block.Block, added func(*block.Block)) error {
	last := time.Now()
	return l.bc.AddBlockStream(ctx, in, func(b *block.Block) {
		now := time.Now()
		l.metrics.ObserveBlock(originNetwork, now.Sub(last), len(b.Transactions))
		last = now
		if added != nil {
			added(b)
		}
	})
}

// AddHeaders stores headers ahead of blocks.
func (l *chainLedger) AddHeaders(hs ...*block.Header) error { return l.bc.AddHeaders(hs...) }

// VerifyExtensible checks the payload's sender and witness
// (core.Blockchain.VerifyExtensible).
func (l *chainLedger) VerifyExtensible(e *payload.Extensible) error {
	return l.bc.VerifyExtensible(e.Sender, e, &e.Witness)
}

// consensusLedger is the chain as the consensus service sees it.
type consensusLedger struct{ *chainLedger }

func (l consensusLedger) GetConfig() config.Blockchain   { return *l.bc.Config() }
func (l consensusLedger) CurrentBlockHash() hash.Uint256 { return l.bc.CurrentBlockHash() }
func (l consensusLedger) ComputeNextBlockValidators() []*keys.PublicKey {
	return l.bc.ComputeNextBlockValidators()
}
func (l consensusLedger) GetMillisecondsPerBlock() uint32 { return l.bc.GetMillisecondsPerBlock() }

// LocalStateRoot returns the local state root of a committed height
// (consensus.StateRootLedger, for StateRootInHeader networks).
func (l consensusLedger) LocalStateRoot(height uint32) (hash.Uint256, error) {
	r, err := l.bc.GetStateRoot(height)
	if err != nil {
		return hash.Uint256{}, err
	}
	return r.RootHash, nil
}

// GetNextBlockValidators returns the validators of the next block.
func (l consensusLedger) GetNextBlockValidators() ([]*keys.PublicKey, error) {
	vs, err := l.bc.GetNextBlockValidators()
	if err == nil && len(vs) == 0 {
		err = errors.New("no validators for the next block")
	}
	return vs, err
}

// VerifyProposedTransactions checks a proposal's transactions as a set
// (core.Blockchain.VerifyProposedTransactions); the culprit is reported as
// a consensus.RejectedTxError.
func (l consensusLedger) VerifyProposedTransactions(txs []*transaction.Transaction) error {
	err := l.bc.VerifyProposedTransactions(txs)
	if rej, ok := errors.AsType[*core.RejectedTxError](err); ok {
		return &consensus.RejectedTxError{Hash: rej.Hash, Err: err}
	}
	return err
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

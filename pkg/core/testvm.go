package core

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// Test executions and witness checks over the committed state (the RPC
// invoke* methods, fee estimation, extensible payloads).

// ledgerView is the interop.Ledger of an execution or verification at a
// given height (the blocks up to height are visible).
type ledgerView struct {
	bc     *Blockchain
	height uint32
}

func (l ledgerView) BlockHeight() uint32                 { return l.height }
func (l ledgerView) GetHeaderHash(i uint32) hash.Uint256 { return l.bc.headers.hash(i) }

// GetFakeNextBlock returns a block with the given index and the timestamp
// the block after the previous one would have (for test invocations).
func (bc *Blockchain) GetFakeNextBlock(index uint32) (*block.Block, error) {
	if index == 0 {
		return nil, errors.New("no block before the genesis")
	}
	prev, err := bc.GetHeaderByIndex(index - 1)
	if err != nil {
		return nil, err
	}
	b := &block.Block{Header: block.Header{Index: index, Timestamp: prev.Timestamp + uint64(bc.GetMillisecondsPerBlock()),
		StateRootEnabled: bc.cfg.StateRootInHeader}}
	return b, nil
}

// GetTestVM returns an interop context for a test invocation of tx (may be
// nil) in block b (nil: a fake next block) over a private layer of the
// committed state, with a VM ready to load scripts. Nothing it does is
// ever persisted.
func (bc *Blockchain) GetTestVM(trig trigger.Type, tx *transaction.Transaction, b *block.Block) (*interop.Context, error) {
	height := bc.BlockHeight()
	if b == nil {
		var err error
		if b, err = bc.GetFakeNextBlock(height + 1); err != nil {
			return nil, err
		}
	}
	var c interop.Container
	if tx != nil {
		c = tx
	}
	ic := bc.natives.NewContext(trig, ledgerView{bc, height}, bc.dao.GetPrivate(), b, c)
	ic.SpawnVM()
	return ic, nil
}

// GetTestHistoricVM is GetTestVM against the state after block
// nextBlockHeight-1 (neo-go's historic invocations), read through the MPT;
// it needs the full state history (not KeepOnlyLatestState).
func (bc *Blockchain) GetTestHistoricVM(trig trigger.Type, tx *transaction.Transaction, nextBlockHeight uint32) (*interop.Context, error) {
	if bc.cfg.KeepOnlyLatestState {
		return nil, errors.New("only latest state is supported")
	}
	height := bc.BlockHeight()
	if nextBlockHeight < 1 || nextBlockHeight > height+1 {
		return nil, fmt.Errorf("unsupported historic chain's height: requested state for %d, chain height %d", nextBlockHeight, height)
	}
	if bc.cfg.RemoveUntraceableBlocks && uint64(nextBlockHeight)+uint64(bc.GetMaxTraceableBlocks()) < uint64(height) {
		return nil, fmt.Errorf("state for height %d is outdated and removed from the storage", nextBlockHeight)
	}
	b, err := bc.GetFakeNextBlock(nextBlockHeight)
	if err != nil {
		return nil, err
	}
	sr, err := bc.GetStateRoot(nextBlockHeight - 1)
	if err != nil {
		return nil, err
	}
	ts := bc.state.TrieStore(bc.dao.Store, sr.RootHash)
	d := dao.NewSimple(storage.NewPrivateMemCachedStore(ts)).GetPrivate()
	if err := bc.natives.InitializeCache(d, nextBlockHeight-1); err != nil {
		return nil, fmt.Errorf("native caches at height %d: %w", nextBlockHeight-1, err)
	}
	var c interop.Container
	if tx != nil {
		c = tx
	}
	ic := bc.natives.NewContext(trig, ledgerView{bc, nextBlockHeight - 1}, d, b, c)
	ic.SpawnVM()
	return ic, nil
}

// VerifyWitness checks witness w of account h for container c against the
// committed state and returns the GAS it consumed (neo-go
// Blockchain.VerifyWitness; for extensible payloads, state roots, headers).
func (bc *Blockchain) VerifyWitness(h hash.Uint160, c interop.Container, w *transaction.Witness, gas int64) (int64, error) {
	bc.commitMu.RLock()
	defer bc.commitMu.RUnlock()
	return bc.natives.VerifyWitness(ledgerView{bc, bc.BlockHeight()}, bc.dao, nil, c, h, w, gas)
}

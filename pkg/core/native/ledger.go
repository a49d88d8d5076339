package native

import (
	"errors"
	"math"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// Ledger is the LedgerContract native contract. Blocks and transactions are
// not in its contract storage (C# keeps them there but excludes them from
// the state root): they are the DAO's ledger records, written by the
// blockchain (see StoreBlock), and only blocks up to the current height are
// visible, as in C#.
type Ledger struct {
	contractBase
}

func newLedger(cs *Contracts) Contract {
	l := &Ledger{contractBase: newBase(nativenames.Ledger, config.HFDefault, cs)}
	cs.Ledger = l
	h256 := []manifest.Parameter{NewParam("hash", smartcontract.Hash256Type)}
	md := l.md
	md.AddMethod(Method{Name: "currentHash", ReturnType: smartcontract.Hash256Type, Func: l.currentHash,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "currentIndex", ReturnType: smartcontract.IntegerType, Func: l.currentIndex,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getBlock", Params: []manifest.Parameter{NewParam("indexOrHash", smartcontract.ByteArrayType)},
		ReturnType: smartcontract.ArrayType, Func: l.getBlock, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getTransaction", Params: h256, ReturnType: smartcontract.ArrayType, Func: l.getTransaction,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getTransactionHeight", Params: h256, ReturnType: smartcontract.IntegerType,
		Func: l.getTransactionHeight, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getTransactionFromBlock", Params: []manifest.Parameter{
		NewParam("blockIndexOrHash", smartcontract.ByteArrayType), NewParam("txIndex", smartcontract.IntegerType)},
		ReturnType: smartcontract.ArrayType, Func: l.getTransactionFromBlock, CPUFee: 1 << 16, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getTransactionSigners", Params: h256, ReturnType: smartcontract.ArrayType,
		Func: l.getTransactionSigners, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getTransactionVMState", Params: h256, ReturnType: smartcontract.IntegerType,
		Func: l.getTransactionVMState, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	return l
}

// PostPersist implements Contract: from now on the persisting block is the
// current block.
func (l *Ledger) PostPersist(ic *interop.Context) error {
	ic.IsBlockPersisted = true
	return nil
}

// maxTraceableBlocks returns MaxTraceableBlocks (from Policy from
// HF_Echidna).
func (l *Ledger) maxTraceableBlocks(ic *interop.Context) uint32 {
	if ic.IsHardforkEnabled(config.HFEchidna) {
		return l.cs.Policy.MaxTraceableBlocks(ic.DAO)
	}
	return ic.Config.MaxTraceableBlocks
}

// isTraceableBlock reports whether the block at index is visible.
func (l *Ledger) isTraceableBlock(ic *interop.Context, index uint32) bool {
	height := ic.BlockHeight()
	return index <= height && uint64(index)+uint64(l.maxTraceableBlocks(ic)) > uint64(height)
}

func (l *Ledger) currentHash(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	h := ic.CurrentBlockHash()
	return stackitem.NewByteString(h[:]), nil
}

func (l *Ledger) currentIndex(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(int64(ic.BlockHeight())), nil
}

// blockHashFromItem is neo-go's getBlockHashFromItem: an integer (that fits
// uint64) is an index, anything else a 32-byte hash; an index above the
// current height gives the zero hash.
func blockHashFromItem(ic *interop.Context, it stackitem.Item) (hash.Uint256, error) {
	if n, err := it.TryInteger(); err == nil && n.IsUint64() {
		index := n.Uint64()
		if index > math.MaxUint32 {
			return hash.Uint256{}, errors.New("bad block index")
		}
		if uint32(index) > ic.BlockHeight() {
			return hash.Uint256{}, nil
		}
		return ic.Chain.GetHeaderHash(uint32(index)), nil
	}
	return ToUint256(it)
}

func (l *Ledger) getBlock(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := blockHashFromItem(ic, args[0])
	if err != nil {
		return nil, err
	}
	hdr, txs, found := l.traceableBlock(ic, h)
	if !found {
		return stackitem.Null{}, nil
	}
	return state.BlockToStackItem(hdr, len(txs)), nil
}

// traceableBlock reads the header and transaction hashes of block h; found
// is false for the zero hash (an index above the height), a block the
// ledger does not have, or one that is not traceable any more.
func (l *Ledger) traceableBlock(ic *interop.Context, h hash.Uint256) (*block.Header, []hash.Uint256, bool) {
	if h.IsZero() {
		return nil, nil, false
	}
	hdr, txs, err := ic.DAO.GetTrimmedBlock(h)
	if err != nil || !l.isTraceableBlock(ic, hdr.Index) {
		return nil, nil, false
	}
	return hdr, txs, true
}

// traceableTx reads the transaction whose hash is arg; found is false if
// the ledger does not have it or its block is not traceable any more. err
// is only for an argument that is not a hash.
func (l *Ledger) traceableTx(ic *interop.Context, arg stackitem.Item) (tx *transaction.Transaction, height uint32, st vmstate.State, found bool, err error) {
	h, err := ToUint256(arg)
	if err != nil {
		return nil, 0, 0, false, err
	}
	tx, height, st, err = ic.DAO.GetTransaction(h)
	if err != nil || !l.isTraceableBlock(ic, height) {
		return nil, 0, 0, false, nil
	}
	return tx, height, st, true, nil
}

func (l *Ledger) getTransaction(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	tx, _, _, found, err := l.traceableTx(ic, args[0])
	if !found {
		return stackitem.Null{}, err
	}
	return state.TransactionToStackItem(tx), nil
}

func (l *Ledger) getTransactionHeight(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	_, height, _, found, err := l.traceableTx(ic, args[0])
	if !found {
		return stackitem.NewInt(-1), err
	}
	return stackitem.NewInt(int64(height)), nil
}

func (l *Ledger) getTransactionFromBlock(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := blockHashFromItem(ic, args[0])
	if err != nil {
		return nil, err
	}
	index, err := ToUint32(args[1])
	if err != nil {
		return nil, err
	}
	_, txs, found := l.traceableBlock(ic, h)
	if !found {
		return stackitem.Null{}, nil
	}
	if index >= uint32(len(txs)) {
		return nil, errors.New("wrong transaction index")
	}
	tx, _, _, err := ic.DAO.GetTransaction(txs[index])
	if err != nil {
		return nil, err
	}
	return state.TransactionToStackItem(tx), nil
}

func (l *Ledger) getTransactionSigners(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	tx, _, _, found, err := l.traceableTx(ic, args[0])
	if !found {
		return stackitem.Null{}, err
	}
	return state.SignersToStackItem(tx.Signers), nil
}

func (l *Ledger) getTransactionVMState(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	_, _, st, found, err := l.traceableTx(ic, args[0])
	if !found {
		return stackitem.NewInt(int64(vmstate.None)), err
	}
	return stackitem.NewInt(int64(st)), nil
}

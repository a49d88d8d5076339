package rpcledger

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/core/transferlog"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// Ledger is a chainrpc.Ledger over a core.Blockchain.
type Ledger struct {
	*core.Blockchain
}

var _ chainrpc.Ledger = (*Ledger)(nil)

// New returns the adapter of bc.
func New(bc *core.Blockchain) *Ledger { return &Ledger{bc} }

// errKeyNotFound keeps neo-go's "key not found" text for missing items.
var errKeyNotFound = errors.New("key not found")

func notFound(err error) error {
	if errors.Is(err, core.ErrNotFound) || errors.Is(err, storage.ErrKeyNotFound) {
		return errKeyNotFound
	}
	return err
}

// GetBlock implements chainrpc.Ledger (missing blocks: "key not found").
func (l *Ledger) GetBlock(h hash.Uint256) (*block.Block, error) {
	b, err := l.Blockchain.GetBlock(h)
	return b, notFound(err)
}

// GetAppExecResults implements chainrpc.Ledger.
func (l *Ledger) GetAppExecResults(h hash.Uint256, trig trigger.Type) ([]state.AppExecResult, error) {
	res, err := l.Blockchain.GetAppExecResults(h, trig)
	return res, notFound(err)
}

// Config implements chainrpc.Ledger.
func (l *Ledger) Config() *config.Blockchain { return l.Blockchain.Config() }

// GetCommittee implements chainrpc.Ledger.
func (l *Ledger) GetCommittee() []*keys.PublicKey { return l.Blockchain.GetCommittee() }

// GetTokenLastUpdated implements chainrpc.Ledger.
func (l *Ledger) GetTokenLastUpdated(acc hash.Uint160) (map[int32]uint32, error) {
	return l.Blockchain.GetTokenLastUpdated(acc)
}

// GetNextBlockValidators implements chainrpc.Ledger (the chain's method
// has neo-go's signature, with an error, for consensus).
func (l *Ledger) GetNextBlockValidators() []*keys.PublicKey {
	vs, _ := l.Blockchain.GetNextBlockValidators()
	return vs
}

// ForEachTransfer implements chainrpc.Ledger.
func (l *Ledger) ForEachTransfer(acc hash.Uint160, nep11 bool, newest uint64, f func(*chainrpc.Transfer) (bool, error)) error {
	return l.Blockchain.ForEachTransfer(acc, nep11, newest, func(t *transferlog.Transfer) (bool, error) {
		return f(&chainrpc.Transfer{
			Asset: t.Asset, Counterparty: t.Counterparty, Amount: t.AmountInt(),
			Block: t.Block, Timestamp: t.Timestamp, Tx: t.Tx, ID: t.ID,
		})
	})
}

// GetStateRoot implements chainrpc.Ledger.
func (l *Ledger) GetStateRoot(height uint32) (*result.StateRoot, error) {
	r, err := l.Blockchain.GetStateRoot(height)
	if err != nil {
		return nil, err
	}
	w := r.Witness
	if w == nil {
		w = []transaction.Witness{}
	}
	return &result.StateRoot{Version: r.Version, Index: r.Index, RootHash: r.RootHash, Witnesses: w}, nil
}

// FindStates implements chainrpc.Ledger.
func (l *Ledger) FindStates(root hash.Uint256, prefix, start []byte, max int) ([]result.KeyValue, error) {
	kvs, err := l.Blockchain.FindStates(root, prefix, start, max)
	res := make([]result.KeyValue, len(kvs))
	for i := range kvs {
		res[i] = result.KeyValue{Key: kvs[i].Key, Value: kvs[i].Value}
	}
	return res, err
}

// GetVerifiedTransactions implements chainrpc.Ledger.
func (l *Ledger) GetVerifiedTransactions() []*transaction.Transaction {
	return l.Mempool().GetVerifiedTransactions()
}

// InitVerificationContext implements chainrpc.Ledger.
func (l *Ledger) InitVerificationContext(ic *interop.Context, h hash.Uint160, w *transaction.Witness) error {
	return ic.InitVerification(h, w)
}

// PoolTx implements chainrpc.Ledger.
func (l *Ledger) PoolTx(tx *transaction.Transaction) error {
	return ClassifyRelayError(l.Blockchain.PoolTx(tx))
}

// AddBlock implements chainrpc.Ledger.
func (l *Ledger) AddBlock(b *block.Block) error {
	return ClassifyRelayError(l.Blockchain.AddBlock(b))
}

// relayCodes maps the ledger's error sentinels to relay answers, in
// neo-go's order of checks (getRelayResult).
var relayCodes = []struct {
	err  []error
	code *neorpc.Error
}{
	{[]error{core.ErrTxExpired, core.ErrTxNotYetValid}, neorpc.ErrExpiredTransaction},
	{[]error{core.ErrAlreadyExists}, neorpc.ErrAlreadyExists},
	{[]error{core.ErrAlreadyInPool}, neorpc.ErrAlreadyInPool},
	{[]error{core.ErrOOM}, neorpc.ErrMempoolCapReached},
	{[]error{core.ErrPolicy}, neorpc.ErrPolicyFailed},
	{[]error{core.ErrInvalidScript}, neorpc.ErrInvalidScript},
	{[]error{core.ErrTxTooBig}, neorpc.ErrInvalidSize},
	{[]error{core.ErrTxSmallNetworkFee}, neorpc.ErrInsufficientNetworkFee},
	{[]error{core.ErrInvalidAttribute}, neorpc.ErrInvalidAttribute},
	{[]error{core.ErrInsufficientFunds, core.ErrMemPoolConflict}, neorpc.ErrInsufficientFunds},
	{[]error{core.ErrInvalidSignature}, neorpc.ErrInvalidSignature},
}

// poolSentinels are the memory pool failures neo-go reports as the bare
// sentinel (its verifyAndPoolTx drops the pool's own error).
var poolSentinels = []error{core.ErrAlreadyInPool, core.ErrOOM, core.ErrInsufficientFunds, core.ErrMemPoolConflict}

// ClassifyRelayError wraps an error of the ledger's transaction or block
// verification in a chainrpc.RelayError with its RPC code (nil stays nil;
// unknown errors stay as they are and answer -500). Pool failures keep
// only the sentinel's text, as in neo-go.
func ClassifyRelayError(err error) error {
	if err == nil {
		return nil
	}
	for _, e := range poolSentinels {
		if errors.Is(err, e) {
			err = e
			break
		}
	}
	for _, rc := range relayCodes {
		for _, e := range rc.err {
			if errors.Is(err, e) {
				return &chainrpc.RelayError{Code: rc.code, Err: err}
			}
		}
	}
	return err
}

// String describes the adapter.
func (l *Ledger) String() string { return fmt.Sprintf("core ledger at height %d", l.BlockHeight()) }

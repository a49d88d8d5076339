package chainrpc_test

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/stretchr/testify/require"
)

// fakeLedger is a chainrpc.Ledger over in-memory blocks; what a test does
// not set answers "not found".
type fakeLedger struct {
	cfg       config.Blockchain
	blocks    []*block.Block
	contracts map[hash.Uint160]*state.Contract
	storage   map[int32][]result.KeyValue // sorted by key, keys without prefix
	transfers []chainrpc.Transfer         // newest first
	roots     []*result.StateRoot
	pool      []*transaction.Transaction
	poolErr   error
	added     []*block.Block
	validated uint32
	gas       int64
	vwErr     error
	paused    error // WritesPaused
}

var errNotFound = errors.New("key not found")

func (l *fakeLedger) WritesPaused() error { return l.paused }

func newFakeLedger(n int) *fakeLedger {
	l := &fakeLedger{contracts: map[hash.Uint160]*state.Contract{}, storage: map[int32][]result.KeyValue{}}
	l.cfg.Magic = 42
	l.cfg.MaxBlockSize = 1000
	l.cfg.StandbyCommittee = []string{"02B3622BF4017BDFE317C58AED5F4C753F206B7DB896046FA7D774BBC4BF7F8DC2"}
	l.cfg.ValidatorsCount = 1
	prev := hash.Uint256{}
	for i := range n {
		b := &block.Block{Header: block.Header{Index: uint32(i), PrevHash: prev, Timestamp: uint64(1000 * (i + 1))}}
		for j := range i % 3 {
			tx := transaction.New([]byte{0x11}, uint32(i*10+j), int64(100*(j+1)), 1, 1000)
			tx.Signers = []transaction.Signer{{Account: hash.Uint160{byte(j + 1)}}}
			tx.Witnesses = []transaction.Witness{{}}
			b.Transactions = append(b.Transactions, tx)
		}
		b.RebuildMerkleRoot()
		prev = b.Hash()
		l.blocks = append(l.blocks, b)
		l.roots = append(l.roots, &result.StateRoot{Index: uint32(i), RootHash: hash.Uint256{byte(i + 1)}, Witnesses: []transaction.Witness{}})
	}
	return l
}

func (l *fakeLedger) Config() *config.Blockchain      { return &l.cfg }
func (l *fakeLedger) BlockHeight() uint32             { return uint32(len(l.blocks) - 1) }
func (l *fakeLedger) HeaderHeight() uint32            { return uint32(len(l.blocks) - 1) }
func (l *fakeLedger) CurrentBlockHash() hash.Uint256  { return l.blocks[len(l.blocks)-1].Hash() }
func (l *fakeLedger) GetMillisecondsPerBlock() uint32 { return 1000 }
func (l *fakeLedger) GetMaxTraceableBlocks() uint32   { return 2102400 }
func (l *fakeLedger) GetMaxValidUntilBlockIncrement() uint32 {
	return 5760
}
func (l *fakeLedger) GetMaxVerificationGAS() int64                          { return 1_50000000 }
func (l *fakeLedger) FeePerByte() int64                                     { return 1000 }
func (l *fakeLedger) CalculateAttributesFee(*transaction.Transaction) int64 { return 0 }

func (l *fakeLedger) GetHeaderHash(i uint32) hash.Uint256 {
	if int(i) < len(l.blocks) {
		return l.blocks[i].Hash()
	}
	return hash.Uint256{}
}

func (l *fakeLedger) GetBlock(h hash.Uint256) (*block.Block, error) {
	for _, b := range l.blocks {
		if b.Hash() == h {
			return b, nil
		}
	}
	return nil, errNotFound
}

func (l *fakeLedger) GetHeader(h hash.Uint256) (*block.Header, error) {
	b, err := l.GetBlock(h)
	if err != nil {
		return nil, err
	}
	return &b.Header, nil
}

func (l *fakeLedger) GetTransaction(h hash.Uint256) (*transaction.Transaction, uint32, error) {
	for _, tx := range l.pool {
		if tx.Hash() == h {
			return tx, ^uint32(0), nil
		}
	}
	for _, b := range l.blocks {
		for _, tx := range b.Transactions {
			if tx.Hash() == h {
				return tx, b.Index, nil
			}
		}
	}
	return nil, 0, errNotFound
}

func (l *fakeLedger) GetAppExecResults(h hash.Uint256, trig trigger.Type) ([]state.AppExecResult, error) {
	return nil, errNotFound
}

func (l *fakeLedger) GetContractState(h hash.Uint160) *state.Contract { return l.contracts[h] }

func (l *fakeLedger) GetContractStateByID(id int32) *state.Contract {
	for _, c := range l.contracts {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func (l *fakeLedger) GetNatives() []state.Contract { return nil }

func (l *fakeLedger) GetStorageItem(id int32, key []byte) []byte {
	for _, kv := range l.storage[id] {
		if string(kv.Key) == string(key) {
			return kv.Value
		}
	}
	return nil
}

func (l *fakeLedger) SeekStorage(id int32, prefix []byte, f func(k, v []byte) bool) {
	for _, kv := range l.storage[id] {
		if len(kv.Key) >= len(prefix) && string(kv.Key[:len(prefix)]) == string(prefix) {
			if !f(kv.Key[len(prefix):], kv.Value) {
				return
			}
		}
	}
}

func (l *fakeLedger) GetCommittee() []*keys.PublicKey           { return nil }
func (l *fakeLedger) GetNextBlockValidators() []*keys.PublicKey { return nil }
func (l *fakeLedger) GetNEP17Contracts() []hash.Uint160         { return nil }
func (l *fakeLedger) GetNEP11Contracts() []hash.Uint160         { return nil }
func (l *fakeLedger) GetTokenLastUpdated(hash.Uint160) (map[int32]uint32, error) {
	return map[int32]uint32{}, nil
}

func (l *fakeLedger) ForEachTransfer(acc hash.Uint160, nep11 bool, newest uint64, f func(*chainrpc.Transfer) (bool, error)) error {
	for i := range l.transfers {
		tr := l.transfers[i]
		if (tr.ID != nil) != nep11 || tr.Timestamp > newest {
			continue
		}
		cont, err := f(&tr)
		if err != nil || !cont {
			return err
		}
	}
	return nil
}

func (l *fakeLedger) GetStateRoot(h uint32) (*result.StateRoot, error) {
	if int(h) < len(l.roots) {
		return l.roots[h], nil
	}
	return nil, errNotFound
}

func (l *fakeLedger) CurrentValidatedHeight() uint32 { return l.validated }
func (l *fakeLedger) GetState(hash.Uint256, []byte) ([]byte, error) {
	return nil, mpt.ErrNotFound
}
func (l *fakeLedger) GetStateProof(hash.Uint256, []byte) ([][]byte, error) {
	return nil, mpt.ErrNotFound
}
func (l *fakeLedger) FindStates(hash.Uint256, []byte, []byte, int) ([]result.KeyValue, error) {
	return nil, nil
}
func (l *fakeLedger) SeekStates(hash.Uint256, []byte, func(k, v []byte) bool) {}
func (l *fakeLedger) GetLatestStateHeight(root hash.Uint256) (uint32, error) {
	for _, r := range l.roots {
		if r.RootHash == root {
			return r.Index, nil
		}
	}
	return 0, errNotFound
}
func (l *fakeLedger) GetVerifiedTransactions() []*transaction.Transaction { return l.pool }
func (l *fakeLedger) GetTestVM(trigger.Type, *transaction.Transaction, *block.Block) (*interop.Context, error) {
	return nil, errors.New("no VM in the fake")
}
func (l *fakeLedger) GetTestHistoricVM(trigger.Type, *transaction.Transaction, uint32) (*interop.Context, error) {
	return nil, errors.New("no VM in the fake")
}
func (l *fakeLedger) GetFakeNextBlock(index uint32) (*block.Block, error) {
	return &block.Block{Header: block.Header{Index: index}}, nil
}
func (l *fakeLedger) InitVerificationContext(*interop.Context, hash.Uint160, *transaction.Witness) error {
	return errors.New("no VM in the fake")
}
func (l *fakeLedger) VerifyWitness(hash.Uint160, interop.Container, *transaction.Witness, int64) (int64, error) {
	return l.gas, l.vwErr
}
func (l *fakeLedger) PoolTx(tx *transaction.Transaction) error {
	if l.poolErr != nil {
		return l.poolErr
	}
	l.pool = append(l.pool, tx)
	return nil
}
func (l *fakeLedger) AddBlock(b *block.Block) error {
	l.added = append(l.added, b)
	return nil
}

var _ chainrpc.Ledger = (*fakeLedger)(nil)

// fixture is a service over a fake ledger.
type fixture struct {
	t   *testing.T
	l   *fakeLedger
	srv *rpcserver.Server
	svc *chainrpc.Service
}

func newFixture(t *testing.T, l *fakeLedger, cfg rpcserver.Config, o chainrpc.Options) *fixture {
	if o.Now == nil {
		o.Now = func() time.Time { return time.UnixMilli(10_000_000) }
	}
	srv := rpcserver.New(cfg)
	svc := chainrpc.New(l, srv, o)
	require.NoError(t, svc.Register())
	return &fixture{t: t, l: l, srv: srv, svc: svc}
}

// call runs a method with params given as a JSON array and returns the
// result's JSON or the error.
func (f *fixture) call(method, params string) (string, *neorpc.Error) {
	f.t.Helper()
	var raws []json.RawMessage
	require.NoError(f.t, json.Unmarshal([]byte(params), &raws))
	p := make(neorpc.Params, len(raws))
	for i := range raws {
		p[i] = neorpc.Param{RawMessage: raws[i]}
	}
	res, rerr := f.svc.Call(method, p)
	if rerr != nil {
		return "", rerr
	}
	b, err := json.Marshal(res)
	require.NoError(f.t, err)
	return string(b), nil
}

func (f *fixture) ok(method, params string) string {
	f.t.Helper()
	res, rerr := f.call(method, params)
	require.Nil(f.t, rerr, "%s %s: %v", method, params, rerr)
	return res
}

func (f *fixture) fails(method, params string, code int64, data string) {
	f.t.Helper()
	_, rerr := f.call(method, params)
	require.NotNil(f.t, rerr, "%s %s", method, params)
	require.Equal(f.t, code, rerr.Code, "%s %s: %v", method, params, rerr)
	if data != "" {
		require.Equal(f.t, data, rerr.Data, "%s %s", method, params)
	}
}

var _ = big.NewInt

package core

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// gasAccountPrefix is the storage prefix of NEP-17 native account states
// (C# FungibleToken Prefix_Account).
const gasAccountPrefix = 20

// gasBalance reads an account's GAS balance from the GasToken storage
// (0 if none or unreadable).
func gasBalance(d *dao.Simple, acc hash.Uint160) *big.Int {
	v := d.GetStorageItem(nativenames.GasID, append([]byte{gasAccountPrefix}, acc[:]...))
	if v == nil {
		return new(big.Int)
	}
	b, err := state.NEP17BalanceFromBytes(v)
	if err != nil {
		return new(big.Int)
	}
	return &b.Balance
}

// feePerByte is Policy's fee per byte in d.
func (bc *Blockchain) feePerByte(d *dao.Simple) int64 { return bc.natives.Policy.FeePerByte(d) }

// FeePerByte returns the current Policy fee per transaction byte (datoshi).
func (bc *Blockchain) FeePerByte() int64 { return bc.feePerByte(bc.dao) }

// GetStoragePrice returns the current storage price (datoshi per byte).
func (bc *Blockchain) GetStoragePrice() int64 { return bc.natives.StoragePrice(bc.dao, nil) }

// GetBaseExecFee returns the current execution fee factor in picoGAS per
// price unit (neo-go GetBaseExecFee).
func (bc *Blockchain) GetBaseExecFee() int64 {
	return int64(bc.natives.ExecFeeFactor(bc.dao, nil))
}

// GetMaxVerificationGAS returns the verification GAS limit of a witness.
func (bc *Blockchain) GetMaxVerificationGAS() int64 {
	return bc.natives.Policy.MaxVerificationGas(bc.dao)
}

// IsBlocked reports whether Policy blocks the account.
func (bc *Blockchain) IsBlocked(h hash.Uint160) bool { return bc.natives.Policy.IsBlocked(bc.dao, h) }

// GetAttributeFee returns Policy's fee of an attribute type (datoshi).
func (bc *Blockchain) GetAttributeFee(t transaction.AttrType) int64 {
	return bc.natives.Policy.AttributeFee(bc.dao, t)
}

// maxVUBIncrement is neo-go's GetMaxValidUntilBlockIncrement at height in d:
// Policy's value once HF_Echidna is enabled at height, the configuration's
// before.
func (bc *Blockchain) maxVUBIncrement(d *dao.Simple, height uint32) uint32 {
	if bc.cfg.IsHardforkEnabled(config.HFEchidna, height) {
		return bc.natives.Policy.MaxValidUntilBlockIncrement(d)
	}
	return bc.cfg.MaxValidUntilBlockIncrement
}

// maxTraceableBlocks is neo-go's GetMaxTraceableBlocks at height in d.
func (bc *Blockchain) maxTraceableBlocks(d *dao.Simple, height uint32) uint32 {
	if bc.cfg.IsHardforkEnabled(config.HFEchidna, height) {
		if height == 0 {
			if bc.cfg.Genesis.MaxTraceableBlocks != 0 {
				return bc.cfg.Genesis.MaxTraceableBlocks
			}
			return bc.cfg.MaxTraceableBlocks
		}
		return bc.natives.Policy.MaxTraceableBlocks(d)
	}
	return bc.cfg.MaxTraceableBlocks
}

// GetMaxValidUntilBlockIncrement returns how far ahead of the current
// height a transaction's ValidUntilBlock may be.
func (bc *Blockchain) GetMaxValidUntilBlockIncrement() uint32 {
	return bc.maxVUBIncrement(bc.dao, bc.BlockHeight())
}

// GetMaxTraceableBlocks returns how many recent blocks contracts can see.
func (bc *Blockchain) GetMaxTraceableBlocks() uint32 {
	return bc.maxTraceableBlocks(bc.dao, bc.BlockHeight())
}

// GetMillisecondsPerBlock returns the block interval consensus works with.
func (bc *Blockchain) GetMillisecondsPerBlock() uint32 {
	if bc.cfg.IsHardforkEnabled(config.HFEchidna, bc.BlockHeight()) {
		return bc.natives.Policy.MillisecondsPerBlock(bc.dao)
	}
	return uint32(bc.cfg.TimePerBlock.Milliseconds())
}

// GetCommittee returns the current committee, sorted (neo-go GetCommittee).
func (bc *Blockchain) GetCommittee() []*keys.PublicKey {
	pubs := slices.Clone(bc.natives.Committee().CommitteeMembers(bc.dao))
	keys.SortPublicKeys(pubs)
	return pubs
}

// GetCommitteeAddress returns the committee's multi-signature account.
func (bc *Blockchain) GetCommitteeAddress() hash.Uint160 {
	return bc.natives.Committee().CommitteeAddress(bc.dao)
}

// GetNextBlockValidators returns the validators of the next block.
func (bc *Blockchain) GetNextBlockValidators() ([]*keys.PublicKey, error) {
	return slices.Clone(bc.natives.Committee().NextBlockValidators(bc.dao)), nil
}

// GetConfig returns a copy of the chain configuration.
func (bc *Blockchain) GetConfig() config.Blockchain { return *bc.cfg }

// GetDesignatedByRole returns the keys designated for a role for the next
// block and the height of their designation.
func (bc *Blockchain) GetDesignatedByRole(r noderoles.Role) ([]*keys.PublicKey, uint32, error) {
	return bc.natives.RoleManagement().GetDesignatedByRole(bc.dao, r, bc.BlockHeight()+1)
}

// ComputeNextBlockValidators returns the validators the NEO contract would
// elect now (the next block's validators until the NEO contract provides
// the computation).
func (bc *Blockchain) ComputeNextBlockValidators() []*keys.PublicKey {
	if c, ok := bc.natives.Committee().(interface {
		ComputeNextBlockValidators(*dao.Simple) []*keys.PublicKey
	}); ok {
		return c.ComputeNextBlockValidators(bc.dao)
	}
	vs, _ := bc.GetNextBlockValidators()
	return vs
}

// GetContractState returns a deployed or native contract's state, or nil.
func (bc *Blockchain) GetContractState(h hash.Uint160) *state.Contract {
	cs, err := bc.natives.Management.GetContract(bc.dao, h)
	if err != nil {
		return nil
	}
	return cs
}

// GetContractStateByID returns the state of the contract with the given
// id, or nil.
func (bc *Blockchain) GetContractStateByID(id int32) *state.Contract {
	cs, err := bc.natives.Management.GetContractByID(bc.dao, id)
	if err != nil {
		return nil
	}
	return cs
}

// GetNatives returns the states of the native contracts active at the
// current height, in id order (-1 first).
func (bc *Blockchain) GetNatives() []state.Contract {
	var res []state.Contract
	for _, c := range bc.natives.List() {
		if !bc.natives.IsActive(c, bc.BlockHeight()) {
			continue
		}
		if cs := bc.GetContractState(c.Metadata().Hash); cs != nil {
			res = append(res, *cs)
		}
	}
	return res
}

// GetNEP17Contracts returns the deployed NEP-17 contracts (natives
// included).
func (bc *Blockchain) GetNEP17Contracts() []hash.Uint160 {
	return bc.natives.Management.NEP17Contracts(bc.dao)
}

// GetNEP11Contracts returns the deployed NEP-11 contracts.
func (bc *Blockchain) GetNEP11Contracts() []hash.Uint160 {
	return bc.natives.Management.NEP11Contracts(bc.dao)
}

// GetStorageItem returns a contract storage value, or nil.
func (bc *Blockchain) GetStorageItem(id int32, key []byte) []byte {
	return bc.dao.GetStorageItem(id, key)
}

// SeekStorage walks the storage items of contract id whose keys start with
// prefix, in key order; f gets the keys without the prefix.
func (bc *Blockchain) SeekStorage(id int32, prefix []byte, f func(k, v []byte) bool) {
	bc.dao.Seek(id, storage.SeekRange{Prefix: prefix}, f)
}

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
	b := &block.Block{Header: block.Header{Index: index, Timestamp: prev.Timestamp + uint64(bc.GetMillisecondsPerBlock())}}
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

// GetState returns the value of a contract storage key (contract id LE and
// key) in the state with the given root (getstate).
func (bc *Blockchain) GetState(root hash.Uint256, key []byte) ([]byte, error) {
	return bc.state.GetState(bc.dao.Store, root, key)
}

// FindStates returns up to max storage items whose keys (contract id LE and
// key) start with prefix, after prefix+start, in the state with the given
// root (findstates).
func (bc *Blockchain) FindStates(root hash.Uint256, prefix, start []byte, max int) ([]mpt.KeyValue, error) {
	return bc.state.FindStates(bc.dao.Store, root, prefix, start, max)
}

// GetStateProof returns the MPT proof of a storage key in the state with the
// given root (getproof).
func (bc *Blockchain) GetStateProof(root hash.Uint256, key []byte) ([][]byte, error) {
	return bc.state.GetProof(bc.dao.Store, root, key)
}

// VerifyStateProof checks a proof against a root and returns the value
// (verifyproof).
func (bc *Blockchain) VerifyStateProof(root hash.Uint256, key []byte, proof [][]byte) ([]byte, error) {
	return stateroot.VerifyProof(root, key, proof)
}

// GetLatestStateHeight returns the highest height whose state root is root.
func (bc *Blockchain) GetLatestStateHeight(root hash.Uint256) (uint32, error) {
	return bc.state.GetLatestStateHeight(bc.dao.Store, root)
}

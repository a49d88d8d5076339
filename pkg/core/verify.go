package core

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
)

// HeaderVerificationGasLimit is fee.HeaderVerificationGasLimit, kept for
// the callers of Blockchain.VerifyWitness that check headers.
const HeaderVerificationGasLimit = fee.HeaderVerificationGasLimit

// view is the state a verification or execution sees: a DAO layer holding
// the blocks up to height.
type view struct {
	bc     *Blockchain
	d      *dao.Simple
	height uint32
}

func (v *view) ledger() ledgerView { return ledgerView{v.bc, v.height} }

// BlockHeight, FeePerByte and GetUtilityTokenBalance implement
// mempool.Feer over the view's state.
func (v *view) BlockHeight() uint32                            { return v.height }
func (v *view) FeePerByte() int64                              { return v.bc.feePerByte(v.d) }
func (v *view) GetUtilityTokenBalance(h hash.Uint160) *big.Int { return gasBalance(v.d, h) }

// committedView is the view of the committed state; hold commitMu for
// reading while using it.
func (bc *Blockchain) committedView() *view {
	return &view{bc: bc, d: bc.dao, height: bc.BlockHeight()}
}

// witnessResult is a witness verification computed ahead of time
// (speculatively, on another state than the final one), with what it
// depended on: the exec fee factor and the hardforks of the persisting
// index. Only standard signature and multi-signature witnesses with plain
// signature invocation scripts are precomputed: their run depends on
// nothing else (see reuse).
type witnessResult struct {
	done      bool
	feeFactor uint64
	forks     config.HardforkSet
	gas       int64
	err       error
}

// isPrecomputable reports whether w's verification depends only on the
// container, the exec fee factor and the hardforks.
func isPrecomputable(w *transaction.Witness) bool {
	if len(w.VerificationScript) == 0 {
		return false
	}
	if _, ok := smartcontract.ParseSignatureContract(w.VerificationScript); ok {
		_, ok = smartcontract.ParseSignatureInvocation(w.InvocationScript)
		return ok
	}
	m, _, ok := smartcontract.ParseMultiSigContractMN(w.VerificationScript)
	if !ok {
		return false
	}
	_, ok = smartcontract.ParseMultiSigInvocation(m, w.InvocationScript)
	return ok
}

// precompute verifies w with the largest GAS limit a witness can have.
func (bc *Blockchain) precompute(v *view, c interop.Container, h hash.Uint160, w *transaction.Witness) witnessResult {
	ic := bc.natives.NewContext(trigger.Verification, v.ledger(), v.d, nil, c)
	gas, err := interop.VerifyWitness(ic, h, w, interop.MaxVerificationGas)
	return witnessResult{done: true, feeFactor: ic.ExecFeeFactor, forks: ic.Hardforks, gas: gas, err: err}
}

// errGasLimit is what a standard witness verification that runs out of GAS
// returns.
var errGasLimit = fmt.Errorf("%w: vm execution has failed: %w", interop.ErrVerificationFailed, vm.ErrGasLimit)

// reuse returns the result of the precomputed run for the actual run with
// the given limit (at most MaxVerificationGas) if it is valid for it. A
// standard script runs the same instructions whatever the limit, so the run
// faults on GAS exactly when its consumption exceeds the limit; other
// precomputed errors are not reused (the actual run reports them).
func (r *witnessResult) reuse(feeFactor uint64, forks config.HardforkSet, limit int64) (int64, error, bool) {
	if !r.done || r.feeFactor != feeFactor || r.forks != forks {
		return 0, nil, false
	}
	if r.err != nil && !errors.Is(r.err, interop.ErrInvalidSignature) {
		return 0, nil, false
	}
	if r.gas > limit {
		return 0, errGasLimit, true
	}
	return r.gas, r.err, true
}

// verifyContexts recycles the contexts of witness checks (one per
// transaction admitted): nothing refers to a check's context after it, the
// VM it may have spawned (whose hooks point to it) is dropped with it.
var verifyContexts = sync.Pool{New: func() any { return new(interop.Context) }}

// verifyWitness checks witness w of account h for container c in view v
// with a GAS limit, using pre if it applies.
func (bc *Blockchain) verifyWitness(v *view, c interop.Container, h hash.Uint160, w *transaction.Witness, gas int64, pre *witnessResult) (int64, error) {
	ic := verifyContexts.Get().(*interop.Context)
	defer func() {
		*ic = interop.Context{} // drops the layer, container and VM it held
		verifyContexts.Put(ic)
	}()
	bc.natives.InitContext(ic, trigger.Verification, v.ledger(), v.d, nil, c)
	if pre != nil {
		if used, err, ok := pre.reuse(ic.ExecFeeFactor, ic.Hardforks, min(gas, interop.MaxVerificationGas)); ok {
			if w.ScriptHash() != h {
				return 0, fmt.Errorf("%w: expected %s, got %s", interop.ErrWitnessHashMismatch, h.StringLE(), w.ScriptHash().StringLE())
			}
			return used, err
		}
	}
	return interop.VerifyWitness(ic, h, w, gas)
}

// verifyHeader checks a header against the previous one (neo-go
// verifyHeader, plus C#'s primary index rule) in view v. With
// StateRootInHeader, PrevStateRoot is checked here when the previous
// block's state root is committed already; otherwise commit checks it
// before the block's own root is added (checkPrevStateRoot).
func (bc *Blockchain) verifyHeader(v *view, cur, prev *block.Header, pre *witnessResult) error {
	if cur.StateRootEnabled != bc.cfg.StateRootInHeader {
		return fmt.Errorf("%w: %v != %v", ErrHdrStateRootSetting, bc.cfg.StateRootInHeader, cur.StateRootEnabled)
	}
	if cur.StateRootEnabled && bc.state.CurrentLocalHeight() == prev.Index {
		if err := bc.checkPrevStateRoot(cur); err != nil {
			return err
		}
	}
	if prev.Hash() != cur.PrevHash {
		return ErrHdrHashMismatch
	}
	if prev.Index+1 != cur.Index {
		return ErrHdrIndexMismatch
	}
	if prev.Timestamp >= cur.Timestamp {
		return ErrHdrInvalidTimestamp
	}
	if int(cur.PrimaryIndex) >= bc.cfg.GetNumOfCNs(cur.Index) {
		return fmt.Errorf("%w: %d of %d", ErrHdrPrimaryIndex, cur.PrimaryIndex, bc.cfg.GetNumOfCNs(cur.Index))
	}
	if _, err := bc.verifyWitness(v, cur, prev.NextConsensus, &cur.Witness, HeaderVerificationGasLimit, pre); err != nil {
		return fmt.Errorf("%w: %w", ErrHdrWitness, err)
	}
	return nil
}

// checkPrevStateRoot compares h.PrevStateRoot with the latest committed
// local state root, which must be that of block h.Index-1.
func (bc *Blockchain) checkPrevStateRoot(h *block.Header) error {
	if got := bc.state.CurrentLocalHeight(); got+1 != h.Index {
		return fmt.Errorf("%w: header %d, local state root at %d", ErrHdrInvalidStateRoot, h.Index, got)
	}
	if sr := bc.state.CurrentLocalStateRoot(); h.PrevStateRoot != sr {
		return fmt.Errorf("%w: %s != %s", ErrHdrInvalidStateRoot, h.PrevStateRoot.StringLE(), sr.StringLE())
	}
	return nil
}

// txPre holds a transaction's stateless checks done ahead of time.
type txPre struct {
	scriptErr error
	witnesses []witnessResult
}

// precheckTx runs the stateless checks of t and precomputes its standard
// witnesses in view v.
func (bc *Blockchain) precheckTx(v *view, t *transaction.Transaction) *txPre {
	p := &txPre{scriptErr: interop.CheckScript(t.Script, nil), witnesses: make([]witnessResult, len(t.Signers))}
	if p.scriptErr != nil {
		return p
	}
	for i := range t.Signers {
		if i < len(t.Witnesses) && isPrecomputable(&t.Witnesses[i]) {
			p.witnesses[i] = bc.precompute(v, t, t.Signers[i].Account, &t.Witnesses[i])
		}
	}
	return p
}

// calculateAttributesFee returns the network fee the attributes of t cost
// (neo-go CalculateAttributesFee).
func (bc *Blockchain) calculateAttributesFee(d *dao.Simple, t *transaction.Transaction) int64 {
	var sum int64
	for _, attr := range t.Attributes {
		base := bc.natives.Policy.AttributeFee(d, attr.Type)
		switch attr.Type {
		case transaction.ConflictsT:
			sum += base * int64(len(t.Signers))
		case transaction.NotaryAssistedT:
			if bc.cfg.P2PSigExtensions {
				sum += base * (int64(attr.Value.(*transaction.NotaryAssisted).NKeys) + 1)
			}
		default:
			sum += base
		}
	}
	return sum
}

// CalculateAttributesFee returns the network fee the attributes of t cost
// at the current state.
func (bc *Blockchain) CalculateAttributesFee(t *transaction.Transaction) int64 {
	return bc.calculateAttributesFee(bc.dao, t)
}

// notaryNative is what transaction verification needs of the Notary
// contract (NotValidBefore of notary requests).
type notaryNative interface {
	MaxNotValidBeforeDelta(d *dao.Simple) uint32
}

// verifyTxAttributes checks the attributes of t in view v (neo-go
// verifyTxAttributes).
func (bc *Blockchain) verifyTxAttributes(v *view, t *transaction.Transaction, isPartial bool) error {
	var conflicts []transaction.Attribute
	for i := range t.Attributes {
		attr := &t.Attributes[i]
		switch attr.Type {
		case transaction.HighPriority:
			if !t.HasSigner(bc.natives.Committee().CommitteeAddress(v.d)) {
				return fmt.Errorf("%w: high priority tx is not signed by committee", ErrInvalidAttribute)
			}
		case transaction.OracleResponseT:
			if err := bc.verifyOracleResponse(v, t, attr.Value.(*transaction.OracleResponse)); err != nil {
				return err
			}
		case transaction.NotValidBeforeT:
			nvb := attr.Value.(*transaction.NotValidBefore).Height
			if isPartial {
				n, ok := bc.natives.ByID(nativenames.NotaryID).(notaryNative)
				if !ok || !bc.cfg.IsHardforkEnabled(bc.natives.ByID(nativenames.NotaryID).Metadata().ActiveIn, v.height) {
					return fmt.Errorf("%w: failed to retrieve MaxNotValidBeforeDelta value from native Notary contract", ErrInvalidAttribute)
				}
				delta := n.MaxNotValidBeforeDelta(v.d)
				if uint64(v.height)+uint64(delta) < uint64(nvb) {
					return fmt.Errorf("%w: NotValidBefore (%d) bigger than MaxNVBDelta (%d) allows at height %d", ErrInvalidAttribute, nvb, delta, v.height)
				}
				if uint64(nvb)+uint64(delta) < uint64(t.ValidUntilBlock) {
					return fmt.Errorf("%w: NotValidBefore (%d) set more than MaxNVBDelta (%d) away from VUB (%d)", ErrInvalidAttribute, nvb, delta, t.ValidUntilBlock)
				}
			} else if v.height < nvb {
				return fmt.Errorf("%w: transaction is not yet valid: NotValidBefore = %d, current height = %d", ErrInvalidAttribute, nvb, v.height)
			}
		case transaction.ConflictsT:
			c := attr.Value.(*transaction.Conflicts).Hash
			if conflicts == nil {
				conflicts = t.GetAttributes(transaction.ConflictsT)
			}
			dup := false
			for _, o := range conflicts {
				if o.Value.(*transaction.Conflicts).Hash == c {
					if dup {
						return fmt.Errorf("%w: duplicate Conflicts attribute %s", ErrInvalidAttribute, c.StringLE())
					}
					dup = true
				}
			}
			if err := v.d.HasTransaction(c, nil, 0, 0); errors.Is(err, dao.ErrAlreadyExists) {
				return fmt.Errorf("%w: conflicting transaction %s is already on chain", ErrInvalidAttribute, c.StringLE())
			}
		case transaction.NotaryAssistedT:
			if !bc.cfg.IsHardforkEnabled(config.HFEchidna, v.height) {
				return fmt.Errorf("%w: NotaryAssisted attribute was found, but %s is not active yet", ErrInvalidAttribute, config.HFEchidna)
			}
			if !t.HasSigner(nativenames.NotaryHash) {
				return fmt.Errorf("%w: NotaryAssisted attribute was found, but transaction is not signed by the Notary native contract", ErrInvalidAttribute)
			}
			if t.Sender() == nativenames.NotaryHash && len(t.Signers) != 2 {
				return fmt.Errorf("%w: NotaryAssisted attribute was found, Notary native contract is the sender, transaction should have 2 signers (got %d)", ErrInvalidAttribute, len(t.Signers))
			}
		default:
			if attr.Type.IsReserved() && !bc.cfg.ReservedAttributes {
				return fmt.Errorf("%w: attribute of reserved type was found, but ReservedAttributes are disabled", ErrInvalidAttribute)
			}
		}
	}
	return nil
}

// verifyOracleResponse is neo-go's check of an OracleResponse attribute:
// signers without scopes, among them the designated Oracle nodes' BFT
// account for the next block, the fixed response script, a pending
// request, and fees at least its gasForResponse.
func (bc *Blockchain) verifyOracleResponse(v *view, t *transaction.Transaction, resp *transaction.OracleResponse) error {
	o := bc.natives.Oracle()
	if o == nil {
		return fmt.Errorf("%w: native Oracle contract implementation is not initialized", ErrInvalidAttribute)
	}
	nodes, _, err := bc.natives.RoleManagement().GetDesignatedByRole(v.d, noderoles.Oracle, v.height+1)
	if err == nil && len(nodes) == 0 {
		err = errors.New("no oracle nodes designated")
	}
	var h hash.Uint160
	if err == nil {
		var script []byte
		if script, err = smartcontract.CreateDefaultMultiSigRedeemScript(nodes); err == nil {
			h = hash.Hash160(script)
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidAttribute, err)
	}
	hasOracle := false
	for i := range t.Signers {
		if t.Signers[i].Scopes != transaction.None {
			return fmt.Errorf("%w: oracle tx has invalid signer scope", ErrInvalidAttribute)
		}
		if t.Signers[i].Account == h {
			hasOracle = true
		}
	}
	if !hasOracle {
		return fmt.Errorf("%w: oracle tx is not signed by oracle nodes", ErrInvalidAttribute)
	}
	if !bytes.Equal(t.Script, o.ResponseScript()) {
		return fmt.Errorf("%w: oracle tx has invalid script", ErrInvalidAttribute)
	}
	req, err := o.GetRequest(v.d, resp.ID)
	if err != nil {
		return fmt.Errorf("%w: oracle tx points to invalid request: %w", ErrInvalidAttribute, err)
	}
	if t.NetworkFee+t.SystemFee < req.GasForResponse {
		return fmt.Errorf("%w: oracle tx has insufficient gas", ErrInvalidAttribute)
	}
	return nil
}

// verifyTx runs every chain check of t in view v except the pool's (neo-go
// verifyAndPoolTx before pool.Add) and returns the GAS left of the network
// fee after the witnesses. pre holds the stateless checks if done ahead.
func (bc *Blockchain) verifyTx(v *view, t *transaction.Transaction, pre *txPre, isPartial bool) error {
	var scriptErr error
	if pre != nil {
		scriptErr = pre.scriptErr
	} else {
		scriptErr = interop.CheckScript(t.Script, nil)
	}
	if scriptErr != nil {
		return fmt.Errorf("%w: %w", ErrInvalidScript, scriptErr)
	}
	if t.ValidUntilBlock <= v.height {
		return fmt.Errorf("%w: ValidUntilBlock = %d, current height = %d", ErrTxExpired, t.ValidUntilBlock, v.height)
	}
	if !isPartial {
		inc := bc.maxVUBIncrement(v.d, v.height)
		if uint64(t.ValidUntilBlock) > uint64(v.height)+uint64(inc) {
			return fmt.Errorf("%w: ValidUntilBlock = %d, current height = %d, max allowed ValidUntilBlock = %d",
				ErrTxNotYetValid, t.ValidUntilBlock, v.height, uint64(v.height)+uint64(inc))
		}
	}
	if err := bc.natives.Policy.CheckPolicy(v.d, t); err != nil {
		return fmt.Errorf("%w: %w", ErrPolicy, err)
	}
	size := t.Size()
	if size > transaction.MaxTransactionSize {
		return fmt.Errorf("%w: (%d > MaxTransactionSize %d)", ErrTxTooBig, size, transaction.MaxTransactionSize)
	}
	need := int64(size)*bc.feePerByte(v.d) + bc.calculateAttributesFee(v.d, t)
	netFee := t.NetworkFee - need
	if netFee < 0 {
		return fmt.Errorf("%w: net fee is %d, need %d", ErrTxSmallNetworkFee, t.NetworkFee, need)
	}
	if err := v.d.HasTransaction(t.Hash(), t.Signers, v.height, bc.maxTraceableBlocks(v.d, v.height)); err != nil {
		switch {
		case errors.Is(err, dao.ErrAlreadyExists):
			return ErrAlreadyExists
		case errors.Is(err, dao.ErrHasConflicts):
			return fmt.Errorf("blockchain: %w", ErrHasConflicts)
		default:
			return err
		}
	}
	if err := bc.verifyTxWitnesses(v, t, pre, isPartial, netFee); err != nil {
		return err
	}
	return bc.verifyTxAttributes(v, t, isPartial)
}

// verifyTxWitnesses checks every witness of t, each with the network fee
// left after the previous ones as its GAS limit (neo-go verifyTxWitnesses).
func (bc *Blockchain) verifyTxWitnesses(v *view, t *transaction.Transaction, pre *txPre, isPartial bool, gasLimit int64) error {
	if len(t.Witnesses) != len(t.Signers) {
		return fmt.Errorf("%w: %d witnesses for %d signers", ErrVerificationFailed, len(t.Witnesses), len(t.Signers))
	}
	for i := range t.Signers {
		var p *witnessResult
		if pre != nil {
			p = &pre.witnesses[i]
		}
		used, err := bc.verifyWitness(v, t, t.Signers[i].Account, &t.Witnesses[i], gasLimit, p)
		if err != nil && (i != 0 || !isPartial || !errors.Is(err, ErrInvalidSignature)) {
			return fmt.Errorf("witness #%d: %w", i, err)
		}
		gasLimit -= used
	}
	return nil
}

// poolErr maps the memory pool's errors to the chain's (neo-go
// verifyAndPoolTx).
func poolErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, mempool.ErrConflict):
		return fmt.Errorf("%w: %w", ErrMemPoolConflict, err)
	case errors.Is(err, mempool.ErrDup):
		return fmt.Errorf("%w: %w", ErrAlreadyInPool, err)
	case errors.Is(err, mempool.ErrInsufficientFunds):
		return fmt.Errorf("%w: %w", ErrInsufficientFunds, err)
	case errors.Is(err, mempool.ErrOOM):
		return fmt.Errorf("%w: %w", ErrOOM, err)
	case errors.Is(err, mempool.ErrConflictsAttribute):
		return fmt.Errorf("mempool: %w: %w", ErrHasConflicts, err)
	default:
		return err
	}
}

// verifyOffChain is the verification of a transaction that is not in a
// block (neo-go verifyAndPoolOffChainTx before pooling): the system fee
// limit, then verifyTx on the committed state.
func (bc *Blockchain) verifyOffChain(t *transaction.Transaction, isPartial bool) error {
	if t.SystemFee > bc.cfg.MaxBlockSystemFee {
		return fmt.Errorf("%w: too big system fee (%d > MaxBlockSystemFee %d)", ErrPolicy, t.SystemFee, bc.cfg.MaxBlockSystemFee)
	}
	bc.commitMu.RLock()
	defer bc.commitMu.RUnlock()
	return bc.verifyTx(bc.committedView(), t, nil, isPartial)
}

// VerifyTx verifies t against the current state as if it were to be pooled,
// without the node's pool (a pool of its own checks the sender's GAS).
func (bc *Blockchain) VerifyTx(t *transaction.Transaction) error {
	if err := bc.verifyOffChain(t, false); err != nil {
		return err
	}
	mp := mempool.New(1, mempool.Options{})
	return poolErr(mp.Add(t, bc))
}

// PoolTx verifies t and adds it to the node's memory pool. Pooling
// functions refuse every transaction with ErrWritesPaused while the
// database refuses writes.
func (bc *Blockchain) PoolTx(t *transaction.Transaction) error {
	return bc.PoolTxTo(t, bc.pool)
}

// PoolTxTo verifies t and adds it to mp (e.g. a consensus round's own
// pool).
func (bc *Blockchain) PoolTxTo(t *transaction.Transaction, mp *mempool.Pool) error {
	if err := bc.checkWrites(); err != nil {
		return err
	}
	return poolErr(mp.VerifyAndAdd(t, bc, func(t *transaction.Transaction) error {
		return bc.verifyOffChain(t, false)
	}, nil))
}

// RejectedTxError names the transaction VerifyProposedTransactions refused.
type RejectedTxError struct {
	Hash hash.Uint256
	Err  error
}

func (e *RejectedTxError) Error() string {
	return fmt.Sprintf("transaction %s: %v", e.Hash.StringLE(), e.Err)
}

func (e *RejectedTxError) Unwrap() error { return e.Err }

// RejectedHash returns the refused transaction's hash.
func (e *RejectedTxError) RejectedHash() hash.Uint256 { return e.Hash }

// VerifyProposedTransactions checks the transactions of a block proposed
// for the next height as a set, as neo-go's consensus does with a scratch
// pool: pooled ones were verified on entry and only enter the scratch
// pool's fee accounting, the others are verified against the current
// state; together they must not conflict and their payers must cover all
// their fees. The error is a *RejectedTxError.
func (bc *Blockchain) VerifyProposedTransactions(txs []*transaction.Transaction) error {
	mp := mempool.New(max(len(txs), 1), mempool.Options{Workers: 1})
	for _, t := range txs {
		var err error
		if bc.pool.ContainsKey(t.Hash()) {
			err = poolErr(mp.Add(t, bc))
		} else if err = bc.verifyOffChain(t, false); err == nil {
			err = poolErr(mp.Add(t, bc))
		}
		if err != nil {
			return &RejectedTxError{Hash: t.Hash(), Err: err}
		}
	}
	return nil
}

// PoolTxWithData is PoolTx for a pool of partially signed transactions
// (notary requests: isPartial relaxes the first witness and the validity
// window) with data attached; verify, if given, checks the data first.
func (bc *Blockchain) PoolTxWithData(t *transaction.Transaction, data any, mp *mempool.Pool, feer mempool.Feer, verify func(*transaction.Transaction, any) error) error {
	if err := bc.checkWrites(); err != nil {
		return err
	}
	if verify != nil {
		if err := verify(t, data); err != nil {
			return fmt.Errorf("data verification failed: %w", err)
		}
	}
	return poolErr(mp.VerifyAndAdd(t, feer, func(t *transaction.Transaction) error {
		return bc.verifyOffChain(t, data != nil)
	}, data))
}

// IsTxStillRelevant reports whether a pooled transaction is still valid
// against the committed state (neo-go IsTxStillRelevant without a block
// pool): for pools the chain does not clean itself, such as the notary
// request pool (isPartial: the first witness may be incomplete and
// NotValidBefore is checked against the Notary contract's delta).
func (bc *Blockchain) IsTxStillRelevant(t *transaction.Transaction, isPartial bool) bool {
	bc.commitMu.RLock()
	defer bc.commitMu.RUnlock()
	return bc.isTxStillRelevant(t, nil, isPartial)
}

// isTxStillRelevant is the RemoveStale check after a block (neo-go
// IsTxStillRelevant): the transaction has not expired, is not in the block
// (txpool) or conflicting with it or the chain, its attributes still hold,
// and witnesses that are not standard contracts still verify.
func (bc *Blockchain) isTxStillRelevant(t *transaction.Transaction, txpool *mempool.Pool, isPartial bool) bool {
	v := bc.committedView()
	if t.ValidUntilBlock <= v.height {
		return false
	}
	if txpool == nil {
		if v.d.HasTransaction(t.Hash(), t.Signers, v.height, bc.maxTraceableBlocks(v.d, v.height)) != nil {
			return false
		}
	} else if txpool.HasConflicts(t) {
		return false
	}
	if bc.verifyTxAttributes(v, t, isPartial) != nil {
		return false
	}
	for i := range t.Witnesses {
		if !smartcontract.IsStandardContract(t.Witnesses[i].VerificationScript) {
			gas := t.NetworkFee - int64(t.Size())*bc.feePerByte(v.d) - bc.calculateAttributesFee(v.d, t)
			return bc.verifyTxWitnesses(v, t, nil, isPartial, gas) == nil
		}
	}
	return true
}

package mempool

import (
	"fmt"
	"math/big"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/RaduBerinde/btreemap"
	"github.com/holiman/uint256"

	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Feer supplies the chain state the pool needs. Implementations must be
// safe for concurrent use.
type Feer interface {
	// FeePerByte is the current Policy fee per byte.
	FeePerByte() int64
	// GetUtilityTokenBalance is the account's GAS balance.
	GetUtilityTokenBalance(hash.Uint160) *big.Int
	// BlockHeight is the current chain height.
	BlockHeight() uint32
}

// Options tune a Pool; the zero value is an ordinary transaction pool.
type Options struct {
	// PayerIndex is the signer paying the fees: 0 for the transaction pool,
	// 1 for a notary request pool (fallback transactions are paid by the
	// Notary contract, signer 0).
	PayerIndex int
	// Workers bounds RemoveStale's parallelism; 0 means GOMAXPROCS.
	Workers int
	// OnCountChange, if set, is called with the new count after every
	// change, under the pool lock (for metrics; keep it cheap).
	OnCountChange func(count int)
}

// prio orders pooled items, best first (see the package documentation).
type prio struct {
	high   bool
	fpb    int64
	netFee int64
	seq    uint64
}

func cmpPrio(a, b prio) int {
	if a.high != b.high {
		if a.high {
			return -1
		}
		return 1
	}
	if a.fpb != b.fpb {
		if a.fpb > b.fpb {
			return -1
		}
		return 1
	}
	if a.netFee != b.netFee {
		if a.netFee > b.netFee {
			return -1
		}
		return 1
	}
	switch {
	case a.seq < b.seq:
		return -1
	case a.seq > b.seq:
		return 1
	}
	return 0
}

// item is one pooled transaction.
type item struct {
	tx         *transaction.Transaction
	key        prio
	blockStamp uint32 // chain height when pooled, for resending
	data       any
}

// senderFees is a payer's GAS balance and the fees of its pooled
// transactions.
type senderFees struct {
	balance uint256.Int
	feeSum  uint256.Int
}

// btreeDegree was chosen by BenchmarkAdd (16..64 are within noise).
const btreeDegree = 32

// Pool is the memory pool. All methods are safe for concurrent use.
type Pool struct {
	mu         sync.RWMutex
	byHash     map[hash.Uint256]*item
	order      *btreemap.BTreeMap[prio, *item]
	fees       map[hash.Uint160]*senderFees
	conflicts  map[hash.Uint256][]hash.Uint256 // hash -> pooled txs declaring a conflict with it
	oracleResp map[uint64]hash.Uint256         // oracle request id -> pooled response
	seq        uint64
	feePerByte int64

	// gen counts RemoveStale calls; written under mu, read without it.
	gen atomic.Uint64

	capacity   int
	payerIndex int
	workers    int
	onCount    func(int)

	staleItems []*item // RemoveStale's scratch space
	staleOK    []bool

	resendThreshold uint32
	resendFunc      func(*transaction.Transaction, any)

	flightMu sync.Mutex
	flights  map[hash.Uint256]*flight

	events  eventQueue
	txAdded atomic.Pointer[chan struct{}]
}

// New returns an empty pool holding at most capacity transactions.
func New(capacity int, opts Options) *Pool {
	if capacity < 1 {
		capacity = 1
	}
	w := opts.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	mp := &Pool{
		byHash:     make(map[hash.Uint256]*item, capacity),
		order:      btreemap.New[prio, *item](btreeDegree, cmpPrio),
		fees:       make(map[hash.Uint160]*senderFees),
		conflicts:  make(map[hash.Uint256][]hash.Uint256),
		oracleResp: make(map[uint64]hash.Uint256),
		capacity:   capacity,
		payerIndex: opts.PayerIndex,
		workers:    w,
		onCount:    opts.OnCountChange,
		flights:    make(map[hash.Uint256]*flight),
	}
	mp.events.init()
	return mp
}

// Capacity returns the maximum number of pooled transactions.
func (mp *Pool) Capacity() int { return mp.capacity }

// Count returns the number of pooled transactions.
func (mp *Pool) Count() int {
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	return len(mp.byHash)
}

// ContainsKey reports whether the transaction is pooled.
func (mp *Pool) ContainsKey(h hash.Uint256) bool {
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	_, ok := mp.byHash[h]
	return ok
}

// TryGetValue returns the pooled transaction with the given hash.
func (mp *Pool) TryGetValue(h hash.Uint256) (*transaction.Transaction, bool) {
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	if it, ok := mp.byHash[h]; ok {
		return it.tx, true
	}
	return nil, false
}

// TryGetData returns the data attached to the pooled transaction.
func (mp *Pool) TryGetData(h hash.Uint256) (any, bool) {
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	if it, ok := mp.byHash[h]; ok {
		return it.data, true
	}
	return nil, false
}

// GetVerifiedTransactions returns the pooled transactions, best first.
func (mp *Pool) GetVerifiedTransactions() []*transaction.Transaction {
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	res := make([]*transaction.Transaction, 0, len(mp.byHash))
	for _, it := range mp.order.Ascend(btreemap.Min[prio](), btreemap.Max[prio]()) {
		res = append(res, it.tx)
	}
	return res
}

// IterateVerifiedTransactions calls cont for pooled transactions, best
// first, until it returns false. It runs under the pool's read lock: cont
// must not call methods that modify the pool.
func (mp *Pool) IterateVerifiedTransactions(cont func(tx *transaction.Transaction, data any) bool) {
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	for _, it := range mp.order.Ascend(btreemap.Min[prio](), btreemap.Max[prio]()) {
		if !cont(it.tx, it.data) {
			return
		}
	}
}

// HasConflicts reports whether t is pooled, is named by a pooled
// transaction's Conflicts attribute, or names a pooled transaction in its
// own. Fees and signers are not considered. The chain uses it on a pool of
// a new block's transactions to drop pooled transactions that conflict with
// the block.
func (mp *Pool) HasConflicts(t *transaction.Transaction) bool {
	h := t.Hash()
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	if _, ok := mp.byHash[h]; ok {
		return true
	}
	if _, ok := mp.conflicts[h]; ok {
		return true
	}
	for i := range t.Attributes {
		if c, ok := t.Attributes[i].Value.(*transaction.Conflicts); ok {
			if _, ok := mp.byHash[c.Hash]; ok {
				return true
			}
		}
	}
	return false
}

// Verify reports whether Add would accept t as far as conflicts and the
// payer's balance go (it does not check duplicates or capacity).
func (mp *Pool) Verify(t *transaction.Transaction, feer Feer) bool {
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	_, _, err := mp.checkTxConflicts(t, feer)
	return err == nil
}

// SetResendThreshold makes RemoveStale hand transactions that have stayed
// in the pool for h, 2h, 4h, 8h... blocks to f (in a goroutine of its own)
// so that the node can broadcast them again. h = 0 turns it off.
func (mp *Pool) SetResendThreshold(h uint32, f func(*transaction.Transaction, any)) {
	mp.mu.Lock()
	defer mp.mu.Unlock()
	mp.resendThreshold = h
	mp.resendFunc = f
}

// RegisterTransactionAddedSubscriber registers a single-use channel that
// the pool closes when the next transaction is added (the consensus service
// waits on it for missing transactions). A later registration replaces an
// earlier one that has not fired.
func (mp *Pool) RegisterTransactionAddedSubscriber(ch chan struct{}) {
	mp.txAdded.Store(&ch)
}

// payer returns the account paying t's fees.
func (mp *Pool) payer(t *transaction.Transaction) hash.Uint160 {
	return t.Signers[mp.payerIndex].Account
}

func txFee(t *transaction.Transaction) uint64 { return uint64(t.SystemFee + t.NetworkFee) }

// checkBalance returns the payer's fee sum with t added, or an error if
// its balance does not cover it.
func checkBalance(t *transaction.Transaction, s *senderFees) (uint256.Int, error) {
	var fee uint256.Int
	fee.SetUint64(txFee(t))
	if s.balance.Lt(&fee) {
		return fee, ErrInsufficientFunds
	}
	fee.Add(&fee, &s.feeSum)
	if s.balance.Lt(&fee) {
		return fee, ErrConflict
	}
	return fee, nil
}

func balanceOf(feer Feer, acc hash.Uint160) uint256.Int {
	var b uint256.Int
	if v := feer.GetUtilityTokenBalance(acc); v != nil && v.Sign() > 0 {
		_ = b.SetFromBig(v) // a balance over 2^256 saturates nothing real
	}
	return b
}

// checkTxConflicts applies the Conflicts and balance rules to t against
// the pool (lock held by the caller, read suffices). It returns the pooled
// items t would replace and the payer's balance if it was not cached yet.
func (mp *Pool) checkTxConflicts(t *transaction.Transaction, feer Feer) ([]*item, *senderFees, error) {
	payer := mp.payer(t)
	var fresh *senderFees
	actual, ok := mp.fees[payer]
	if !ok {
		fresh = &senderFees{balance: balanceOf(feer, payer)}
		actual = fresh
	}
	var (
		replaced       []*item
		conflictingFee int64
	)
	// Pooled transactions that declare a conflict with t.
	if hs, ok := mp.conflicts[t.Hash()]; ok {
		for _, h := range hs {
			existing := mp.byHash[h]
			if existing.tx.HasSigner(payer) {
				conflictingFee += existing.tx.NetworkFee
			}
			replaced = append(replaced, existing)
		}
	}
	// Pooled transactions t declares a conflict with.
	for i := range t.Attributes {
		c, ok := t.Attributes[i].Value.(*transaction.Conflicts)
		if !ok {
			continue
		}
		existing, ok := mp.byHash[c.Hash]
		if !ok {
			continue
		}
		if !shareSigner(t, existing.tx) {
			return nil, nil, fmt.Errorf("%w: not signed by a signer of conflicting transaction %s",
				ErrConflictsAttribute, existing.tx.Hash().StringBE())
		}
		conflictingFee += existing.tx.NetworkFee
		replaced = append(replaced, existing)
	}
	if conflictingFee != 0 && t.NetworkFee <= conflictingFee {
		return nil, nil, fmt.Errorf("%w: conflicting transactions have bigger or equal network fee: %d vs %d",
			ErrConflictsAttribute, t.NetworkFee, conflictingFee)
	}
	// The payer's replaced transactions no longer count against its balance.
	// An item can be in replaced twice (it and t name each other): count
	// its fees once.
	expected := *actual
	for i, r := range replaced {
		if slices.Contains(replaced[:i], r) {
			continue
		}
		if mp.payer(r.tx) == payer {
			var f uint256.Int
			f.SetUint64(txFee(r.tx))
			expected.feeSum.Sub(&expected.feeSum, &f)
		}
	}
	if _, err := checkBalance(t, &expected); err != nil {
		return nil, nil, err
	}
	return replaced, fresh, nil
}

func shareSigner(a, b *transaction.Transaction) bool {
	for i := range b.Signers {
		if a.HasSigner(b.Signers[i].Account) {
			return true
		}
	}
	return false
}

// Add inserts a transaction that the caller has verified against the
// chain, with optional data attached (data[0]). See the package
// documentation for the rules and errors.
func (mp *Pool) Add(t *transaction.Transaction, feer Feer, data ...any) error {
	var d any
	if len(data) > 0 {
		d = data[0]
	}
	return mp.add(t, feer, d, 0, false)
}

// errStale tells VerifyAndAdd that a block arrived during verification.
var errStale = fmt.Errorf("mempool: chain moved during verification")

func (mp *Pool) add(t *transaction.Transaction, feer Feer, data any, gen uint64, checkGen bool) error {
	h := t.Hash()
	key := prio{
		high:   t.HasAttribute(transaction.HighPriority),
		fpb:    t.FeePerByte(),
		netFee: t.NetworkFee,
	}
	it := &item{tx: t, blockStamp: feer.BlockHeight(), data: data}

	mp.mu.Lock()
	if checkGen && mp.gen.Load() != gen {
		mp.mu.Unlock()
		return errStale
	}
	if _, ok := mp.byHash[h]; ok {
		mp.mu.Unlock()
		return ErrDup
	}
	replaced, fresh, err := mp.checkTxConflicts(t, feer)
	if err != nil {
		mp.mu.Unlock()
		return err
	}
	if fresh != nil {
		mp.fees[mp.payer(t)] = fresh
	}
	var oracleID uint64
	var isOracle bool
	for i := range t.Attributes {
		if o, ok := t.Attributes[i].Value.(*transaction.OracleResponse); ok {
			oracleID, isOracle = o.ID, true
			break
		}
	}
	if isOracle {
		if old, ok := mp.oracleResp[oracleID]; ok {
			if mp.byHash[old].tx.NetworkFee >= t.NetworkFee {
				mp.mu.Unlock()
				return ErrOracleResponse
			}
			mp.removeLocked(old)
		}
	}
	for _, r := range replaced {
		mp.removeLocked(r.tx.Hash())
	}

	mp.seq++
	key.seq = mp.seq
	it.key = key
	if len(mp.byHash) >= mp.capacity {
		worstKey, worst, _ := mp.order.Max()
		if cmpPrio(key, worstKey) >= 0 {
			mp.mu.Unlock()
			return ErrOOM
		}
		mp.removeItemLocked(worst)
	}
	mp.order.ReplaceOrInsert(key, it)
	mp.byHash[h] = it
	if isOracle {
		mp.oracleResp[oracleID] = h
	}
	for i := range t.Attributes {
		if c, ok := t.Attributes[i].Value.(*transaction.Conflicts); ok {
			mp.conflicts[c.Hash] = append(mp.conflicts[c.Hash], h)
		}
	}
	s := mp.fees[mp.payer(t)]
	var f uint256.Int
	f.SetUint64(txFee(t))
	s.feeSum.Add(&s.feeSum, &f)
	mp.events.push(mempoolevent.Event{Type: mempoolevent.TransactionAdded, Tx: t, Data: data})
	if mp.onCount != nil {
		mp.onCount(len(mp.byHash))
	}
	mp.mu.Unlock()

	if ch := mp.txAdded.Swap(nil); ch != nil {
		close(*ch)
	}
	return nil
}

// Remove drops the transaction if it is pooled.
func (mp *Pool) Remove(h hash.Uint256) {
	mp.mu.Lock()
	mp.removeLocked(h)
	if mp.onCount != nil {
		mp.onCount(len(mp.byHash))
	}
	mp.mu.Unlock()
}

func (mp *Pool) removeLocked(h hash.Uint256) {
	if it, ok := mp.byHash[h]; ok {
		mp.removeItemLocked(it)
	}
}

// removeItemLocked drops it from every index, adjusts its payer's fees and
// queues a removal event.
func (mp *Pool) removeItemLocked(it *item) {
	mp.order.Delete(it.key)
	mp.dropIndexesLocked(it)
	if s, ok := mp.fees[mp.payer(it.tx)]; ok {
		var f uint256.Int
		f.SetUint64(txFee(it.tx))
		s.feeSum.Sub(&s.feeSum, &f)
	}
	mp.removeConflictsOf(it.tx)
}

// dropIndexesLocked removes it from byHash and the oracle index and queues
// its removal event; the B-tree, fees and conflicts are the caller's.
func (mp *Pool) dropIndexesLocked(it *item) {
	h := it.tx.Hash()
	delete(mp.byHash, h)
	for i := range it.tx.Attributes {
		if o, ok := it.tx.Attributes[i].Value.(*transaction.OracleResponse); ok {
			if mp.oracleResp[o.ID] == h {
				delete(mp.oracleResp, o.ID)
			}
			break
		}
	}
	mp.events.push(mempoolevent.Event{Type: mempoolevent.TransactionRemoved, Tx: it.tx, Data: it.data})
}

// removeConflictsOf removes t's hash from the conflict index.
func (mp *Pool) removeConflictsOf(t *transaction.Transaction) {
	h := t.Hash()
	for i := range t.Attributes {
		c, ok := t.Attributes[i].Value.(*transaction.Conflicts)
		if !ok {
			continue
		}
		hs := mp.conflicts[c.Hash]
		for j, x := range hs {
			if x == h {
				hs = append(hs[:j], hs[j+1:]...)
				break
			}
		}
		if len(hs) == 0 {
			delete(mp.conflicts, c.Hash)
		} else {
			mp.conflicts[c.Hash] = hs
		}
	}
}

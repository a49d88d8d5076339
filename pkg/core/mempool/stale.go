package mempool

import (
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/RaduBerinde/btreemap"
	"github.com/holiman/uint256"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// minPerWorker is the smallest share of RemoveStale's work worth a
// goroutine of its own.
const minPerWorker = 64

// RemoveStale is called after every block. It keeps the pooled
// transactions for which isOK returns true (isOK runs on several
// goroutines at once and must not call into the pool) that have not
// expired, still pay the (possibly raised) fee per byte and whose payer
// still covers them in priority order; it drops the rest with removal
// events. The chain's isOK drops transactions included in the block or
// conflicting with it and re-verifies what may have changed.
func (mp *Pool) RemoveStale(isOK func(*transaction.Transaction) bool, feer Feer) {
	mp.mu.Lock()
	defer mp.mu.Unlock()
	mp.gen.Add(1)

	policyChanged := false
	if fpb := feer.FeePerByte(); fpb > mp.feePerByte {
		mp.feePerByte = fpb
		policyChanged = true
	}
	height := feer.BlockHeight()

	// Scratch slices are reused between blocks (the lock is held).
	items := mp.staleItems[:0]
	if cap(items) < len(mp.byHash) {
		items = make([]*item, 0, len(mp.byHash))
	}
	for _, it := range mp.order.Ascend(btreemap.Min[prio](), btreemap.Max[prio]()) {
		items = append(items, it)
	}
	ok := slices.Grow(mp.staleOK[:0], len(items))[:len(items)]
	defer func() {
		clear(items)
		mp.staleItems, mp.staleOK = items[:0], ok[:0]
	}()

	// Phase 1, parallel: the chain's verdict.
	parallel(len(items), mp.workers, func(i int) {
		t := items[i].tx
		ok[i] = t.ValidUntilBlock > height &&
			(!policyChanged || t.FeePerByte() >= mp.feePerByte) &&
			isOK(t)
	})

	// Phase 2, parallel: the balances of the payers that remain.
	clear(mp.fees)
	var payers []hash.Uint160
	for i, it := range items {
		if !ok[i] {
			continue
		}
		p := mp.payer(it.tx)
		if _, seen := mp.fees[p]; !seen {
			mp.fees[p] = &senderFees{}
			payers = append(payers, p)
		}
	}
	balances := make([]uint256.Int, len(payers))
	parallel(len(payers), mp.workers, func(i int) {
		balances[i] = balanceOf(feer, payers[i])
	})
	for i, p := range payers {
		mp.fees[p].balance = balances[i]
	}

	// Phase 3, in priority order: fees, conflicts, removals.
	clear(mp.conflicts)
	var resend []*item
	for i, it := range items {
		if ok[i] {
			s := mp.fees[mp.payer(it.tx)]
			if sum, err := checkBalance(it.tx, s); err == nil {
				s.feeSum = sum
			} else {
				ok[i] = false
			}
		}
		if !ok[i] {
			mp.order.Delete(it.key)
			mp.dropIndexesLocked(it)
			continue
		}
		h := it.tx.Hash()
		for j := range it.tx.Attributes {
			if c, isC := it.tx.Attributes[j].Value.(*transaction.Conflicts); isC {
				mp.conflicts[c.Hash] = append(mp.conflicts[c.Hash], h)
			}
		}
		if mp.resendThreshold != 0 && mp.resendFunc != nil {
			// Resent after threshold, 2*threshold, 4*threshold... blocks.
			diff := height - it.blockStamp
			if diff%mp.resendThreshold == 0 && bits.OnesCount32(diff/mp.resendThreshold) == 1 {
				resend = append(resend, it)
			}
		}
	}
	// Payers whose transactions all went have zero sums; drop them so
	// that their balance is read afresh next time.
	for p, s := range mp.fees {
		if s.feeSum.IsZero() {
			delete(mp.fees, p)
		}
	}
	if len(resend) != 0 {
		f := mp.resendFunc
		go func() {
			for _, it := range resend {
				f(it.tx, it.data)
			}
		}()
	}
	if mp.onCount != nil {
		mp.onCount(len(mp.byHash))
	}
}

// parallel calls fn(i) for i in [0, n) on up to workers goroutines,
// handing out chunks so that slow calls do not leave a worker idle.
func parallel(n, workers int, fn func(i int)) {
	if w := n / minPerWorker; w < workers {
		workers = w
	}
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	chunk := n / (workers * 8)
	if chunk < 16 {
		chunk = 16
	}
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				hi := min(lo+chunk, n)
				for i := lo; i < hi; i++ {
					fn(i)
				}
			}
		})
	}
	wg.Wait()
}

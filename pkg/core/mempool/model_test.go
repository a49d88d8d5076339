package mempool

import (
	"math/rand/v2"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// TestRandomOperations runs seeded random sequences of adds (with
// conflicts, oracle responses, high priority, varied payers and
// balances), removals and block processing, checking the pool's
// invariants after every step: indexes agree, fee sums match the pooled
// transactions, no payer is over its balance, the Conflicts index is
// exact, the order is best first and the capacity holds.
func TestRandomOperations(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		mp := New(1+r.IntN(40), Options{Workers: 1 + r.IntN(3)})
		f := rich()
		payers := []hash.Uint160{accA, accB, accC}
		for _, p := range payers {
			f.set(p, int64(r.IntN(2000)))
		}
		var seen []*transaction.Transaction
		for step := range 300 {
			switch op := r.IntN(10); {
			case op < 7:
				tx := newTx(uint32(step), int64(r.IntN(100)), int64(r.IntN(300)), payers[r.IntN(3)])
				var attrs []transaction.Attribute
				if r.IntN(8) == 0 {
					attrs = append(attrs, transaction.Attribute{Type: transaction.HighPriority})
				}
				if len(seen) > 0 && r.IntN(4) == 0 {
					attrs = append(attrs, conflictsWith(seen[r.IntN(len(seen))].Hash()))
				}
				if r.IntN(10) == 0 {
					attrs = append(attrs, transaction.Attribute{Type: transaction.OracleResponseT,
						Value: &transaction.OracleResponse{ID: uint64(r.IntN(3)), Code: transaction.Success}})
				}
				if len(attrs) > 0 {
					tx = withAttrs(tx, attrs...)
				}
				seen = append(seen, tx)
				_ = mp.Add(tx, f)
			case op < 8 && len(seen) > 0:
				mp.Remove(seen[r.IntN(len(seen))].Hash())
			default:
				f.height++
				for _, p := range payers {
					f.set(p, int64(r.IntN(2000)))
				}
				drop := r.Uint64()
				mp.RemoveStale(func(tx *transaction.Transaction) bool { return (tx.Hash()[0]^byte(drop))%5 != 0 }, f)
			}
			check(t, mp)
			checkBalances(t, mp, f)
			checkOrder(t, mp)
		}
	}
}

func checkBalances(t *testing.T, mp *Pool, f *feer) {
	t.Helper()
	sums := map[hash.Uint160]int64{}
	for _, tx := range mp.GetVerifiedTransactions() {
		sums[tx.Sender()] += tx.SystemFee + tx.NetworkFee
	}
	mp.mu.RLock()
	defer mp.mu.RUnlock()
	for p, s := range sums {
		// The cached balance is what the pool checked against.
		if b := mp.fees[p].balance.Uint64(); uint64(s) > b {
			t.Fatalf("payer %s pays %d with %d", p.StringLE(), s, b)
		}
	}
}

func checkOrder(t *testing.T, mp *Pool) {
	t.Helper()
	txs := mp.GetVerifiedTransactions()
	for i := 1; i < len(txs); i++ {
		a, b := txs[i-1], txs[i]
		ha, hb := a.HasAttribute(transaction.HighPriority), b.HasAttribute(transaction.HighPriority)
		if hb && !ha || ha == hb && (a.FeePerByte() < b.FeePerByte() ||
			a.FeePerByte() == b.FeePerByte() && a.NetworkFee < b.NetworkFee) {
			t.Fatalf("order broken at %d", i)
		}
	}
}

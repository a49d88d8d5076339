package mempool

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// benchTxs returns n hashed transactions from 1000 payers; with varied
// fees their network fees are spread (seeded), otherwise all equal.
func benchTxs(n int, varied bool, base int64) []*transaction.Transaction {
	r := rand.New(rand.NewPCG(1, uint64(base)))
	txs := make([]*transaction.Transaction, n)
	for i := range txs {
		net := base
		if varied {
			net += r.Int64N(100000)
		}
		payer := hash.Uint160{byte(i), byte(i >> 8 & 3)}
		txs[i] = newTx(uint32(i)+uint32(base), 100, net, payer)
	}
	return txs
}

func fill(b *testing.B, mp *Pool, f Feer, txs []*transaction.Transaction) {
	for _, tx := range txs {
		if err := mp.Add(tx, f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdd50k adds 50,000 transactions to an empty pool of that
// capacity, and to a full one where each evicts the worst.
func BenchmarkAdd50k(b *testing.B) {
	const n = 50000
	f := rich()
	for _, c := range []struct {
		name   string
		varied bool
		full   bool
	}{
		{"empty/same-fee", false, false},
		{"empty/varied-fee", true, false},
		{"full/same-fee", false, true},
		{"full/varied-fee", true, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			txs := benchTxs(n, c.varied, 1000000)
			var old []*transaction.Transaction
			if c.full {
				old = benchTxs(n, c.varied, 1000)
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				mp := New(n, Options{})
				fill(b, mp, f, old)
				b.StartTimer()
				fill(b, mp, f, txs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tx")
		})
	}
}

// BenchmarkRemoveStale drops a block's 10,000 transactions from a pool of
// 50,000 and keeps the other 40,000 (isOK is a map lookup, as the chain's
// is for standard witnesses).
func BenchmarkRemoveStale(b *testing.B) {
	const n, block = 50000, 10000
	f := rich()
	txs := benchTxs(n, true, 1000)
	inBlock := make(map[hash.Uint256]bool, block)
	for _, tx := range txs[:block] {
		inBlock[tx.Hash()] = true
	}
	isOK := func(t *transaction.Transaction) bool { return !inBlock[t.Hash()] }
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[w], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				mp := New(n, Options{Workers: w})
				fill(b, mp, f, txs)
				b.StartTimer()
				mp.RemoveStale(isOK, f)
				if mp.Count() != n-block {
					b.Fatal(mp.Count())
				}
			}
		})
	}
}

// BenchmarkVerifyAndAddParallel adds 50,000 transactions from 10
// goroutines through VerifyAndAdd with a no-op verifier: the pool's own
// cost under contention.
func BenchmarkVerifyAndAddParallel(b *testing.B) {
	const n, goroutines = 50000, 10
	f := rich()
	txs := benchTxs(n, true, 1000)
	ok := func(*transaction.Transaction) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		mp := New(n, Options{})
		b.StartTimer()
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := g; i < n; i += goroutines {
					if err := mp.VerifyAndAdd(txs[i], f, ok, nil); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tx")
}

// BenchmarkGetVerifiedTransactions lists a pool of 50,000.
func BenchmarkGetVerifiedTransactions(b *testing.B) {
	const n = 50000
	mp := New(n, Options{})
	f := rich()
	fill(b, mp, f, benchTxs(n, true, 1000))
	b.ReportAllocs()
	for b.Loop() {
		_ = mp.GetVerifiedTransactions()
	}
}

package consensus

import (
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// BenchmarkCluster measures the CPU cost of agreeing on one block in a
// 4-validator network run in one goroutine on the fake clock: every
// payload signed, sent to three peers, checked and processed, and the
// block assembled and checked by four fake chains.
func BenchmarkCluster(b *testing.B) {
	for _, ntx := range []int{0, 500} {
		b.Run(map[int]string{0: "4val/empty", 500: "4val/500tx"}[ntx], func(b *testing.B) {
			t := &testing.T{}
			c := newCluster(t, 4, testConfig(4))
			c.t = t
			var nonce uint32
			refill := func() {
				var txs []*transaction.Transaction
				for range ntx {
					nonce++
					txs = append(txs, newTx(nonce, 1, 250))
				}
				for _, nd := range c.nodes {
					nd.pool.Add(txs...)
				}
			}
			refill()
			c.start()
			b.ReportAllocs()
			for b.Loop() {
				h := c.height()
				c.runUntil(time.Hour, func() bool { return c.height() > h })
				b.StopTimer()
				refill()
				b.StartTimer()
			}
		})
	}
}

func BenchmarkSelectTransactions(b *testing.B) {
	txs := make([]*transaction.Transaction, 50000)
	for i := range txs {
		txs[i] = newTx(uint32(i), 1000, 250)
	}
	ks := testKeys(b, 7)
	script, _ := smartcontract.CreateDefaultMultiSigRedeemScript(pubsOf(ks))
	l := blockLimits{512, 262144, 150_000_000_000, witnessSize(5, script), 0}
	b.ReportAllocs()
	for b.Loop() {
		if n := len(selectTransactions(txs, l)); n != 512 {
			b.Fatal(n)
		}
	}
}

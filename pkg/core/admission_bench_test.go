package core_test

import (
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// BenchmarkAdmitTx is the admission path of one transaction from its wire
// bytes: decode, hash, every chain check (policy, fees, the already-on-
// chain lookup, the witness) and the pool's (PoolTx). Each iteration
// admits a distinct transaction from one of 8 senders; allocations per
// transaction are what docs/perf.md reports.
func BenchmarkAdmitTx(b *testing.B) {
	c := testchain.New(b)
	senders := make([]*keys.PrivateKey, 8)
	for i := range senders {
		senders[i] = newKey(b, byte(10+i))
		c.BC.SeedGASForTest(senders[i].PublicKey().ScriptHash(), 1_000_000_0000_0000)
	}
	c.AddBlock()
	var raws [][]byte
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i == len(raws) {
			// Sign the next transactions with the timer (and the
			// allocation count) stopped.
			b.StopTimer()
			raws = raws[:0]
			for j := range 256 {
				k := senders[j%len(senders)]
				raws = append(raws, c.Sign(c.TxBy(simpleScript, k), k).Bytes())
			}
			i = 0
			b.StartTimer()
		}
		tx, err := transaction.NewTransactionFromBytes(raws[i])
		if err != nil {
			b.Fatal(err)
		}
		if err := c.BC.PoolTx(tx); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

package core_test

import (
	"encoding/base64"
	"flag"
	"log/slog"
	"runtime"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

var loadTxs = flag.Int("load.txs", 2000, "NEO self-transfers per block in BenchmarkTransferLoad")

// BenchmarkTransferLoad is the benchmark load of docs/perf.md in one
// process: each iteration takes loadTxs NEO self-transfers by one sender
// (as n3node bench and neo-bench send them) as sendrawtransaction gets them (base64), decodes each into one buffer,
// pools it (every check and the signature), then builds the block of the
// pool and adds it (execution, records, transfer logs, the state trie and
// the store: Pebble under the node's default options, or the memory store,
// whose figures do not vary with Pebble's background work). It reports bytes
// and allocations per transaction (B/tx, allocs/tx: every goroutine, the
// persister and Pebble's included) and the Go heap in use after each
// block, at most (heap-MB). Signing happens with the timer stopped.
func BenchmarkTransferLoad(b *testing.B) {
	b.Run("pebble", func(b *testing.B) {
		st, err := storage.OpenPebble(b.TempDir(), false, storage.PebbleOptions{}, slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		transferLoad(b, st)
	})
	b.Run("memory", func(b *testing.B) { transferLoad(b, storage.NewMemoryStore()) })
}

func transferLoad(b *testing.B, st storage.Store) {
	c := testchain.New(b, testchain.Options{Store: st})
	senders := make([]*keys.PrivateKey, 1)
	var fund []byte
	for i := range senders {
		senders[i] = newKey(b, byte(40+i))
		acc := senders[i].PublicKey().ScriptHash()
		c.BC.SeedGASForTest(acc, 1_000_000_0000_0000)
		fund = append(fund, bench.TransferScript(nativenames.NeoHash, c.Account(), acc, 1_000_000)...)
	}
	c.RunCommittee(fund, 100_0000_0000)

	n := *loadTxs
	encoded := make([]string, n)
	var (
		ms             runtime.MemStats
		alloc, mallocs uint64
		peak           uint64
	)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		for j := range n {
			k := senders[j%len(senders)]
			acc := k.PublicKey().ScriptHash()
			tx := c.NewTx(bench.TransferScript(nativenames.NeoHash, acc, acc, 1), 1_0000_0000, 1000_0000,
				transaction.Signer{Account: acc, Scopes: transaction.CalledByEntry})
			encoded[j] = base64.StdEncoding.EncodeToString(c.Sign(tx, k).Bytes())
		}
		runtime.ReadMemStats(&ms)
		alloc0, mallocs0 := ms.TotalAlloc, ms.Mallocs
		b.StartTimer()

		for _, e := range encoded {
			raw, err := base64.StdEncoding.DecodeString(e)
			if err != nil {
				b.Fatal(err)
			}
			tx, err := transaction.NewTransactionFromOwnedBytes(raw)
			if err != nil {
				b.Fatal(err)
			}
			if err := c.BC.PoolTx(tx); err != nil {
				b.Fatal(err)
			}
		}
		if blk := c.AddPooled(); len(blk.Transactions) != n {
			b.Fatalf("block has %d transactions, want %d", len(blk.Transactions), n)
		}

		b.StopTimer()
		runtime.ReadMemStats(&ms)
		alloc += ms.TotalAlloc - alloc0
		mallocs += ms.Mallocs - mallocs0
		peak = max(peak, ms.HeapInuse)
		b.StartTimer()
	}
	txs := float64(b.N * n)
	b.ReportMetric(float64(alloc)/txs, "B/tx")
	b.ReportMetric(float64(mallocs)/txs, "allocs/tx")
	b.ReportMetric(float64(peak)/1e6, "heap-MB")
}

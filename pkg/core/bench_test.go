package core_test

import (
	"context"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
)

// BenchmarkImport imports 50 blocks (about 5 transactions each: storage
// writes, reads, Ledger calls, transfers) into a new in-memory chain per
// iteration, pipelined (AddBlocks) and one by one (AddBlock).
func BenchmarkImport(b *testing.B) {
	gen := testchain.New(b)
	blocks, _ := genBlocks(gen, mustHeader(b, gen.BC, 0), 50)
	committee := gen.Account()
	for _, mode := range []string{"AddBlocks", "AddBlock"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				c := testchain.New(b)
				c.BC.SeedGASForTest(committee, 1_000_000_0000_0000)
				b.StartTimer()
				if mode == "AddBlocks" {
					if err := c.BC.AddBlocks(context.Background(), streamBlocks(blocks)); err != nil {
						b.Fatal(err)
					}
				} else {
					for _, blk := range blocks {
						if err := c.BC.AddBlock(blk); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StopTimer()
				_ = c.BC.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(blocks)), "µs/block")
		})
	}
}

// BenchmarkVerifyTx verifies a signed single-signature transaction
// against the current state (VerifyTx: every check and a private pool).
func BenchmarkVerifyTx(b *testing.B) {
	c := testchain.New(b)
	a := newKey(b, 1)
	c.BC.SeedGASForTest(a.PublicKey().ScriptHash(), 100_0000_0000)
	c.AddBlock()
	tx := c.Sign(c.TxBy(simpleScript, a), a)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.BC.VerifyTx(tx); err != nil {
			b.Fatal(err)
		}
	}
}

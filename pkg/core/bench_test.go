package core_test

import (
	"context"
	"testing"
)

// BenchmarkImport imports 50 blocks (about 5 transactions each: storage
// writes, reads, Ledger calls, transfers) into a new in-memory chain per
// iteration, pipelined (AddBlocks) and one by one (AddBlock).
func BenchmarkImport(b *testing.B) {
	gen := newTestChain(b)
	blocks, _ := gen.genBlocks(mustHeader(b, gen.bc, 0), 50)
	committee := gen.validatorAccount()
	for _, mode := range []string{"AddBlocks", "AddBlock"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				c := newTestChain(b)
				c.bc.SeedGASForTest(committee, 1_000_000_0000_0000)
				b.StartTimer()
				if mode == "AddBlocks" {
					if err := c.bc.AddBlocks(context.Background(), streamBlocks(blocks)); err != nil {
						b.Fatal(err)
					}
				} else {
					for _, blk := range blocks {
						if err := c.bc.AddBlock(blk); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StopTimer()
				_ = c.bc.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(blocks)), "µs/block")
		})
	}
}

// BenchmarkVerifyTx verifies a signed single-signature transaction
// against the current state (VerifyTx: every check and a private pool).
func BenchmarkVerifyTx(b *testing.B) {
	c := newTestChain(b)
	a := newKey(b, 1)
	c.bc.SeedGASForTest(a.PublicKey().ScriptHash(), 100_0000_0000)
	c.addBlock()
	tx := c.sign(c.newTx(simpleScript, a), a)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.bc.VerifyTx(tx); err != nil {
			b.Fatal(err)
		}
	}
}

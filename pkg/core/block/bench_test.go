package block_test

import (
	"encoding/base64"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	nio "github.com/n3node/n3node/pkg/io"
)

// benchTxB64 is the MainNet transfer transaction of the transaction
// benchmarks.
const benchTxB64 = "AK9KzFu0P5gAAAAAAIjOEgAAAAAA7jAAAAGIDdjSt7aj2J+dktSobkC9j0/CJwEAWwsCAMLrCwwUtXfkIuockX9HAVMNeEuQMxMlYkMMFIgN2NK3tqPYn52S1KhuQL2PT8InFMAfDAh0cmFuc2ZlcgwUz3bii9AGLEpHjuNVYQETGfPPpNJBYn1bUjkBQgxAUiZNae4OTSu2EOGW+6fwslLIpVsczOAR9o6R796tFf2KG+nLzs709tCQ7NELZOQ7zUzfF19ADLvH/efNT4v9LygMIQNT96/wFdPSBO7NUI9Kpn9EffTRXsS6ZJ9PqRvbenijVEFW57Mn"

// benchBlock builds a block of n copies of the transfer with distinct
// nonces and a BFT-sized witness, as a full MainNet block would look.
func benchBlock(b *testing.B, n int) []byte {
	raw, err := base64.StdEncoding.DecodeString(benchTxB64)
	if err != nil {
		b.Fatal(err)
	}
	blk := &block.Block{Header: block.Header{Index: 1, Timestamp: 1, Witness: transaction.Witness{
		InvocationScript: make([]byte, 5*66), VerificationScript: make([]byte, 7*35+8),
	}}}
	for i := range n {
		tx, err := transaction.NewTransactionFromBytes(raw)
		if err != nil {
			b.Fatal(err)
		}
		cp := tx.Copy()
		cp.Nonce = uint32(i)
		blk.Transactions = append(blk.Transactions, cp)
	}
	blk.RebuildMerkleRoot()
	return blk.Bytes()
}

func BenchmarkBlockDecode(b *testing.B) {
	for _, n := range []int{0, 1, 100, 500} {
		raw := benchBlock(b, n)
		b.Run(itoa(n)+"tx", func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := block.NewBlockFromBytes(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkBlockDecodeBinary(b *testing.B) {
	raw := benchBlock(b, 100)
	b.ReportAllocs()
	for b.Loop() {
		var blk block.Block
		r := nio.NewBinReaderFromBuf(raw)
		blk.DecodeBinary(r)
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}

func BenchmarkBlockEncode(b *testing.B) {
	blk, err := block.NewBlockFromBytes(benchBlock(b, 100))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = blk.Bytes()
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

package refchain

import (
	"errors"
	"testing"
)

// FuzzReadChainAcc: the dump reader returns an error, never panics, and
// every block it returns lies inside the input.
func FuzzReadChainAcc(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, blocks, err := ReadChainAcc(data)
		if err != nil {
			if !errors.Is(err, ErrChainAcc) {
				t.Fatalf("error %v does not wrap ErrChainAcc", err)
			}
			return
		}
		total := 0
		for _, b := range blocks {
			total += len(b) + 4
		}
		if total > len(data) {
			t.Fatalf("blocks span %d bytes of %d", total, len(data))
		}
	})
}

// FuzzDecodeBlock: the block decoder returns an error, never panics, and the
// transactions it returns lie inside the block.
func FuzzDecodeBlock(f *testing.F) {
	f.Add(make([]byte, HeaderUnsignedSize))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := DecodeBlock(data)
		if err != nil {
			if !errors.Is(err, ErrBlock) {
				t.Fatalf("error %v does not wrap ErrBlock", err)
			}
			return
		}
		n := HeaderUnsignedSize
		for _, tx := range b.Transactions {
			n += len(tx.Raw)
		}
		if n > len(data) {
			t.Fatalf("transactions span %d bytes of %d", n, len(data))
		}
	})
}

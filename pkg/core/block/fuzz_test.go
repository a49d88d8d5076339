package block_test

import (
	"bytes"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	nio "github.com/n3node/n3node/pkg/io"
)

func blockSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	var v struct {
		Vectors []vector `json:"vectors"`
	}
	loadJSON(f, "transactions_blocks.json", &v)
	for _, x := range v.Vectors {
		if x.Kind == "block" || x.Kind == "header" {
			seeds = append(seeds, unhex(f, x.RawHex))
		}
	}
	var ng neogoVectors
	loadJSON(f, "neogo/json_vectors.json", &ng)
	for i, b := range ng.Blocks {
		if i%8 == 0 {
			seeds = append(seeds, unhex(f, b.RawHex))
		}
	}
	return seeds
}

// FuzzBlock: decoding never panics and a decoded block re-encodes to a
// fixed point (to the input itself when the input was canonical).
func FuzzBlock(f *testing.F) {
	for _, s := range blockSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		blk, err := block.NewBlockFromBytes(b)
		if err != nil {
			return
		}
		enc := blk.Bytes()
		if enc == nil || len(enc) != blk.Size() {
			t.Fatalf("encoding of %d bytes, size %d", len(enc), blk.Size())
		}
		if len(enc) == len(b) && !bytes.Equal(enc, b) {
			t.Fatal("re-encoding differs")
		}
		blk2, err := block.NewBlockFromBytes(enc)
		if err != nil || blk2.Hash() != blk.Hash() || !bytes.Equal(blk2.Bytes(), enc) {
			t.Fatalf("re-encoding is not a fixed point: %v", err)
		}
		if _, err := blk.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzHeader covers header decoding through io.Decodable.
func FuzzHeader(f *testing.F) {
	for _, s := range blockSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var h block.Header
		r := nio.NewBinReaderFromBuf(b)
		h.DecodeBinary(r)
		if r.Err != nil {
			return
		}
		w := nio.NewBufBinWriter()
		h.EncodeBinary(w)
		used := b[:r.Offset()]
		if w.Len() != h.Size() || (len(used) == w.Len() && !bytes.Equal(used, w.Bytes())) {
			t.Fatal("re-encoding differs")
		}
		js, err := h.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back block.Header
		if err := back.UnmarshalJSON(js); err != nil || back.Hash() != h.Hash() {
			t.Fatalf("JSON round trip: %v", err)
		}
	})
}

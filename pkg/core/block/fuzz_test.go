package block_test

import (
	"bytes"
	"encoding/json"
	"os"
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
	var sr struct {
		Raw string `json:"raw"`
	}
	data, err := os.ReadFile("testdata/stateroot_header.json")
	if err != nil {
		f.Fatal(err)
	}
	if err := json.Unmarshal(data, &sr); err != nil {
		f.Fatal(err)
	}
	return append(seeds, unhex(f, sr.Raw))
}

// FuzzBlock: decoding never panics and a decoded block re-encodes to a
// fixed point (to the input itself when the input was canonical).
func FuzzBlock(f *testing.F) {
	for _, s := range blockSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzBlock(t, b, false)
		fuzzBlock(t, b, true)
	})
}

// fuzzBlock checks b in one of the two header formats.
func fuzzBlock(t *testing.T, b []byte, stateRoot bool) {
	{
		blk, err := block.DecodeOwnedBlock(append([]byte(nil), b...), stateRoot)
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
		blk2, err := block.DecodeOwnedBlock(enc, stateRoot)
		if err != nil || blk2.Hash() != blk.Hash() || !bytes.Equal(blk2.Bytes(), enc) {
			t.Fatalf("re-encoding is not a fixed point: %v", err)
		}
		if _, err := blk.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzHeader covers header decoding through io.Decodable.
func FuzzHeader(f *testing.F) {
	for _, s := range blockSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzHeader(t, b, false)
		fuzzHeader(t, b, true)
	})
}

// fuzzHeader checks b in one of the two header formats.
func fuzzHeader(t *testing.T, b []byte, stateRoot bool) {
	{
		h := block.Header{StateRootEnabled: stateRoot}
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
		back := block.Header{StateRootEnabled: stateRoot}
		if err := back.UnmarshalJSON(js); err != nil || back.Hash() != h.Hash() {
			t.Fatalf("JSON round trip: %v", err)
		}
	}
}

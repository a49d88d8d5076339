package block_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// TestStateRootHeaderVector decodes a block of a StateRootInHeader network
// encoded by neo-go v0.120.0 (testdata/stateroot_header.json, written by
// internal/neogodiff/core/block) and re-encodes it: binary, hash and JSON
// are neo-go's.
func TestStateRootHeaderVector(t *testing.T) {
	data, err := os.ReadFile("testdata/stateroot_header.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Raw  string          `json:"raw"`
		Hash string          `json:"hash"`
		JSON json.RawMessage `json:"json"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	raw, err := hex.DecodeString(v.Raw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := block.DecodeOwnedBlock(append([]byte(nil), raw...), true)
	if err != nil {
		t.Fatal(err)
	}
	if b.Hash().StringLE() != v.Hash || !b.StateRootEnabled || b.PrevStateRoot.IsZero() {
		t.Fatalf("hash %s, root %s", b.Hash().StringLE(), b.PrevStateRoot.StringLE())
	}
	if got := hex.EncodeToString(b.Bytes()); got != v.Raw || b.Size() != len(raw) {
		t.Fatalf("re-encoded %s (size %d)", got, b.Size())
	}
	js, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var want, got any
	_ = json.Unmarshal(v.JSON, &want)
	_ = json.Unmarshal(js, &got)
	wj, _ := json.Marshal(want)
	gj, _ := json.Marshal(got)
	if string(wj) != string(gj) {
		t.Fatalf("JSON\n%s\nwant\n%s", js, v.JSON)
	}

	// DecodeBinary with the flag set first, and the JSON form back.
	b2 := block.Block{Header: block.Header{StateRootEnabled: true}}
	if err := nio.FromBytes(raw, &b2); err != nil || b2.Hash() != b.Hash() {
		t.Fatalf("DecodeBinary: %v", err)
	}
	b3 := block.Block{Header: block.Header{StateRootEnabled: true}}
	if err := json.Unmarshal(v.JSON, &b3); err != nil || b3.Hash() != b.Hash() || b3.PrevStateRoot != b.PrevStateRoot {
		t.Fatalf("UnmarshalJSON: %v", err)
	}

	// Read in the plain format, the same bytes are another block (or
	// none): the format is the network's, not the data's.
	if p, err := block.NewBlockFromBytes(raw); err == nil && p.Hash() == b.Hash() {
		t.Fatal("plain decoding gives the same block")
	}
	// A plain header has no previousstateroot, which a StateRootInHeader
	// network requires in JSON.
	plain := block.Block{Header: block.Header{Index: 1, Witness: b.Witness}}
	pj, _ := json.Marshal(&plain)
	b4 := block.Block{Header: block.Header{StateRootEnabled: true}}
	if err := json.Unmarshal(pj, &b4); !errors.Is(err, block.ErrNoStateRoot) {
		t.Fatalf("JSON without previousstateroot: %v", err)
	}
}

// TestStateRootHeaderHash: the previous state root is part of the hashed
// fields.
func TestStateRootHeaderHash(t *testing.T) {
	h1 := block.Header{Index: 5, StateRootEnabled: true, PrevStateRoot: hash.Uint256{1}}
	h2 := block.Header{Index: 5, StateRootEnabled: true, PrevStateRoot: hash.Uint256{2}}
	h3 := block.Header{Index: 5}
	if h1.Hash() == h2.Hash() || h1.Hash() == h3.Hash() {
		t.Fatal("previous state root not hashed")
	}
	if len(h1.EncodeHashableFields()) != block.MaxUnsignedHeaderSize || len(h3.EncodeHashableFields()) != block.UnsignedHeaderSize {
		t.Fatal("unsigned sizes")
	}
}

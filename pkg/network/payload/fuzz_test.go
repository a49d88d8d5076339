package payload_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/internal/fuzzutil"
	"github.com/n3node/n3node/pkg/network/payload"
)

// corpus lists the seeds of every fuzz target; TestWriteCorpus writes them
// to testdata/fuzz (N3NODE_WRITE_CORPUS=1) so plain `go test` runs them.
func corpus(t testing.TB) map[string][][]byte {
	m := func(bs ...[]byte) [][]byte {
		var out [][]byte
		for _, b := range bs {
			out = append(out, fuzzutil.Mutations(b)...)
		}
		return out
	}
	e := sampleExtensible()
	e.Data = nil
	return map[string][][]byte{
		"FuzzVersion":          m(encode(t, sampleVersion()), encode(t, &payload.Version{})),
		"FuzzAddressList":      m(encode(t, sampleAddrs())),
		"FuzzInventory":        m(encode(t, &payload.Inventory{Type: payload.TXType, Hashes: hashes(3)}), []byte{0x2c, 0}),
		"FuzzMPTInventory":     m(encode(t, &payload.MPTInventory{Hashes: hashes(2)})),
		"FuzzMPTData":          m(encode(t, &payload.MPTData{Nodes: [][]byte{{1, 2}, {}}})),
		"FuzzGetBlocks":        m(encode(t, &payload.GetBlocks{HashStart: hash.Sha256(nil), Count: -1})),
		"FuzzGetBlockByIndex":  m(encode(t, &payload.GetBlockByIndex{IndexStart: 7, Count: 500})),
		"FuzzHeaders":          m(encode(t, sampleHeaders(2))),
		"FuzzPing":             m(encode(t, &payload.Ping{LastBlockIndex: 1, Timestamp: 2, Nonce: 3})),
		"FuzzExtensible":       m(encode(t, sampleExtensible()), encode(t, e)),
		"FuzzMerkleBlock":      m(encode(t, sampleMerkleBlock())),
		"FuzzFilterLoad":       m(encode(t, &payload.FilterLoad{Filter: []byte{1, 2, 3}, K: 3, Tweak: 4})),
		"FuzzFilterAdd":        m(encode(t, &payload.FilterAdd{Data: []byte{1, 2, 3}})),
		"FuzzP2PNotaryRequest": m(encode(t, sampleNotary(t))),
	}
}

func TestWriteCorpus(t *testing.T) {
	for name, seeds := range corpus(t) {
		fuzzutil.WriteCorpus(t, name, seeds)
	}
}

// TestSeedsDecode makes sure the first seed of every target is a valid
// value, so each fuzz target starts from at least one success.
func TestSeedsDecode(t *testing.T) {
	c := corpus(t)
	checks := map[string]func([]byte) bool{
		"FuzzVersion":          func(b []byte) bool { return fuzzutil.RoundTrip[payload.Version](t, b) },
		"FuzzAddressList":      func(b []byte) bool { return fuzzutil.RoundTrip[payload.AddressList](t, b) },
		"FuzzInventory":        func(b []byte) bool { return fuzzutil.RoundTrip[payload.Inventory](t, b) },
		"FuzzMPTInventory":     func(b []byte) bool { return fuzzutil.RoundTrip[payload.MPTInventory](t, b) },
		"FuzzMPTData":          func(b []byte) bool { return fuzzutil.RoundTrip[payload.MPTData](t, b) },
		"FuzzGetBlocks":        func(b []byte) bool { return fuzzutil.RoundTrip[payload.GetBlocks](t, b) },
		"FuzzGetBlockByIndex":  func(b []byte) bool { return fuzzutil.RoundTrip[payload.GetBlockByIndex](t, b) },
		"FuzzHeaders":          func(b []byte) bool { return fuzzutil.RoundTrip[payload.Headers](t, b) },
		"FuzzPing":             func(b []byte) bool { return fuzzutil.RoundTrip[payload.Ping](t, b) },
		"FuzzExtensible":       func(b []byte) bool { return fuzzutil.RoundTrip[payload.Extensible](t, b) },
		"FuzzMerkleBlock":      func(b []byte) bool { return fuzzutil.RoundTrip[payload.MerkleBlock](t, b) },
		"FuzzFilterLoad":       func(b []byte) bool { return fuzzutil.RoundTrip[payload.FilterLoad](t, b) },
		"FuzzFilterAdd":        func(b []byte) bool { return fuzzutil.RoundTrip[payload.FilterAdd](t, b) },
		"FuzzP2PNotaryRequest": func(b []byte) bool { return fuzzutil.RoundTrip[payload.P2PNotaryRequest](t, b) },
	}
	if len(checks) != len(c) {
		t.Fatalf("%d checks for %d targets", len(checks), len(c))
	}
	for name, seeds := range c {
		if !checks[name](seeds[0]) {
			t.Errorf("%s: first seed does not decode", name)
		}
	}
}

func FuzzVersion(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.Version](t, b) })
}

func FuzzAddressList(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.AddressList](t, b) })
}

func FuzzInventory(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.Inventory](t, b) })
}

func FuzzMPTInventory(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.MPTInventory](t, b) })
}

func FuzzMPTData(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.MPTData](t, b) })
}

func FuzzGetBlocks(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.GetBlocks](t, b) })
}

func FuzzGetBlockByIndex(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.GetBlockByIndex](t, b) })
}

func FuzzHeaders(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.Headers](t, b) })
}

func FuzzPing(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.Ping](t, b) })
}

func FuzzExtensible(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.Extensible](t, b) })
}

func FuzzMerkleBlock(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.MerkleBlock](t, b) })
}

func FuzzFilterLoad(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.FilterLoad](t, b) })
}

func FuzzFilterAdd(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.FilterAdd](t, b) })
}

func FuzzP2PNotaryRequest(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzutil.RoundTrip[payload.P2PNotaryRequest](t, b) })
}

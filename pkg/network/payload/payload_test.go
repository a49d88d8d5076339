package payload_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/internal/fuzzutil"
	"github.com/n3node/n3node/pkg/network/payload"
)

func TestVersion(t *testing.T) {
	v := sampleVersion()
	b := encode(t, v)
	want := "4e454f33" + "00000000" + "00f15365" + "efbeadde" + "0e2f6e336e6f64653a302e312e302f" + "03" + "015d28" + "102a000000" + "1100"
	if got := hexs(b); got != want {
		t.Fatalf("encoding\n got %s\nwant %s", got, want)
	}
	if !fuzzutil.RoundTrip[payload.Version](t, b) {
		t.Fatal("does not decode")
	}
	var got payload.Version
	mustDecode(t, b, &got)
	if h, ok := got.StartHeight(); !ok || h != 42 || got.UserAgent != v.UserAgent || got.Capabilities.TCPPort() != 10333 {
		t.Fatalf("decoded %+v", got)
	}
}

func TestVersionErrors(t *testing.T) {
	v := sampleVersion()
	v.UserAgent = string(bytes.Repeat([]byte{'a'}, payload.MaxUserAgentLength+1))
	expectErr(t, encode(t, v), new(payload.Version), nio.ErrTooLarge)
	v.UserAgent = "\xff"
	expectErr(t, encode(t, v), new(payload.Version), nio.ErrInvalidUTF8)
	v = sampleVersion()
	v.Capabilities = append(v.Capabilities, capability.NewTCPServer(1))
	expectErr(t, encode(t, v), new(payload.Version), capability.ErrDuplicate)
}

func TestAddressList(t *testing.T) {
	l := sampleAddrs()
	b := encode(t, l)
	if !fuzzutil.RoundTrip[payload.AddressList](t, b) {
		t.Fatal("does not decode")
	}
	var got payload.AddressList
	mustDecode(t, b, &got)
	if a, ok := got.Addrs[0].TCPAddress(); !ok || a != "10.0.0.1:20333" {
		t.Fatalf("addr 0: %q %v", a, ok)
	}
	if a, ok := got.Addrs[1].TCPAddress(); !ok || a != "[2001:db8::1]:10333" {
		t.Fatalf("addr 1: %q %v", a, ok)
	}
	// IPv4 is sent IPv4-mapped, as C# MapToIPv6 does.
	if !bytes.Equal(b[1+4:1+4+16], []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1}) {
		t.Fatalf("IPv4 not mapped: %x", b[5:21])
	}
	expectErr(t, []byte{0}, new(payload.AddressList), payload.ErrEmptyList)
	expectErr(t, []byte{201}, new(payload.AddressList), nio.ErrTooLarge)
}

func TestInventory(t *testing.T) {
	inv := &payload.Inventory{Type: payload.TXType, Hashes: hashes(payload.MaxHashesCount)}
	b := encode(t, inv)
	if len(b) != 1+3+500*32 || inv.Size() != len(b) {
		t.Fatalf("size %d", len(b))
	}
	if !fuzzutil.RoundTrip[payload.Inventory](t, b) {
		t.Fatal("does not decode")
	}
	over := encode(t, &payload.Inventory{Type: payload.BlockType, Hashes: hashes(payload.MaxHashesCount + 1)})
	expectErr(t, over, new(payload.Inventory), nio.ErrTooLarge)
	expectErr(t, []byte{0x2d, 0}, new(payload.Inventory), payload.ErrInventoryType)
	for _, typ := range []payload.InventoryType{payload.TXType, payload.BlockType, payload.ExtensibleType, payload.P2PNotaryRequestType} {
		if !fuzzutil.RoundTrip[payload.Inventory](t, []byte{byte(typ), 0}) {
			t.Fatalf("type %s refused", typ)
		}
	}
	expectErr(t, []byte{0x2b, 2, 1}, new(payload.Inventory), nio.ErrUnexpectedEOF)

	mi := encode(t, &payload.MPTInventory{Hashes: hashes(payload.MaxMPTHashesCount)})
	if !fuzzutil.RoundTrip[payload.MPTInventory](t, mi) {
		t.Fatal("mpt inventory does not decode")
	}
	expectErr(t, encode(t, &payload.MPTInventory{Hashes: hashes(33)}), new(payload.MPTInventory), nio.ErrTooLarge)

	md := encode(t, &payload.MPTData{Nodes: [][]byte{{1, 2}, {}, {3}}})
	if !fuzzutil.RoundTrip[payload.MPTData](t, md) {
		t.Fatal("mpt data does not decode")
	}
	expectErr(t, []byte{0}, new(payload.MPTData), payload.ErrEmptyList)
	expectErr(t, []byte{0xfd, 0xff, 0xff, 0}, new(payload.MPTData), nio.ErrUnexpectedEOF)
}

func TestSyncPayloads(t *testing.T) {
	gb := &payload.GetBlocks{HashStart: hash.Sha256([]byte{1}), Count: -1}
	if b := encode(t, gb); !fuzzutil.RoundTrip[payload.GetBlocks](t, b) || hexs(b[32:]) != "ffff" {
		t.Fatalf("getblocks %x", b)
	}
	for _, c := range []int16{0, -2, -32768} {
		gb.Count = c
		expectErr(t, encode(t, gb), new(payload.GetBlocks), payload.ErrInvalidCount)
	}
	gb.Count = 32767
	if !fuzzutil.RoundTrip[payload.GetBlocks](t, encode(t, gb)) {
		t.Fatal("getblocks count 32767 refused")
	}

	gbi := &payload.GetBlockByIndex{IndexStart: 1000, Count: payload.MaxHeadersCount}
	if b := encode(t, gbi); !fuzzutil.RoundTrip[payload.GetBlockByIndex](t, b) || hexs(b) != "e8030000d007" {
		t.Fatalf("getblockbyindex %x", b)
	}
	for _, c := range []int16{0, -2, payload.MaxHeadersCount + 1} {
		gbi.Count = c
		expectErr(t, encode(t, gbi), new(payload.GetBlockByIndex), payload.ErrInvalidCount)
	}

	hs := sampleHeaders(3)
	b := encode(t, hs)
	if !fuzzutil.RoundTrip[payload.Headers](t, b) {
		t.Fatal("headers do not decode")
	}
	var got payload.Headers
	mustDecode(t, b, &got)
	for i, h := range got.Hdrs {
		if h.Hash() != hs.Hdrs[i].Hash() {
			t.Fatalf("header %d hash", i)
		}
	}
	expectErr(t, []byte{0}, new(payload.Headers), payload.ErrEmptyList)
	expectErr(t, []byte{0xfd, 0xd1, 0x07}, new(payload.Headers), nio.ErrTooLarge)
	expectErr(t, []byte{0xfd, 0xd0, 0x07, 0}, new(payload.Headers), nio.ErrUnexpectedEOF)

	p := &payload.Ping{LastBlockIndex: 1, Timestamp: 2, Nonce: 3}
	if b := encode(t, p); !fuzzutil.RoundTrip[payload.Ping](t, b) || hexs(b) != "010000000200000003000000" {
		t.Fatalf("ping %x", b)
	}
	expectErr(t, make([]byte, 11), new(payload.Ping), nio.ErrUnexpectedEOF)
}

func TestExtensible(t *testing.T) {
	e := sampleExtensible()
	b := encode(t, e)
	if !fuzzutil.RoundTrip[payload.Extensible](t, b) {
		t.Fatal("does not decode")
	}
	var got payload.Extensible
	mustDecode(t, b, &got)
	// The hash is SHA-256 of the unsigned part, which is the encoding up
	// to the witness count byte.
	unsigned := b[:len(b)-1-e.Witness.Size()]
	if got.Hash() != hash.Sha256(unsigned) || e.Hash() != got.Hash() {
		t.Fatal("hash")
	}
	sd := got.SignData(0x334f454e)
	h := got.Hash()
	if !bytes.Equal(sd[:4], []byte{0x4e, 0x45, 0x4f, 0x33}) || !bytes.Equal(sd[4:], h[:]) {
		t.Fatalf("sign data %x", sd)
	}
	e2 := sampleExtensible()
	e2.ValidBlockStart = 101
	expectErr(t, encode(t, e2), new(payload.Extensible), payload.ErrValidRange)
	e2 = sampleExtensible()
	e2.Category = "0123456789abcdef0123456789abcdefX"
	expectErr(t, encode(t, e2), new(payload.Extensible), nio.ErrTooLarge)
	bad := bytes.Clone(b)
	bad[len(b)-1-e.Witness.Size()] = 2
	expectErr(t, bad, new(payload.Extensible), payload.ErrWitnessCount)
}

func TestSPV(t *testing.T) {
	mb := sampleMerkleBlock()
	b := encode(t, mb)
	if !fuzzutil.RoundTrip[payload.MerkleBlock](t, b) {
		t.Fatal("merkleblock does not decode")
	}
	mb.Flags = []byte{1, 2}
	expectErr(t, encode(t, mb), new(payload.MerkleBlock), nio.ErrTooLarge)
	mb = sampleMerkleBlock()
	mb.Hashes = hashes(4)
	expectErr(t, encode(t, mb), new(payload.MerkleBlock), nio.ErrTooLarge)
	mb = sampleMerkleBlock()
	mb.TxCount = block.MaxTransactionsPerBlock + 1
	expectErr(t, encode(t, mb), new(payload.MerkleBlock), nio.ErrTooLarge)

	fl := &payload.FilterLoad{Filter: make([]byte, payload.MaxFilterSize), K: payload.MaxFilterK, Tweak: 9}
	if !fuzzutil.RoundTrip[payload.FilterLoad](t, encode(t, fl)) {
		t.Fatal("filterload")
	}
	fl.K++
	expectErr(t, encode(t, fl), new(payload.FilterLoad), payload.ErrFilterK)
	fl = &payload.FilterLoad{Filter: make([]byte, payload.MaxFilterSize+1)}
	expectErr(t, encode(t, fl), new(payload.FilterLoad), nio.ErrTooLarge)

	fa := &payload.FilterAdd{Data: make([]byte, payload.MaxFilterAddSize)}
	if !fuzzutil.RoundTrip[payload.FilterAdd](t, encode(t, fa)) {
		t.Fatal("filteradd")
	}
	fa.Data = append(fa.Data, 0)
	expectErr(t, encode(t, fa), new(payload.FilterAdd), nio.ErrTooLarge)
}

func TestP2PNotaryRequest(t *testing.T) {
	r := sampleNotary(t)
	b := encode(t, r)
	if !fuzzutil.RoundTrip[payload.P2PNotaryRequest](t, b) {
		var x payload.P2PNotaryRequest
		t.Fatal(nio.FromBytes(b, &x))
	}
	var got payload.P2PNotaryRequest
	mustDecode(t, b, &got)
	if got.Hash() != r.Hash() || got.FallbackTransaction.Hash() != r.FallbackTransaction.Hash() {
		t.Fatal("hash")
	}
	// Break each rule in turn.
	breakers := map[string]func(r *payload.P2PNotaryRequest){
		"vub":      func(r *payload.P2PNotaryRequest) { r.MainTransaction.ValidUntilBlock++ },
		"conflict": func(r *payload.P2PNotaryRequest) { r.MainTransaction.Nonce++ },
		"dummy witness": func(r *payload.P2PNotaryRequest) {
			r.FallbackTransaction.Witnesses[0].InvocationScript = []byte{1}
		},
		"nkeys": func(r *payload.P2PNotaryRequest) { r.MainTransaction.Attributes = nil },
	}
	for name, f := range breakers {
		r := sampleNotary(t)
		f(r)
		raw := encode(t, r)
		var x payload.P2PNotaryRequest
		if err := nio.FromBytes(raw, &x); !errors.Is(err, payload.ErrNotaryRequest) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func mustDecode(t *testing.T, b []byte, v nio.Decodable) {
	t.Helper()
	if err := nio.FromBytes(b, v); err != nil {
		t.Fatal(err)
	}
}

func expectErr(t *testing.T, b []byte, v nio.Decodable, want error) {
	t.Helper()
	if err := nio.FromBytes(b, v); !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
}

func hexs(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

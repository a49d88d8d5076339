package mpt

import (
	"bytes"
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

func TestLimits(t *testing.T) {
	tr := NewTrie(hash.Uint256{}, ModeLatest, storage.NewMemoryStore())
	long := make([]byte, MaxKeyLength+1)
	if err := tr.Put(long, []byte{1}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("put long key: %v", err)
	}
	if err := tr.Put(long[:MaxKeyLength], []byte{1}); err != nil {
		t.Errorf("put longest key: %v", err)
	}
	if err := tr.Put(nil, []byte{1}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("put empty key: %v", err)
	}
	if err := tr.Put([]byte{1}, nil); !errors.Is(err, ErrNilValue) {
		t.Errorf("put nil value: %v", err)
	}
	if err := tr.Put([]byte{1}, make([]byte, MaxValueLength+1)); !errors.Is(err, ErrValueTooLong) {
		t.Errorf("put long value: %v", err)
	}
	if err := tr.Put([]byte{1}, make([]byte, MaxValueLength)); err != nil {
		t.Errorf("put longest value: %v", err)
	}
	if _, err := tr.Delete(long); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("delete long key: %v", err)
	}
	if _, err := tr.Get(long); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("get long key: %v", err)
	}
	if _, err := tr.Find(long, nil, 1); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("find long prefix: %v", err)
	}
	if _, err := tr.Find([]byte{1}, long[1:], 1); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("find long from: %v", err)
	}
	if err := tr.Flush(0); err != nil {
		t.Fatal(err)
	}
	// The longest key and value survive a round trip through the store.
	got, err := NewTrie(tr.StateRoot(), ModeLatest, tr.store).Get([]byte{1})
	if err != nil || len(got) != MaxValueLength {
		t.Errorf("get longest value: %d bytes, %v", len(got), err)
	}
	checkRefCounts(t, tr.store, ModeLatest, tr.StateRoot())

	for _, m := range []map[string][]byte{
		{"": {1}},
		{string(long): {1}},
		{"a": make([]byte, MaxValueLength+1)},
	} {
		if _, err := MapToBatch(m, 0); err == nil {
			t.Errorf("MapToBatch accepted %d-byte key", len(m))
		}
	}
	if _, err := MapToBatch(map[string][]byte{"\x70": {1}}, 1); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("MapToBatch accepted a key that is only the prefix: %v", err)
	}
	if _, err := MapToBatch(map[string][]byte{"\x01a": {1}, "\x02a": {2}}, 1); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("MapToBatch accepted duplicate keys after the prefix: %v", err)
	}
	if _, err := NewBatch([]KeyValue{{Key: []byte{1}, Value: []byte{}}, {Key: []byte{1}}}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("NewBatch accepted duplicate keys: %v", err)
	}
	// Different prefixes: the batch is still sorted by trie key.
	b, err := MapToBatch(map[string][]byte{"\x02\x00": {1}, "\x01\xff": {2}, "\x03\x80": {3}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	bt := NewTrie(hash.Uint256{}, ModeAll, storage.NewMemoryStore())
	if err := bt.PutBatch(b); err != nil {
		t.Fatal(err)
	}
	if got, want := bt.StateRoot(), refRoot(map[string][]byte{"\x00": {1}, "\xff": {2}, "\x80": {3}}); got != want {
		t.Errorf("root %s, want %s", got, want)
	}
}

// TestIntermediateCommits checks that hashing in the middle of changes
// (StateRoot, GetProof) leaves no garbage: nodes hashed and then changed
// again before a flush are never written.
func TestIntermediateCommits(t *testing.T) {
	for _, mode := range []Mode{ModeAll, ModeLatest} {
		st := storage.NewMemoryStore()
		tr := NewTrie(hash.Uint256{}, mode, st)
		kv := map[string][]byte{}
		for i := range 50 {
			k := []byte{byte(i % 7), byte(i)}
			if err := tr.Put(k, []byte{byte(i)}); err != nil {
				t.Fatal(err)
			}
			kv[string(k)] = []byte{byte(i)}
			tr.StateRoot()
			if i%3 == 0 {
				if _, err := tr.GetProof(k); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := tr.Flush(1); err != nil {
			t.Fatal(err)
		}
		res := checkTrie(t, st, mode, tr.StateRoot())
		if n := nodeCount(st); n != len(res.occurrences) {
			t.Errorf("%s: %d nodes stored, %d reachable", mode, n, len(res.occurrences))
		}
		if tr.StateRoot() != refRoot(kv) {
			t.Errorf("%s: wrong root", mode)
		}
	}
}

// TestFlushTo checks that FlushTo hands over the same changes Flush
// writes.
func TestFlushTo(t *testing.T) {
	a, b := storage.NewMemoryStore(), storage.NewMemoryStore()
	ta := NewTrie(hash.Uint256{}, ModeGC, a)
	tb := NewTrie(hash.Uint256{}, ModeGC, b)
	for h := range uint32(5) {
		for i := range 40 {
			k := []byte{byte(i), byte(h)}
			var v []byte
			if i%4 != 0 {
				v = []byte{byte(h)}
			}
			for _, tr := range []*Trie{ta, tb} {
				var err error
				if v == nil {
					_, err = tr.Delete([]byte{byte(i), byte(h - 1)})
				} else {
					err = tr.Put(k, v)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := ta.Flush(h); err != nil {
			t.Fatal(err)
		}
		dst := map[string][]byte{"other": []byte("data")}
		if err := tb.FlushTo(h, dst); err != nil {
			t.Fatal(err)
		}
		if err := b.PutChangeSet(dst); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Get([]byte("other")); err != nil {
			t.Fatal(err)
		}
		if err := b.PutChangeSet(map[string][]byte{"other": nil}); err != nil {
			t.Fatal(err)
		}
		if !sameStore(a, b) {
			t.Fatalf("height %d: stores differ", h)
		}
		ta.Collapse(1)
		tb.Collapse(1)
	}
}

// TestGetDoesNotChangeRoot checks that reads through hash nodes (which
// load nodes into memory) change nothing that is flushed.
func TestGetDoesNotChangeRoot(t *testing.T) {
	st, root := buildTrie(t, ModeLatest, map[string][]byte{"\x01\x02": {1}, "\x01\x03": {2}, "\x05": {}})
	before := nodeCount(st)
	tr := NewTrie(root, ModeLatest, st)
	for _, k := range []string{"\x01\x02", "\x01\x03", "\x05", "\x07"} {
		tr.Get([]byte(k))
	}
	if _, err := tr.Delete([]byte{9}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Put([]byte{5}, []byte{}); err != nil { // same value
		t.Fatal(err)
	}
	if err := tr.Flush(1); err != nil {
		t.Fatal(err)
	}
	if tr.StateRoot() != root || nodeCount(st) != before {
		t.Fatal("reads or no-op changes changed the trie")
	}
	checkRefCounts(t, st, ModeLatest, root)
	v, err := tr.Get([]byte{5})
	if err != nil || v == nil || !bytes.Equal(v, []byte{}) {
		t.Fatalf("empty value: %v %v", v, err)
	}
}

// TestProofOwnership checks that a proof belongs to the caller: scribbling
// over it changes neither the trie nor later proofs.
func TestProofOwnership(t *testing.T) {
	for _, mode := range []Mode{ModeAll, ModeLatest} {
		st, root := buildTrie(t, mode, map[string][]byte{"\x01\x02": {1}, "\x01\x03": {2}, "\x05": {3}})
		tr := NewTrie(root, mode, st)
		p1, err := tr.GetProof([]byte{1, 2})
		if err != nil {
			t.Fatal(err)
		}
		want := make([][]byte, len(p1))
		for i := range p1 {
			want[i] = bytes.Clone(p1[i])
			clear(p1[i])
		}
		p2, err := tr.GetProof([]byte{1, 2})
		if err != nil || len(p2) != len(want) {
			t.Fatal(err)
		}
		for i := range p2 {
			if !bytes.Equal(p2[i], want[i]) {
				t.Fatalf("%s: proof node %d changed", mode, i)
			}
		}
		if v, err := VerifyProof(tr.StateRoot(), []byte{1, 2}, p2); err != nil || !bytes.Equal(v, []byte{1}) {
			t.Fatalf("%s: verify: %x %v", mode, v, err)
		}
	}
}

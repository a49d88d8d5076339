package mpt

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// TestTrieStoreMatchesMemoryStore checks the historic view against a
// MemoryStore holding the same items: Get and Seek (both directions, with
// and without start) must answer alike, and the view must keep answering
// for an old root after the trie moved on.
func TestTrieStoreMatchesMemoryStore(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	kv := randomState(r, 2000)
	const itemPrefix = 0x70
	for _, mode := range []Mode{ModeAll, ModeGC} {
		st := storage.NewMemoryStore()
		tr := NewTrie(hash.Uint256{}, mode, st)
		b, _ := MapToBatch(kv, 0)
		if err := tr.PutBatch(b); err != nil {
			t.Fatal(err)
		}
		if err := tr.Flush(1); err != nil {
			t.Fatal(err)
		}
		oldRoot := tr.StateRoot()
		// Change everything: in ModeGC the old nodes die but stay.
		changes := map[string][]byte{}
		for k := range kv {
			changes[k] = nil
		}
		changes["\x09\x00\x00\x00x"] = []byte{1}
		b, _ = MapToBatch(changes, 0)
		if err := tr.PutBatch(b); err != nil {
			t.Fatal(err)
		}
		if err := tr.Flush(2); err != nil {
			t.Fatal(err)
		}

		ref := storage.NewMemoryStore()
		items := map[string][]byte{}
		for k, v := range kv {
			items[string(append([]byte{itemPrefix}, k...))] = v
		}
		if err := ref.PutChangeSet(items); err != nil {
			t.Fatal(err)
		}
		view := NewTrieStore(oldRoot, mode, st, []byte{itemPrefix})
		for k, v := range items {
			got, err := view.Get([]byte(k))
			if err != nil || !bytes.Equal(got, v) {
				t.Fatalf("get %x: %x %v", k, got, err)
			}
		}
		for _, k := range [][]byte{{itemPrefix}, {0x71, 0, 0, 0, 0, 1}, {itemPrefix, 9, 9, 9, 9, 9}} {
			if _, err := view.Get(k); !errors.Is(err, storage.ErrKeyNotFound) {
				t.Fatalf("get %x: %v", k, err)
			}
		}
		ranges := []storage.SeekRange{{Prefix: []byte{itemPrefix}}, {Prefix: nil}, {Prefix: []byte{itemPrefix}, Backwards: true}}
		for range 200 {
			p := []byte{itemPrefix}
			for range r.IntN(6) {
				p = append(p, byte(r.UintN(256)))
			}
			if len(p) > 1 {
				p[1] = byte(r.IntN(5))
			}
			if len(p) > 2 {
				p[2] = 0
			}
			var start []byte
			if r.IntN(2) == 0 {
				start = []byte{byte(r.UintN(256))}
			}
			ranges = append(ranges, storage.SeekRange{Prefix: p, Start: start, Backwards: r.IntN(2) == 0})
		}
		for _, rng := range ranges {
			limit := 1 + r.IntN(30)
			collect := func(s storage.Store) string {
				var out bytes.Buffer
				n := 0
				s.Seek(rng, func(k, v []byte) bool {
					out.WriteString(string(k) + "=" + string(v) + ";")
					n++
					return n < limit
				})
				return out.String()
			}
			if a, b := collect(ref), collect(view); a != b {
				t.Fatalf("seek %+v differs:\n ref  %q\n view %q", rng, a, b)
			}
		}
		if err := view.Err(); err != nil {
			t.Fatal(err)
		}
		if err := view.PutChangeSet(nil); !errors.Is(err, errors.ErrUnsupported) {
			t.Fatal("write accepted")
		}
		if err := view.SeekGC(storage.SeekRange{}, nil); !errors.Is(err, errors.ErrUnsupported) {
			t.Fatal("SeekGC accepted")
		}
		// After garbage collection the old root is gone.
		if mode.GC() {
			if n, err := CollectGarbage(st, 2); err != nil || n == 0 {
				t.Fatalf("GC removed %d: %v", n, err)
			}
			for k := range items {
				if _, err := view.Get([]byte(k)); !errors.Is(err, ErrMissingNode) {
					t.Fatalf("get after GC: %v", err)
				}
				break
			}
			view.Seek(storage.SeekRange{Prefix: []byte{itemPrefix}}, func(k, v []byte) bool { return true })
			if !errors.Is(view.Err(), ErrMissingNode) {
				t.Fatalf("seek after GC: %v", view.Err())
			}
		}
	}
}

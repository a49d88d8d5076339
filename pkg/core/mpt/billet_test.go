package mpt

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// randomState returns n random contract-storage items: a few contract ids,
// keys of 1..24 bytes, values drawn from a small set half of the time so
// that identical leaves (and identical small subtrees) are common.
func randomState(r *rand.Rand, n int) map[string][]byte {
	m := make(map[string][]byte, n)
	for len(m) < n {
		k := make([]byte, 4+1+r.IntN(24))
		k[0] = byte(r.IntN(5)) // contract id, little-endian
		for i := 4; i < len(k); i++ {
			k[i] = byte(r.UintN(256))
		}
		var v []byte
		if r.IntN(2) == 0 {
			v = []byte{byte(r.IntN(8))}
		} else {
			v = make([]byte, 1+r.IntN(40))
			for i := range v {
				v[i] = byte(r.UintN(256))
			}
		}
		m[string(k)] = v
	}
	return m
}

func buildTrie(t testing.TB, mode Mode, kv map[string][]byte) (*storage.MemoryStore, hash.Uint256) {
	t.Helper()
	st := storage.NewMemoryStore()
	tr := NewTrie(hash.Uint256{}, mode, st)
	b, err := MapToBatch(kv, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.PutBatch(b); err != nil {
		t.Fatal(err)
	}
	if err := tr.Flush(0); err != nil {
		t.Fatal(err)
	}
	return st, tr.StateRoot()
}

// nodeBytes fetches a node's encoding from a store the way a peer would
// serve it.
func nodeBytes(t testing.TB, st storage.Store, mode Mode, h hash.Uint256) []byte {
	t.Helper()
	data, err := st.Get(NodeKey(h))
	if err != nil {
		t.Fatalf("source lacks %s: %v", h, err)
	}
	if mode.RC() {
		data = data[:len(data)-refSuffixLen]
	}
	return data
}

// TestBilletRestore restores a 100,000-key trie node by node from another
// store, interrupting and resuming once, and checks that the copy is byte
// for byte the source store (so reference counts match), that every leaf
// was reported, and that Find answers the same.
func TestBilletRestore(t *testing.T) {
	sizes := map[Mode]int{ModeLatest: 100_000, ModeAll: 20_000}
	if testing.Short() {
		sizes = map[Mode]int{ModeLatest: 10_000, ModeAll: 5_000}
	}
	for _, mode := range []Mode{ModeLatest, ModeAll} {
		kv := randomState(rand.New(rand.NewPCG(1, 2)), sizes[mode])
		t.Run(mode.String(), func(t *testing.T) {
			src, root := buildTrie(t, mode, kv)
			dst := storage.NewMemoryStore()
			leaves := map[string][]byte{}
			onLeaf := func(k, v []byte) {
				if _, dup := leaves[string(k)]; dup {
					t.Errorf("leaf %x reported twice", k)
				}
				leaves[string(k)] = v
			}
			b, err := NewBillet(root, mode, dst)
			if err != nil {
				t.Fatal(err)
			}
			b.OnLeaf = onLeaf
			rounds, resumed := 0, false
			for !b.IsComplete() {
				for _, h := range b.Missing(1000) {
					node, err := DecodeNode(nodeBytes(t, src, mode, h))
					if err != nil {
						t.Fatal(err)
					}
					if err := b.RestoreNode(node); err != nil {
						t.Fatal(err)
					}
				}
				if err := b.Flush(); err != nil {
					t.Fatal(err)
				}
				rounds++
				if rounds == 5 && !resumed {
					// Interrupted: a new Billet finds what is left from
					// the store.
					missing := b.MissingCount()
					if b, err = NewBillet(root, mode, dst); err != nil {
						t.Fatal(err)
					}
					b.OnLeaf = onLeaf
					if b.MissingCount() != missing {
						t.Fatalf("resumed billet misses %d nodes, was %d", b.MissingCount(), missing)
					}
					resumed = true
				}
			}
			if !resumed {
				t.Fatal("restore finished before the interruption")
			}
			if len(leaves) != len(kv) {
				t.Fatalf("%d leaves reported, want %d", len(leaves), len(kv))
			}
			for k, v := range kv {
				if !bytes.Equal(leaves[k], v) {
					t.Fatalf("leaf %x = %x, want %x", k, leaves[k], v)
				}
			}
			if !sameStore(src, dst) {
				t.Fatalf("restored store differs from the source (%d vs %d keys)", dst.Len(), src.Len())
			}
			// Restoring again is a no-op.
			node, _ := DecodeNode(nodeBytes(t, src, mode, root))
			if err := b.RestoreNode(node); err != nil {
				t.Fatal(err)
			}
			a, c := NewTrie(root, mode, src), NewTrie(root, mode, dst)
			found := 0
			for _, p := range [][]byte{nil, {0}, {1, 0, 0, 0}, {2, 0, 0, 0, 0x7f}} {
				for _, from := range [][]byte{nil, {0x02}, {0x80}} {
					x, err1 := a.Find(p, from, 50)
					y, err2 := c.Find(p, from, 50)
					if err1 != nil || err2 != nil || kvString(x) != kvString(y) {
						t.Fatalf("find %x from %x: %d vs %d items (%v %v)", p, from, len(x), len(y), err1, err2)
					}
					found += len(x)
				}
			}
			if found == 0 {
				t.Fatal("finds found nothing")
			}
		})
	}
}

func TestBilletTraverseAndErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	kv := randomState(r, 300)
	src, root := buildTrie(t, ModeLatest, kv)
	b, err := NewBillet(root, ModeLatest, src) // complete already
	if err != nil {
		t.Fatal(err)
	}
	if !b.IsComplete() || len(b.Missing(10)) != 0 {
		t.Fatal("billet over a full store is not complete")
	}
	occ := checkTrie(t, src, ModeLatest, root).occurrences
	total := 0
	for _, c := range occ {
		total += c
	}
	var visited int
	var keys []string
	if err := b.Traverse(func(path []byte, n *Node) bool {
		visited++
		if n.Type() == LeafT {
			keys = append(keys, string(fromNibbles(nil, path)))
		}
		return false
	}, false); err != nil {
		t.Fatal(err)
	}
	if visited != total || len(keys) != len(kv) || !slices.IsSorted(keys) {
		t.Fatalf("traverse visited %d nodes (want %d), %d leaves (want %d), sorted %v",
			visited, total, len(keys), len(kv), slices.IsSorted(keys))
	}
	// Stop early.
	visited = 0
	if err := b.Traverse(func([]byte, *Node) bool { visited++; return visited == 5 }, false); err != nil || visited != 5 {
		t.Fatalf("traverse stop: %d %v", visited, err)
	}

	// A fresh billet: nodes not asked for are ignored; hash and empty
	// nodes cannot be restored; Traverse meets missing nodes.
	e, err := NewBillet(root, ModeLatest, storage.NewMemoryStore())
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Missing(10); len(got) != 1 || got[0] != root {
		t.Fatalf("missing %v, want the root", got)
	}
	if err := e.RestoreNode(NewLeafNode([]byte("x"))); err != nil || e.MissingCount() != 1 {
		t.Fatalf("unrequested node: %v", err)
	}
	for _, n := range []*Node{nil, NewHashNode(root)} {
		if err := e.RestoreNode(n); !errors.Is(err, ErrRestoreFailed) {
			t.Fatalf("restore %s: %v", n.Type(), err)
		}
	}
	if err := e.Traverse(func([]byte, *Node) bool { return false }, false); !errors.Is(err, ErrMissingNode) {
		t.Fatalf("traverse with a missing root: %v", err)
	}
	if err := e.Traverse(func([]byte, *Node) bool { return false }, true); err != nil {
		t.Fatalf("traverse ignoring missing: %v", err)
	}
	// ChildrenPaths of the root.
	rn, err := b.GetFromStore(root)
	if err != nil {
		t.Fatal(err)
	}
	cp := ChildrenPaths(nil, rn)
	if len(cp) == 0 {
		t.Fatal("no children paths")
	}
	empty, err := NewBillet(hash.Uint256{}, ModeLatest, storage.NewMemoryStore())
	if err != nil || !empty.IsComplete() {
		t.Fatal("billet of the empty trie is not complete")
	}
}

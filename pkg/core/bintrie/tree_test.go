package bintrie_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/n3node/n3node/pkg/core/bintrie"
	"github.com/n3node/n3node/pkg/core/storage"
)

func seededKey(tag string, i int) bintrie.Key {
	b := binary.BigEndian.AppendUint64([]byte(tag), uint64(i))
	return sha256.Sum256(b)
}

func seededValue(i int) bintrie.Value {
	return bintrie.Value(seededKey("value", i))
}

// buildCommitted returns a tree of n random keys committed to a store, and
// the model holding the same data.
func buildCommitted(t *testing.T, n int) (*bintrie.Tree, *storage.MemoryStore, *model) {
	t.Helper()
	tr := bintrie.New(bintrie.Options{})
	m := newModel()
	for i := range n {
		k, v := seededKey("key", i), seededValue(i)
		if err := tr.Put(k, v); err != nil {
			t.Fatal(err)
		}
		m.put(k, v)
	}
	st := storage.NewMemoryStore()
	root, changes := tr.Commit()
	if err := st.PutChangeSet(changes); err != nil {
		t.Fatal(err)
	}
	if root != m.root() {
		t.Fatalf("root %x, model %x", root, m.root())
	}
	return tr, st, m
}

// pathKeys returns the storage keys of the nodes from the root down to
// depth on stem's path.
func pathKeys(s *bintrie.Stem, depth int) map[string]bool {
	keys := map[string]bool{}
	for d := 0; d <= depth; d++ {
		keys[string(bintrie.NodeKey(s, d))] = true
	}
	return keys
}

func sameKeys(t *testing.T, got map[string][]byte, want map[string]bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("commit wrote %d nodes, want %d", len(got), len(want))
	}
	for k := range got {
		if !want[k] {
			t.Errorf("commit wrote unexpected node %x", k)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("commit missed node %x", k)
		}
	}
}

func TestCommitWritesOnlyChangedPath(t *testing.T) {
	for _, reopen := range []bool{false, true} {
		tr, st, m := buildCommitted(t, 3000)
		if reopen {
			var err error
			if tr, err = bintrie.Open(st, tr.Hash(), bintrie.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		// A no-op commit writes nothing.
		if _, ch := tr.Commit(); len(ch) != 0 {
			t.Fatalf("no-op commit wrote %d nodes", len(ch))
		}
		// Rewriting a value with itself changes nothing.
		k := seededKey("key", 17)
		if err := tr.Put(k, seededValue(17)); err != nil {
			t.Fatal(err)
		}
		if _, ch := tr.Commit(); len(ch) != 0 {
			t.Fatalf("same-value write committed %d nodes", len(ch))
		}

		// Change one leaf: exactly the root-to-stem path is written.
		v := seededValue(99999)
		if err := tr.Put(k, v); err != nil {
			t.Fatal(err)
		}
		m.put(k, v)
		root, ch := tr.Commit()
		if root != m.root() {
			t.Fatalf("root %x, model %x", root, m.root())
		}
		depth := m.depthOf(*k.Stem())
		sameKeys(t, ch, pathKeys(k.Stem(), depth))
		blob := ch[string(bintrie.NodeKey(k.Stem(), depth))]
		n, err := bintrie.DecodeNode(blob)
		if err != nil || n.Kind != bintrie.NodeStem || string(n.Value(k.Suffix())) != string(v[:]) {
			t.Fatalf("stem blob %x: %+v %v", blob, n, err)
		}
		if err := st.PutChangeSet(ch); err != nil {
			t.Fatal(err)
		}
		if _, ch := tr.Commit(); len(ch) != 0 {
			t.Fatalf("second commit wrote %d nodes", len(ch))
		}

		// A new slot in an existing stem: the same path.
		k2 := k
		k2[31] ^= 0x55
		m.put(k2, v)
		if err := tr.Put(k2, v); err != nil {
			t.Fatal(err)
		}
		_, ch = tr.Commit()
		sameKeys(t, ch, pathKeys(k.Stem(), depth))
		if err := st.PutChangeSet(ch); err != nil {
			t.Fatal(err)
		}

		// A new stem that splits an existing one: the path to the new
		// stems' depth, plus the moved stem at its new position.
		k3 := k
		k3[30] ^= 0x01 // differs from k's stem in bit 247
		m.put(k3, v)
		if err := tr.Put(k3, v); err != nil {
			t.Fatal(err)
		}
		root, ch = tr.Commit()
		if root != m.root() {
			t.Fatalf("root after split %x, model %x", root, m.root())
		}
		if d := m.depthOf(*k3.Stem()); d != bintrie.MaxDepth {
			t.Fatalf("split stem depth %d", d)
		}
		want := pathKeys(k3.Stem(), bintrie.MaxDepth)
		want[string(bintrie.NodeKey(k.Stem(), bintrie.MaxDepth))] = true
		sameKeys(t, ch, want)
		if err := st.PutChangeSet(ch); err != nil {
			t.Fatal(err)
		}

		// The store now reopens to the same tree.
		re, err := bintrie.Open(st, root, bintrie.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstModel(t, re, m, 500)
	}
}

// checkAgainstModel compares the root and up to n Gets per kind: present
// keys, absent slots of present stems, and absent stems that share long
// prefixes with present ones.
func checkAgainstModel(t *testing.T, tr *bintrie.Tree, m *model, n int) {
	t.Helper()
	if got, want := tr.Hash(), m.root(); got != want {
		t.Fatalf("root %x, model %x", got, want)
	}
	i := 0
	for s, slots := range m.stems {
		if i >= n {
			break
		}
		i++
		for sub, v := range slots {
			var k bintrie.Key
			copy(k[:], s[:])
			k[31] = byte(sub)
			got, ok, err := tr.Get(k)
			if err != nil {
				t.Fatal(err)
			}
			if (v != nil) != ok || (v != nil && got != *v) {
				t.Fatalf("get %x = %x %v, model %v", k, got, ok, v)
			}
		}
		// Same path, other stem: absent.
		var k bintrie.Key
		copy(k[:], s[:])
		k[30] ^= 0x01
		if _, ok := m.stems[*k.Stem()]; !ok {
			if _, ok, err := tr.Get(k); err != nil || ok {
				t.Fatalf("get of absent stem %x: %v %v", k, ok, err)
			}
		}
	}
}

func TestReloadSameRootAndGets(t *testing.T) {
	tr, st, m := buildCommitted(t, 5000)
	root := tr.Hash()
	re, err := bintrie.Open(st, root, bintrie.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if re.Hash() != root {
		t.Fatalf("reopened root %x, want %x", re.Hash(), root)
	}
	checkAgainstModel(t, re, m, 5000)
	// Further writes on both give the same roots.
	for i := range 200 {
		k, v := seededKey("more", i), seededValue(i+7)
		if i%3 == 0 {
			k = seededKey("key", i) // overwrite
		}
		for _, x := range []*bintrie.Tree{tr, re} {
			if err := x.Put(k, v); err != nil {
				t.Fatal(err)
			}
		}
		m.put(k, v)
	}
	if tr.Hash() != re.Hash() || tr.Hash() != m.root() {
		t.Fatalf("roots diverged: %x %x %x", tr.Hash(), re.Hash(), m.root())
	}
}

func TestSingleStemAnswersOnlyForItself(t *testing.T) {
	tr := bintrie.New(bintrie.Options{})
	k := seededKey("only", 1)
	if err := tr.Put(k, seededValue(1)); err != nil {
		t.Fatal(err)
	}
	for _, flip := range []int{0, 100, 246, 247} {
		o := k
		o[flip/8] ^= 0x80 >> (flip % 8)
		if _, ok, err := tr.Get(o); err != nil || ok {
			t.Fatalf("other stem (bit %d) answered: %v %v", flip, ok, err)
		}
	}
	o := k
	o[31]++
	if _, ok, _ := tr.Get(o); ok {
		t.Fatal("absent slot answered")
	}
	if v, ok, _ := tr.Get(k); !ok || v != seededValue(1) {
		t.Fatal("own key missing")
	}
}

func TestZeroValueIsNotAbsent(t *testing.T) {
	a, b := bintrie.New(bintrie.Options{}), bintrie.New(bintrie.Options{})
	k := seededKey("z", 0)
	if err := a.Put(k, seededValue(0)); err != nil {
		t.Fatal(err)
	}
	k2 := k
	k2[31]++
	if err := a.Delete(k2); err != nil {
		t.Fatal(err)
	}
	if err := b.Put(k, seededValue(0)); err != nil {
		t.Fatal(err)
	}
	if a.Hash() == b.Hash() {
		t.Fatal("zero value hashed like an absent slot")
	}
	if v, ok, _ := a.Get(k2); !ok || v != (bintrie.Value{}) {
		t.Fatal("deleted slot must read as a present zero value")
	}
}

func TestCorruptAndMissingNodes(t *testing.T) {
	tr, st, _ := buildCommitted(t, 300)
	root := tr.Hash()
	k := seededKey("key", 5)
	// Find the stem blob of k and flip a value byte.
	var stemKey []byte
	for d := 0; d <= bintrie.MaxDepth; d++ {
		nk := bintrie.NodeKey(k.Stem(), d)
		blob, err := st.Get(nk)
		if err != nil {
			t.Fatalf("path node at depth %d missing: %v", d, err)
		}
		if blob[0] == byte(bintrie.NodeStem) {
			stemKey = nk
			blob[len(blob)-1] ^= 1
			if err := st.PutChangeSet(map[string][]byte{string(nk): blob}); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	re, err := bintrie.Open(st, root, bintrie.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := re.Get(k); !errors.Is(err, bintrie.ErrCorruptNode) {
		t.Fatalf("corrupt stem: err %v", err)
	}
	if err := re.Put(k, bintrie.Value{}); !errors.Is(err, bintrie.ErrCorruptNode) {
		t.Fatalf("corrupt stem on put: err %v", err)
	}
	// TrustStore takes the stored bytes as they are.
	trusting, err := bintrie.Open(st, root, bintrie.Options{TrustStore: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := trusting.Get(k); err != nil || !ok {
		t.Fatalf("trusting get: %v %v", ok, err)
	}
	// A missing node.
	if err := st.PutChangeSet(map[string][]byte{string(stemKey): nil}); err != nil {
		t.Fatal(err)
	}
	re, _ = bintrie.Open(st, root, bintrie.Options{})
	if _, _, err := re.Get(k); !errors.Is(err, bintrie.ErrMissingNode) {
		t.Fatalf("missing stem: err %v", err)
	}
	// A wrong root.
	if _, err := bintrie.Open(st, bintrie.Hash{1}, bintrie.Options{}); !errors.Is(err, bintrie.ErrCorruptNode) {
		t.Fatalf("wrong root: err %v", err)
	}
	if _, err := bintrie.Open(storage.NewMemoryStore(), root, bintrie.Options{}); !errors.Is(err, bintrie.ErrMissingNode) {
		t.Fatalf("empty store: err %v", err)
	}
}

func TestPrefixedKeys(t *testing.T) {
	st := storage.NewMemoryStore()
	opts := bintrie.Options{Prefix: []byte{0xbe, 0xef}}
	tr := bintrie.New(opts)
	for i := range 100 {
		if err := tr.Put(seededKey("p", i), seededValue(i)); err != nil {
			t.Fatal(err)
		}
	}
	root, ch := tr.Commit()
	for k := range ch {
		if k[:2] != "\xbe\xef" {
			t.Fatalf("key %x lacks the prefix", k)
		}
	}
	if err := st.PutChangeSet(ch); err != nil {
		t.Fatal(err)
	}
	re, err := bintrie.Open(st, root, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if v, ok, err := re.Get(seededKey("p", i)); err != nil || !ok || v != seededValue(i) {
			t.Fatalf("get %d: %v %v", i, ok, err)
		}
	}
}

// TestRandomAgainstModel drives the tree, copies and reopened trees with
// collision-heavy random operations and compares with the naive model.
func TestRandomAgainstModel(t *testing.T) {
	for seed := range uint64(3) {
		rng := rand.New(rand.NewPCG(seed, 99))
		runRandom(t, rng, 2000)
	}
}

func runRandom(t *testing.T, rng *rand.Rand, steps int) {
	t.Helper()
	tr := bintrie.New(bintrie.Options{})
	st := storage.NewMemoryStore()
	m := newModel()
	var keys []bintrie.Key
	for range steps {
		var k bintrie.Key
		switch {
		case len(keys) == 0 || rng.IntN(5) == 0:
			for j := range k {
				k[j] = byte(rng.Uint32())
			}
		case rng.IntN(3) == 0:
			k = keys[rng.IntN(len(keys))]
		case rng.IntN(2) == 0:
			k = keys[rng.IntN(len(keys))]
			k[31] = byte(rng.Uint32())
		default:
			k = keys[rng.IntN(len(keys))]
			p := rng.IntN(bintrie.MaxDepth)
			k[p/8] ^= 0x80 >> (p % 8)
		}
		keys = append(keys, k)
		var v bintrie.Value
		if rng.IntN(8) != 0 {
			for j := range v {
				v[j] = byte(rng.Uint32())
			}
		}
		if err := tr.Put(k, v); err != nil {
			t.Fatal(err)
		}
		m.put(k, v)
		switch rng.IntN(40) {
		case 0:
			if got, want := tr.Hash(), m.root(); got != want {
				t.Fatalf("root %x, model %x", got, want)
			}
		case 1:
			root, ch := tr.Commit()
			if err := st.PutChangeSet(ch); err != nil {
				t.Fatal(err)
			}
			var err error
			if tr, err = bintrie.Open(st, root, bintrie.Options{}); err != nil {
				t.Fatal(err)
			}
		case 2:
			c := tr.Copy()
			if err := tr.Put(keys[0], bintrie.Value{0xaa}); err != nil { // diverge the original
				t.Fatal(err)
			}
			tr = c
		case 3:
			_, ch := tr.Commit()
			if err := st.PutChangeSet(ch); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkAgainstModel(t, tr, m, 1<<30)
}

func TestStats(t *testing.T) {
	tr, st, m := buildCommitted(t, 1000)
	s := tr.Stats()
	if s.StemNodes != len(m.stems) || s.Values != 1000 || s.InternalNodes < len(m.stems)-1 || s.ArenaBytes == 0 {
		t.Fatalf("stats %+v for %d stems", s, len(m.stems))
	}
	re, err := bintrie.Open(st, tr.Hash(), bintrie.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := re.Stats(); s.StemNodes != 0 || s.InternalNodes != 1 || s.HashedNodes != 2 {
		t.Fatalf("reopened stats %+v, want only the root loaded", s)
	}
}

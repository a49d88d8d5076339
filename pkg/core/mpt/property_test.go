package mpt

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// op is one change: a put, or a delete when value is nil.
type op struct {
	key   []byte
	value []byte
}

// genKey draws a key from a small alphabet so that keys share prefixes,
// extend each other and collide often.
func genKey(r *rand.Rand) []byte {
	alphabet := []byte{0x00, 0x01, 0x0f, 0x10, 0x11, 0xab, 0xac, 0xf0, 0xff}
	k := make([]byte, 1+r.IntN(5))
	for i := range k {
		k[i] = alphabet[r.IntN(len(alphabet))]
	}
	return k
}

// genPrefix draws a key prefix of 0..2 bytes.
func genPrefix(r *rand.Rand) []byte {
	k := genKey(r)
	return k[:min(len(k), r.IntN(3))]
}

func genValue(r *rand.Rand) []byte {
	switch r.IntN(10) {
	case 0:
		return []byte{} // empty values are values
	case 1:
		v := make([]byte, 250+r.IntN(20)) // var-int length crosses 0xfd
		for i := range v {
			v[i] = byte(r.IntN(3))
		}
		return v
	default:
		// few distinct values, so identical leaves are common
		return []byte{byte(r.IntN(4))}
	}
}

// genBlocks draws blocks of random changes; deletes target existing keys
// more often than not.
func genBlocks(r *rand.Rand, blocks, maxOps int) [][]op {
	var keys [][]byte
	res := make([][]op, blocks)
	for b := range res {
		n := 1 + r.IntN(maxOps)
		for range n {
			var k []byte
			if len(keys) > 0 && r.IntN(3) > 0 {
				k = keys[r.IntN(len(keys))]
			} else {
				k = genKey(r)
				keys = append(keys, k)
			}
			if r.IntN(3) == 0 {
				res[b] = append(res[b], op{key: k})
			} else {
				res[b] = append(res[b], op{key: k, value: genValue(r)})
			}
		}
	}
	return res
}

// netChanges returns the net effect of a block: the last change per key.
func netChanges(ops []op) map[string][]byte {
	m := map[string][]byte{}
	for _, o := range ops {
		m[string(o.key)] = o.value
	}
	return m
}

func applyOp(t *testing.T, tr *Trie, o op) bool {
	t.Helper()
	if o.value == nil {
		ok, err := tr.Delete(o.key)
		if err != nil {
			t.Fatalf("delete %x: %v", o.key, err)
		}
		return ok
	}
	if err := tr.Put(o.key, o.value); err != nil {
		t.Fatalf("put %x: %v", o.key, err)
	}
	return true
}

// TestPropertyRandom applies random blocks of changes three ways (one by
// one, as a batch of the block's net effect, and that net effect one by
// one in shuffled order) in every storage mode, and checks after each block
// that all give the root of an independent builder, that the stored trie
// keeps its invariants and holds exactly the expected keys, and, in RC
// modes, that the store holds exactly the reachable nodes with their
// occurrence counts.
func TestPropertyRandom(t *testing.T) {
	seeds := 30
	if testing.Short() {
		seeds = 5
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 0x6d7074))
		blocks := genBlocks(r, 25, 40)
		for _, mode := range []Mode{ModeAll, ModeLatest, ModeGC} {
			t.Run(fmt.Sprintf("seed%d/%s", seed, mode), func(t *testing.T) {
				runProperty(t, r, mode, blocks)
			})
		}
	}
}

func runProperty(t *testing.T, r *rand.Rand, mode Mode, blocks [][]op) {
	stores := [3]*storage.MemoryStore{storage.NewMemoryStore(), storage.NewMemoryStore(), storage.NewMemoryStore()}
	var tries [3]*Trie
	for i := range tries {
		tries[i] = NewTrie(hash.Uint256{}, mode, stores[i])
	}
	ref := map[string][]byte{}
	for height, ops := range blocks {
		// 0: one by one, with a StateRoot now and then mid-block.
		for _, o := range ops {
			_, had := ref[string(o.key)]
			if ok := applyOp(t, tries[0], o); o.value == nil && ok != had {
				t.Fatalf("delete %x reported %v, key present: %v", o.key, ok, had)
			}
			if o.value == nil {
				delete(ref, string(o.key))
			} else {
				ref[string(o.key)] = o.value
			}
			if r.IntN(8) == 0 {
				tries[0].StateRoot()
			}
		}
		net := netChanges(ops)
		// 1: the net effect as one batch.
		b, err := MapToBatch(net, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tries[1].PutBatch(b); err != nil {
			t.Fatal(err)
		}
		// 2: the net effect one by one, shuffled.
		shuffled := make([]op, 0, len(net))
		for k, v := range net {
			shuffled = append(shuffled, op{[]byte(k), v})
		}
		slices.SortFunc(shuffled, func(a, b op) int { return bytes.Compare(a.key, b.key) })
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, o := range shuffled {
			applyOp(t, tries[2], o)
		}

		want := refRoot(ref)
		for i, tr := range tries {
			if err := tr.Flush(uint32(height)); err != nil {
				t.Fatalf("trie %d flush: %v", i, err)
			}
			if got := tr.StateRoot(); got != want {
				t.Fatalf("block %d: trie %d root %s, reference %s", height, i, got, want)
			}
			var res checkResult
			if mode.RC() {
				res = checkRefCounts(t, stores[i], mode, want)
			} else {
				res = checkTrie(t, stores[i], mode, want)
			}
			if len(res.kv) != len(ref) {
				t.Fatalf("block %d: trie %d holds %d keys, want %d", height, i, len(res.kv), len(ref))
			}
			for k, v := range ref {
				if got, ok := res.kv[k]; !ok || !bytes.Equal(got, v) {
					t.Fatalf("block %d: trie %d key %x = %x, want %x", height, i, k, got, v)
				}
			}
			d := r.IntN(4)
			tr.Collapse(d)
			if got := memDepth(tr.root); got > d {
				t.Fatalf("block %d: trie %d keeps nodes at depth %d after Collapse(%d)", height, i, got, d)
			}
		}
		if mode.GC() && height%5 == 4 {
			for i := range stores {
				if _, err := CollectGarbage(stores[i], uint32(height)); err != nil {
					t.Fatal(err)
				}
				checkRefCounts(t, stores[i], mode, want)
			}
		}
		checkReads(t, r, tries[0], ref)
	}
	// Identical histories give byte-identical stores in RC modes (the
	// stored counts do not depend on how changes were applied).
	if mode == ModeLatest {
		for i := 1; i < 3; i++ {
			if !sameStore(stores[0], stores[i]) {
				t.Errorf("store %d differs from store 0", i)
			}
		}
	}
}

// memDepth returns the depth of the deepest node other than a hash node
// kept in memory below n (-1 if n is a hash node or empty).
func memDepth(n *Node) int {
	if n == nil || n.typ == HashT {
		return -1
	}
	d := 0
	switch n.typ {
	case BranchT:
		for _, c := range n.kids {
			if cd := memDepth(c); cd+1 > d {
				d = cd + 1
			}
		}
	case ExtensionT:
		if nd := memDepth(n.next); nd+1 > d {
			d = nd + 1
		}
	}
	return d
}

// checkReads compares Get, Find and Seek on tr with the reference map.
func checkReads(t *testing.T, r *rand.Rand, tr *Trie, ref map[string][]byte) {
	t.Helper()
	keys := make([]string, 0, len(ref))
	for k := range ref {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for range 10 {
		k := genKey(r)
		got, err := tr.Get(k)
		if want, ok := ref[string(k)]; ok {
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("get %x: %x %v, want %x", k, got, err, want)
			}
		} else if err != ErrNotFound {
			t.Fatalf("get %x: %x %v, want not found", k, got, err)
		}
	}
	for range 10 {
		prefix := genPrefix(r)
		var from []byte
		if r.IntN(2) == 0 {
			from = genPrefix(r)
		}
		limit := 1 + r.IntN(8)
		var want []string
		for _, k := range keys {
			if len(want) == limit {
				break
			}
			if !bytes.HasPrefix([]byte(k), prefix) {
				continue
			}
			if from != nil && k <= string(prefix)+string(from) {
				continue
			}
			want = append(want, k)
		}
		res, err := tr.Find(prefix, from, limit)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, kv := range res {
			got = append(got, string(kv.Key))
			if !bytes.Equal(kv.Value, ref[string(kv.Key)]) {
				t.Fatalf("find value of %x", kv.Key)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("find(%x, %x, %d) = %x, want %x", prefix, from, limit, got, want)
		}
		// Seek backwards from prefix+from (inclusive, with every key that
		// extends it, as storage.SeekRange defines), or from the end.
		want = want[:0]
		bound := string(prefix) + string(from)
		for i := len(keys) - 1; i >= 0; i-- {
			k := keys[i]
			if !bytes.HasPrefix([]byte(k), prefix) ||
				len(from) > 0 && k > bound && !strings.HasPrefix(k, bound) {
				continue
			}
			want = append(want, k)
		}
		got = got[:0]
		if err := tr.Seek(prefix, from, true, func(k, _ []byte) bool {
			got = append(got, string(k))
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seek back(%x, %x) = %x, want %x", prefix, from, got, want)
		}
	}
}

func sameStore(a, b storage.Store) bool {
	dump := func(s storage.Store) map[string]string {
		m := map[string]string{}
		s.Seek(storage.SeekRange{}, func(k, v []byte) bool { m[string(k)] = string(v); return true })
		return m
	}
	da, db := dump(a), dump(b)
	if len(da) != len(db) {
		return false
	}
	for k, v := range da {
		if db[k] != v {
			return false
		}
	}
	return true
}

// TestPropertyLargeBatch builds tries of a few thousand random keys in
// batches and compares with the reference builder.
func TestPropertyLargeBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	ref := map[string][]byte{}
	st := storage.NewMemoryStore()
	tr := NewTrie(hash.Uint256{}, ModeLatest, st)
	var all []string
	for height := range 6 {
		changes := map[string][]byte{}
		for range 1500 {
			if len(all) > 0 && r.IntN(4) == 0 {
				k := all[r.IntN(len(all))]
				changes[k] = nil
				continue
			}
			k := make([]byte, 4+r.IntN(12))
			for i := range k {
				k[i] = byte(r.UintN(256))
			}
			k[0] = byte(r.IntN(3)) // a few "contracts"
			changes[string(k)] = []byte{byte(r.IntN(5))}
			all = append(all, string(k))
		}
		for k, v := range changes {
			if v == nil {
				delete(ref, k)
			} else {
				ref[k] = v
			}
		}
		b, err := MapToBatch(changes, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.PutBatch(b); err != nil {
			t.Fatal(err)
		}
		if err := tr.Flush(uint32(height)); err != nil {
			t.Fatal(err)
		}
		want := refRoot(ref)
		if got := tr.StateRoot(); got != want {
			t.Fatalf("height %d: root %s, reference %s", height, got, want)
		}
		res := checkRefCounts(t, st, ModeLatest, want)
		if len(res.kv) != len(ref) {
			t.Fatalf("%d keys stored, want %d", len(res.kv), len(ref))
		}
		tr.Collapse(DefaultCollapseDepth)
		if got := memDepth(tr.root); got > DefaultCollapseDepth {
			t.Fatalf("nodes at depth %d kept", got)
		}
		// Read some keys so the next blocks start from a partly loaded trie.
		for i := range 50 {
			tr.Get([]byte(all[i*7%len(all)]))
		}
	}
}

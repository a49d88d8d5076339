package mpt

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// hashLE parses a "0x"-prefixed reversed-hex hash; "" or "null" is zero.
func hashLE(t testing.TB, s string) hash.Uint256 {
	t.Helper()
	if s == "" || s == "null" {
		return hash.Uint256{}
	}
	if len(s) > 2 && s[:2] == "0x" {
		s = s[2:]
	}
	h, err := hash.Uint256DecodeStringLE(s)
	if err != nil {
		t.Fatalf("bad hash %q: %v", s, err)
	}
	return h
}

// checkResult is what checkTrie learns from walking a flushed trie.
type checkResult struct {
	kv          map[string][]byte    // every key and value
	occurrences map[hash.Uint256]int // times each node occurs in the tree
}

// checkTrie walks the trie at root in store, loading every node, and fails
// the test if a stored node's hash is wrong or a structural invariant is
// broken: a branch has fewer than two children or a non-leaf in slot 16;
// an extension has an empty or over-long key or is followed by an
// extension or nothing; a key is longer than MaxKeyLength or has an odd
// number of nibbles.
func checkTrie(t testing.TB, store storage.Store, mode Mode, root hash.Uint256) checkResult {
	t.Helper()
	res := checkResult{kv: map[string][]byte{}, occurrences: map[hash.Uint256]int{}}
	if root.IsZero() {
		return res
	}
	var walk func(h hash.Uint256, path []byte, parent NodeType) NodeType
	walk = func(h hash.Uint256, path []byte, parent NodeType) NodeType {
		data, err := store.Get(NodeKey(h))
		if err != nil {
			t.Fatalf("node %s at path %x: %v", h, path, err)
		}
		if mode.RC() {
			if len(data) < 6 || data[len(data)-5] != 1 {
				t.Fatalf("node %s: bad RC suffix in %x", h, data)
			}
			data = data[:len(data)-5]
		}
		if got := hash.Hash256(data); got != h {
			t.Fatalf("node stored under %s hashes to %s", h, got)
		}
		n, err := DecodeNode(data)
		if err != nil {
			t.Fatalf("node %s: %v", h, err)
		}
		res.occurrences[h]++
		switch n.Type() {
		case LeafT:
			if len(path)%2 != 0 || len(path) == 0 || len(path) > MaxPathLength {
				t.Fatalf("leaf at bad path %x", path)
			}
			res.kv[string(fromNibbles(nil, path))] = n.Value()
		case ExtensionT:
			if parent == ExtensionT {
				t.Fatalf("extension under extension at %x", path)
			}
			if len(n.Key()) == 0 || len(path)+len(n.Key()) > MaxPathLength {
				t.Fatalf("extension with key %x at %x", n.Key(), path)
			}
			if n.Next() == nil {
				t.Fatalf("extension to nothing at %x", path)
			}
			if walk(n.Next().Hash(), append(bytes.Clone(path), n.Key()...), ExtensionT) == ExtensionT {
				t.Fatalf("extension followed by extension at %x", path)
			}
		case BranchT:
			cnt := 0
			for i := range BranchChildCount {
				c := n.Child(i)
				if c == nil {
					continue
				}
				cnt++
				p := bytes.Clone(path)
				if i < 16 {
					p = append(p, byte(i))
				}
				typ := walk(c.Hash(), p, BranchT)
				if i == 16 && typ != LeafT {
					t.Fatalf("branch at %x holds a %s as value", path, typ)
				}
			}
			if cnt < 2 {
				t.Fatalf("branch with %d children at %x", cnt, path)
			}
		default:
			t.Fatalf("stored node of type %s", n.Type())
		}
		return n.Type()
	}
	walk(root, nil, BranchT)
	return res
}

// checkRefCounts fails unless store holds exactly the nodes reachable from
// root, each with a reference count equal to its occurrences (RC modes),
// and no other MPT node (dead nodes are allowed in ModeGC).
func checkRefCounts(t testing.TB, store storage.Store, mode Mode, root hash.Uint256) checkResult {
	t.Helper()
	res := checkTrie(t, store, mode, root)
	seen := 0
	store.Seek(storage.SeekRange{Prefix: []byte{NodePrefix}}, func(k, v []byte) bool {
		var h hash.Uint256
		copy(h[:], k[1:])
		if mode.GC() && v[len(v)-5] == 0 {
			if res.occurrences[h] != 0 {
				t.Errorf("node %s is dead but reachable", h)
			}
			return true
		}
		seen++
		want := res.occurrences[h]
		if want == 0 {
			t.Errorf("stored node %s is not reachable", h)
			return true
		}
		if got := int(binary.LittleEndian.Uint32(v[len(v)-4:])); got != want {
			t.Errorf("node %s: refcount %d, occurs %d times", h, got, want)
		}
		return true
	})
	if seen != len(res.occurrences) {
		t.Errorf("store holds %d live nodes, %d reachable", seen, len(res.occurrences))
	}
	return res
}

// refRoot computes the root hash of a key-value set from scratch with a
// deliberately naive, independent builder: encodings are assembled by hand
// and hashed with crypto/sha256; no code of the package is used.
func refRoot(kv map[string][]byte) hash.Uint256 {
	if len(kv) == 0 {
		return hash.Uint256{}
	}
	type item struct {
		path  []byte
		value []byte
	}
	items := make([]item, 0, len(kv))
	for k, v := range kv {
		var p []byte
		for i := 0; i < len(k); i++ {
			p = append(p, k[i]/16, k[i]%16)
		}
		items = append(items, item{p, v})
	}
	sort.Slice(items, func(i, j int) bool { return bytes.Compare(items[i].path, items[j].path) < 0 })
	h256 := func(b []byte) []byte {
		a := sha256.Sum256(b)
		c := sha256.Sum256(a[:])
		return c[:]
	}
	varint := func(n int) []byte {
		if n < 0xfd {
			return []byte{byte(n)}
		}
		return []byte{0xfd, byte(n), byte(n >> 8)}
	}
	var node func(items []item, depth int) []byte // returns the node hash
	node = func(items []item, depth int) []byte {
		if len(items) == 1 && len(items[0].path) == depth {
			enc := append([]byte{2}, varint(len(items[0].value))...)
			return h256(append(enc, items[0].value...))
		}
		// longest prefix shared by all items past depth
		common := 0
	outer:
		for {
			for _, it := range items {
				if len(it.path) <= depth+common || it.path[depth+common] != items[0].path[depth+common] {
					break outer
				}
			}
			common++
		}
		if common > 0 {
			enc := append([]byte{1}, varint(common)...)
			enc = append(enc, items[0].path[depth:depth+common]...)
			enc = append(enc, 3)
			return h256(append(enc, node(items, depth+common)...))
		}
		enc := []byte{0}
		for slot := 0; slot <= 16; slot++ {
			var sub []item
			for _, it := range items {
				if slot == 16 && len(it.path) == depth || slot < 16 && len(it.path) > depth && int(it.path[depth]) == slot {
					sub = append(sub, it)
				}
			}
			if len(sub) == 0 {
				enc = append(enc, 4)
				continue
			}
			next := depth + 1
			if slot == 16 {
				next = depth
			}
			enc = append(enc, 3)
			enc = append(enc, node(sub, next)...)
		}
		return h256(enc)
	}
	var r hash.Uint256
	copy(r[:], node(items, 0))
	return r
}

// nodeCount returns the number of MPT nodes in store.
func nodeCount(store storage.Store) int {
	n := 0
	store.Seek(storage.SeekRange{Prefix: []byte{NodePrefix}}, func(_, _ []byte) bool { n++; return true })
	return n
}

func kvString(kvs []KeyValue) string {
	var b bytes.Buffer
	for _, kv := range kvs {
		fmt.Fprintf(&b, "%x=%x ", kv.Key, kv.Value)
	}
	return b.String()
}

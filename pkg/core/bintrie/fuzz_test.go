package bintrie_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core/bintrie"
	"github.com/n3node/n3node/pkg/core/storage"
)

// FuzzDecodeNode feeds untrusted bytes to the decoder and to a tree that
// loads them as its root: errors are fine, panics are not, and whatever
// decodes re-encodes to the same bytes.
func FuzzDecodeNode(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 3})
	f.Add(append([]byte{2, 1}, make([]byte, 32)...))
	f.Add(append([]byte{1}, make([]byte, 63)...))
	f.Fuzz(func(t *testing.T, blob []byte) {
		n, err := bintrie.DecodeNode(blob)
		if err != nil {
			if !errors.Is(err, bintrie.ErrInvalidNode) {
				t.Fatalf("error %v does not wrap ErrInvalidNode", err)
			}
		} else if re := reencode(&n); !bytes.Equal(re, blob) {
			t.Fatalf("re-encoding %x gives %x", blob, re)
		}

		// Load the blob as a root node, with the root hash it should have
		// (so loading gets past verification) and with a wrong one.
		st := storage.NewMemoryStore()
		if err := st.PutChangeSet(map[string][]byte{string(bintrie.NodeKey(&bintrie.Stem{}, 0)): blob}); err != nil {
			t.Fatal(err)
		}
		roots := []bintrie.Hash{sha256.Sum256(blob)}
		if err == nil {
			roots = append(roots, nodeHash(&n))
		}
		for j, root := range append(roots, roots...) {
			trust := j >= len(roots) // the second round skips verification
			tr, err := bintrie.Open(st, root, bintrie.Options{TrustStore: trust})
			if err != nil {
				continue
			}
			if tr.Hash() != root {
				t.Fatalf("opened root %x, want %x", tr.Hash(), root)
			}
			var k bintrie.Key
			if n.Kind == bintrie.NodeStem {
				copy(k[:], n.Stem[:])
			}
			for _, sub := range []byte{0, 1, 128, 255} {
				k[31] = sub
				v, ok, err := tr.Get(k)
				if n.Kind != bintrie.NodeStem || trust {
					continue // children are not in the store, or the root is wrong
				}
				if err != nil {
					t.Fatalf("get from a stem root: %v", err)
				}
				if ok != n.Has(sub) || ok && !bytes.Equal(v[:], n.Value(sub)) {
					t.Fatalf("get slot %d = %x %v", sub, v, ok)
				}
			}
			_, _, _ = tr.Get(bintrie.Key{0xff})
			_ = tr.Put(bintrie.Key{0x7f}, bintrie.Value{1})
			_ = tr.Hash()
			_, _ = tr.Commit()
		}
	})
}

func reencode(n *bintrie.DecodedNode) []byte {
	switch n.Kind {
	case bintrie.NodeInternal:
		out := []byte{byte(bintrie.NodeInternal), 0}
		for b := range 2 {
			if n.Present[b] {
				out[1] |= 1 << b
				out = append(out, n.Children[b][:]...)
			}
		}
		return out
	case bintrie.NodeStem:
		out := append([]byte{byte(bintrie.NodeStem)}, n.Stem[:]...)
		var bm [32]byte
		var vals []byte
		for s := range 256 {
			if n.Has(byte(s)) {
				bm[s/8] |= 0x80 >> (s % 8)
				vals = append(vals, n.Value(byte(s))...)
			}
		}
		return append(append(out, bm[:]...), vals...)
	}
	return nil
}

// nodeHash computes a decoded node's hash with the model's rules.
func nodeHash(n *bintrie.DecodedNode) bintrie.Hash {
	if n.Kind == bintrie.NodeInternal {
		return sha256.Sum256(append(n.Children[0][:], n.Children[1][:]...))
	}
	var slots [256]*bintrie.Value
	for s := range 256 {
		if n.Has(byte(s)) {
			v := bintrie.Value(n.Value(byte(s)))
			slots[s] = &v
		}
	}
	return modelStemHash(n.Stem, &slots)
}

// FuzzTree decodes bytes into operations over a collision-heavy key pool
// and checks the tree against the naive model, with hashing, commits,
// reopening and copies in between.
func FuzzTree(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add(bytes.Repeat([]byte{0x31, 0x42, 0x07, 0xfe, 0x99}, 20))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		tr := bintrie.New(bintrie.Options{})
		st := storage.NewMemoryStore()
		m := newModel()
		var keys []bintrie.Key
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		for len(data) > 0 {
			op := next()
			var k bintrie.Key
			switch {
			case len(keys) == 0 || op&7 == 0:
				k = bintrie.Key(sha256.Sum256([]byte{next(), next()}))
			case op&7 == 1:
				k = keys[int(next())%len(keys)]
				k[31] = next()
			case op&7 == 2:
				k = keys[int(next())%len(keys)]
				p := int(next()) % bintrie.MaxDepth
				k[p/8] ^= 0x80 >> (p % 8)
			default:
				k = keys[int(next())%len(keys)]
			}
			keys = append(keys, k)
			switch op >> 5 {
			case 0:
				if err := tr.Delete(k); err != nil {
					t.Fatal(err)
				}
				m.put(k, bintrie.Value{})
			case 1:
				got, ok, err := tr.Get(k)
				want, wok := m.get(k)
				if err != nil || ok != wok || got != want {
					t.Fatalf("get %x = %x %v %v, model %x %v", k, got, ok, err, want, wok)
				}
			case 2:
				if got, want := tr.Hash(), m.root(); got != want {
					t.Fatalf("root %x, model %x", got, want)
				}
			case 3:
				root, ch := tr.Commit()
				if err := st.PutChangeSet(ch); err != nil {
					t.Fatal(err)
				}
				var err error
				if tr, err = bintrie.Open(st, root, bintrie.Options{}); err != nil {
					t.Fatal(err)
				}
			case 4:
				tr = tr.Copy()
			default:
				v := bintrie.Value{next(), op}
				if err := tr.Put(k, v); err != nil {
					t.Fatal(err)
				}
				m.put(k, v)
			}
		}
		if got, want := tr.Hash(), m.root(); got != want {
			t.Fatalf("final root %x, model %x", got, want)
		}
	})
}

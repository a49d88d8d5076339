package bintrie_test

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/n3node/n3node/pkg/core/bintrie"
	"github.com/n3node/n3node/pkg/core/storage"
)

// benchKeys returns n seeded keys (one per stem) and values.
func benchKeys(n int) ([]bintrie.Key, []bintrie.Value) {
	keys := make([]bintrie.Key, n)
	vals := make([]bintrie.Value, n)
	for i := range n {
		keys[i] = sha256.Sum256(binary.BigEndian.AppendUint64([]byte("bench"), uint64(i)))
		vals[i] = sha256.Sum256(binary.BigEndian.AppendUint64([]byte("value"), uint64(i)))
	}
	return keys, vals
}

func benchTree(b *testing.B, keys []bintrie.Key, vals []bintrie.Value) *bintrie.Tree {
	t := bintrie.New(bintrie.Options{})
	for i := range keys {
		if err := t.Put(keys[i], vals[i]); err != nil {
			b.Fatal(err)
		}
	}
	return t
}

func BenchmarkInsert100k(b *testing.B) {
	keys, vals := benchKeys(100_000)
	b.ReportAllocs()
	for b.Loop() {
		benchTree(b, keys, vals)
	}
}

func BenchmarkHash100k(b *testing.B) {
	keys, vals := benchKeys(100_000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		t := benchTree(b, keys, vals)
		b.StartTimer()
		t.Hash()
	}
}

func BenchmarkCommit100k(b *testing.B) {
	keys, vals := benchKeys(100_000)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		t := benchTree(b, keys, vals)
		t.Hash()
		b.StartTimer()
		t.Commit()
	}
}

func BenchmarkSparseWrite10k(b *testing.B) {
	keys, vals := benchKeys(10_000)
	t := benchTree(b, keys, vals)
	t.Commit()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		j := (i * 7919) % len(keys)
		v := vals[(j+1)%len(vals)]
		v[0] = byte(i)
		if err := t.Put(keys[j], v); err != nil {
			b.Fatal(err)
		}
		t.Hash()
		t.Commit()
		i++
	}
}

func BenchmarkGet100k(b *testing.B) {
	keys, vals := benchKeys(100_000)
	t := benchTree(b, keys, vals)
	t.Hash()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, _, err := t.Get(keys[(i*7919)%len(keys)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkGetCold100k reads from a tree reopened from a MemoryStore, so
// most Gets load nodes, with and without verifying loaded nodes.
func BenchmarkGetCold100k(b *testing.B) {
	for _, trust := range []bool{false, true} {
		name := map[bool]string{false: "verify", true: "trust"}[trust]
		b.Run(name, func(b *testing.B) { benchGetCold(b, bintrie.Options{TrustStore: trust}) })
	}
}

func benchGetCold(b *testing.B, opts bintrie.Options) {
	keys, vals := benchKeys(100_000)
	t := benchTree(b, keys, vals)
	root, ch := t.Commit()
	st := storage.NewMemoryStore()
	if err := st.PutChangeSet(ch); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	var re *bintrie.Tree
	for b.Loop() {
		if i%len(keys) == 0 {
			b.StopTimer()
			re, _ = bintrie.Open(st, root, opts)
			b.StartTimer()
		}
		if _, _, err := re.Get(keys[(i*7919)%len(keys)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkStemHash(b *testing.B) {
	for _, fill := range []int{1, 16, 256} {
		b.Run(map[int]string{1: "1value", 16: "16values", 256: "256values"}[fill], func(b *testing.B) {
			t := bintrie.New(bintrie.Options{})
			var k bintrie.Key
			for s := range fill {
				k[31] = byte(s * (256 / fill))
				_ = t.Put(k, bintrie.Value{byte(s)})
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				k[31] = 0
				_ = t.Put(k, bintrie.Value{byte(i), 1})
				t.Hash()
				i++
			}
		})
	}
}

var sinkHash [32]byte

// BenchmarkSHA256 compares sha256.Sum256 with a reused hasher on the
// 64-byte input that dominates tree hashing.
func BenchmarkSHA256(b *testing.B) {
	var in [64]byte
	b.Run("Sum256", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkHash = sha256.Sum256(in[:])
			in[0]++
		}
	})
	b.Run("Reused", func(b *testing.B) {
		h := sha256.New()
		out := make([]byte, 0, 32)
		b.ReportAllocs()
		for b.Loop() {
			h.Reset()
			h.Write(in[:])
			out = h.Sum(out[:0])
			in[0]++
		}
		sinkHash = [32]byte(out)
	})
}

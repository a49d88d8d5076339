package mpt

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// benchState returns n contract-storage items shaped like chain state: a
// handful of contract ids, 20-byte storage keys, 8..40-byte values.
func benchState(r *rand.Rand, n int) map[string][]byte {
	m := make(map[string][]byte, n)
	for len(m) < n {
		m[string(benchKey(r))] = benchValue(r)
	}
	return m
}

func benchKey(r *rand.Rand) []byte {
	k := make([]byte, 4+20)
	k[0] = byte(r.IntN(16))
	for i := 4; i < len(k); i++ {
		k[i] = byte(r.UintN(256))
	}
	return k
}

func benchValue(r *rand.Rand) []byte {
	v := make([]byte, 8+r.IntN(33))
	for i := range v {
		v[i] = byte(r.UintN(256))
	}
	return v
}

// cpuMeter reports the process CPU time per operation of a benchmark as
// the metric cpu-ns/op.
type cpuMeter struct {
	b     *testing.B
	start int64
}

func startCPU(b *testing.B) *cpuMeter { return &cpuMeter{b, processCPU()} }

// pause and resume exclude setup from the measure, like StopTimer and
// StartTimer.
func (m *cpuMeter) pause()  { m.start -= processCPU() }
func (m *cpuMeter) resume() { m.start += processCPU() }

func (m *cpuMeter) report() {
	if m.b.N > 0 {
		m.b.ReportMetric(float64(processCPU()-m.start)/float64(m.b.N), "cpu-ns/op")
	}
}

// BenchmarkBatch100k applies 100,000 random puts to an empty trie as one
// batch and flushes it to a MemoryStore.
func BenchmarkBatch100k(b *testing.B) {
	kv := benchState(rand.New(rand.NewPCG(1, 1)), 100_000)
	for _, mode := range []Mode{ModeAll, ModeLatest} {
		b.Run(mode.String(), func(b *testing.B) {
			b.ReportAllocs()
			cpu := startCPU(b)
			defer cpu.report()
			for b.Loop() {
				st := storage.NewMemoryStore()
				tr := NewTrie(hash.Uint256{}, mode, st)
				batch, err := MapToBatch(kv, 0)
				if err != nil {
					b.Fatal(err)
				}
				if err := tr.PutBatch(batch); err != nil {
					b.Fatal(err)
				}
				if err := tr.Flush(0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBlock1kOn1M applies block-sized batches (1,000 changes: 60%
// updates, 30% new keys, 10% deletes) to a trie of 1,000,000 keys, each
// followed by StateRoot, Flush and Collapse as the ledger does per block,
// for several collapse depths. The trie is built once, outside the timer,
// and 20 blocks warm each depth up before timing.
func BenchmarkBlock1kOn1M(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	kv := benchState(r, 1_000_000)
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	st := storage.NewMemoryStore()
	tr := NewTrie(hash.Uint256{}, ModeLatest, st)
	batch, _ := MapToBatch(kv, 0)
	if err := tr.PutBatch(batch); err != nil {
		b.Fatal(err)
	}
	if err := tr.Flush(0); err != nil {
		b.Fatal(err)
	}
	kv, batch = nil, Batch{}
	height := uint32(1)
	apply := func(b *testing.B, changes map[string][]byte, depth int) {
		batch, err := MapToBatch(changes, 0)
		if err != nil {
			b.Fatal(err)
		}
		if err := tr.PutBatch(batch); err != nil {
			b.Fatal(err)
		}
		tr.StateRoot()
		if err := tr.Flush(height); err != nil {
			b.Fatal(err)
		}
		tr.Collapse(depth)
		height++
	}
	for _, depth := range []int{4, 6, DefaultCollapseDepth} {
		b.Run(fmt.Sprintf("collapse=%d", depth), func(b *testing.B) {
			tr.Collapse(0)
			for range 20 {
				apply(b, blockChanges(r, &keys), depth)
			}
			b.ReportAllocs()
			cpu := startCPU(b)
			defer cpu.report()
			for b.Loop() {
				b.StopTimer()
				cpu.pause()
				changes := blockChanges(r, &keys)
				cpu.resume()
				b.StartTimer()
				apply(b, changes, depth)
			}
		})
	}
}

// blockChanges draws 1,000 changes against the keys of a benchmark state.
func blockChanges(r *rand.Rand, keys *[]string) map[string][]byte {
	changes := make(map[string][]byte, 1000)
	for len(changes) < 1000 {
		switch x := r.IntN(10); {
		case x < 6:
			changes[(*keys)[r.IntN(len(*keys))]] = benchValue(r)
		case x < 9:
			k := string(benchKey(r))
			*keys = append(*keys, k)
			changes[k] = benchValue(r)
		default:
			changes[(*keys)[r.IntN(len(*keys))]] = nil
		}
	}
	return changes
}

// BenchmarkGetProof gets proofs of random keys of a 100,000-key trie: from
// a trie opened at the root for each proof (as the RPC server does), and
// from one long-lived trie that keeps loaded nodes.
func BenchmarkGetProof(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	kv := benchState(r, 100_000)
	keys := make([][]byte, 0, len(kv))
	for k := range kv {
		keys = append(keys, []byte(k))
	}
	st, root := buildTrie(b, ModeAll, kv)
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		cpu := startCPU(b)
		defer cpu.report()
		i := 0
		for b.Loop() {
			if _, err := NewTrie(root, ModeAll, st).GetProof(keys[i%len(keys)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("cached", func(b *testing.B) {
		tr := NewTrie(root, ModeAll, st)
		b.ReportAllocs()
		cpu := startCPU(b)
		defer cpu.report()
		i := 0
		for b.Loop() {
			if _, err := tr.GetProof(keys[i%len(keys)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("verify", func(b *testing.B) {
		proof, _ := NewTrie(root, ModeAll, st).GetProof(keys[0])
		b.ReportAllocs()
		for b.Loop() {
			if _, err := VerifyProof(root, keys[0], proof); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGet reads random keys of a 100,000-key trie kept in memory.
func BenchmarkGet(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	kv := benchState(r, 100_000)
	keys := make([][]byte, 0, len(kv))
	for k := range kv {
		keys = append(keys, []byte(k))
	}
	st, root := buildTrie(b, ModeAll, kv)
	tr := NewTrie(root, ModeAll, st)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := tr.Get(keys[i%len(keys)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

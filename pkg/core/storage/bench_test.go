package storage_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
)

// benchKey returns a node-like key: a prefix byte and a 32-byte hash.
func benchKey(prefix byte, i uint64) []byte {
	k := make([]byte, 33)
	k[0] = prefix
	r := rand.New(rand.NewPCG(i, uint64(prefix)))
	for j := 1; j < 33; j += 8 {
		binary.LittleEndian.PutUint64(k[j:], r.Uint64())
	}
	return k
}

var benchValue = bytes.Repeat([]byte{0xab}, 100)

// sortOnSeekStore is the baseline the ordered MemoryStore is measured
// against: a plain map whose Seek collects the matching keys and sorts them
// on every call (what neo-go 0.120.0's MemoryStore does).
type sortOnSeekStore struct{ m map[string][]byte }

func (s *sortOnSeekStore) Seek(rng storage.SeekRange, f func(k, v []byte) bool) {
	type pair struct{ k, v []byte }
	var list []pair
	for k, v := range s.m {
		if storagetest.InRange(rng, k) {
			list = append(list, pair{[]byte(k), v})
		}
	}
	slices.SortFunc(list, func(a, b pair) int { return bytes.Compare(a.k, b.k) })
	if rng.Backwards {
		slices.Reverse(list)
	}
	for _, p := range list {
		if !f(p.k, p.v) {
			return
		}
	}
}

type seeker interface {
	Seek(storage.SeekRange, func(k, v []byte) bool)
}

// BenchmarkMemorySeek walks 10,000 keys with prefix 0x70 among 100,000.
// "static" seeks an unchanged store; "after-put" writes one new key before
// every seek, which costs the ordered index a merge.
func BenchmarkMemorySeek(b *testing.B) {
	const matching, total = 10000, 100000
	fill := func(put func(k, v []byte)) {
		for i := range uint64(total) {
			p := byte(0x01)
			if i < matching {
				p = 0x70
			}
			put(benchKey(p, i), benchValue)
		}
	}
	ordered := storage.NewMemoryStore()
	fill(func(k, v []byte) { _ = ordered.PutChangeSet(map[string][]byte{string(k): v}) })
	baseline := &sortOnSeekStore{m: map[string][]byte{}}
	fill(func(k, v []byte) { baseline.m[string(k)] = v })
	rng := storage.SeekRange{Prefix: []byte{0x70}}
	for _, c := range []struct {
		name string
		s    seeker
		put  func(k []byte)
	}{
		{"ordered", ordered, func(k []byte) { _ = ordered.PutChangeSet(map[string][]byte{string(k): benchValue}) }},
		{"sort-on-seek", baseline, func(k []byte) { baseline.m[string(k)] = benchValue }},
	} {
		for _, mode := range []string{"static", "after-put"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				i := uint64(total)
				for b.Loop() {
					if mode == "after-put" {
						i++
						c.put(benchKey(0x70, i))
					}
					n := 0
					c.s.Seek(rng, func(k, v []byte) bool { n++; return true })
					if n < matching {
						b.Fatalf("walked %d keys", n)
					}
				}
			})
		}
	}
}

// openBenchStore opens a backend with its production defaults.
func openBenchStore(b *testing.B, e storage.Engine) storage.Store {
	b.Helper()
	if e == storage.EngineMemory {
		return storage.NewMemoryStore()
	}
	s, err := storage.Open(storage.Options{Engine: e, Path: diskPath(b, e)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

var benchEngines = []storage.Engine{storage.EngineMemory, storage.EnginePebble, storage.EngineBolt, storage.EngineLevelDB}

// BenchmarkGet reads random keys of a 100,000-key store: present (hit) and
// absent (miss). "written" reads right after the writes (for the LSM engines
// the data is still in the memtable); "reopened" reads after a close and
// reopen, which moves it into tables.
func BenchmarkGet(b *testing.B) {
	const n = 100000
	for _, e := range benchEngines {
		for _, phase := range []string{"written", "reopened"} {
			if e == storage.EngineMemory && phase == "reopened" {
				continue
			}
			b.Run(string(e)+"/"+phase, func(b *testing.B) {
				path := diskPath(b, e)
				open := func() storage.Store {
					if e == storage.EngineMemory {
						return storage.NewMemoryStore()
					}
					s, err := storage.Open(storage.Options{Engine: e, Path: path})
					if err != nil {
						b.Fatal(err)
					}
					return s
				}
				s := open()
				for start := uint64(0); start < n; start += 10000 {
					cs := make(map[string][]byte, 10000)
					for i := start; i < start+10000; i++ {
						cs[string(benchKey(0x70, i))] = benchValue
					}
					if err := s.PutChangeSet(cs); err != nil {
						b.Fatal(err)
					}
				}
				if phase == "reopened" {
					if err := s.Close(); err != nil {
						b.Fatal(err)
					}
					s = open()
				}
				b.Cleanup(func() { _ = s.Close() })
				for _, mode := range []string{"hit", "miss"} {
					b.Run(mode, func(b *testing.B) {
						b.ReportAllocs()
						keys := make([][]byte, 4096)
						for i := range keys {
							if mode == "hit" {
								keys[i] = benchKey(0x70, uint64(i*97)%n)
							} else {
								keys[i] = benchKey(0x71, uint64(i))
							}
						}
						i := 0
						for b.Loop() {
							_, err := s.Get(keys[i%len(keys)])
							if (err == nil) != (mode == "hit") {
								b.Fatalf("Get: %v", err)
							}
							i++
						}
					})
				}
			})
		}
	}
}

// BenchmarkPersist measures MemCachedStore.Persist of 10,000 and 100,000
// new keys (33-byte keys, 100-byte values) into each backend; filling the
// layer is not timed. The database grows by one change set per iteration.
func BenchmarkPersist(b *testing.B) {
	for _, e := range benchEngines {
		for _, n := range []int{10000, 100000} {
			b.Run(fmt.Sprintf("%s/%dk", e, n/1000), func(b *testing.B) {
				s := openBenchStore(b, e)
				c := storage.NewMemCachedStore(s)
				next := uint64(0)
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					for range n {
						c.Put(benchKey(0x70, next), benchValue)
						next++
					}
					b.StartTimer()
					if k, err := c.Persist(); err != nil || k != n {
						b.Fatalf("Persist = %d, %v", k, err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(next), "ns/key")
			})
		}
	}
}

// BenchmarkSeekTwoLayers walks a prefix through a per-transaction layer
// over a block layer over a store: 10,000 keys below, 1,000 changed in the
// block layer (a tenth of them deletions), 100 in the transaction layer.
func BenchmarkSeekTwoLayers(b *testing.B) {
	for _, e := range []storage.Engine{storage.EngineMemory, storage.EnginePebble} {
		b.Run(string(e), func(b *testing.B) {
			bottom := openBenchStore(b, e)
			cs := map[string][]byte{}
			for i := range uint64(10000) {
				cs[string(benchKey(0x70, i))] = benchValue
				cs[string(benchKey(0x01, i))] = benchValue
			}
			if err := bottom.PutChangeSet(cs); err != nil {
				b.Fatal(err)
			}
			block := storage.NewMemCachedStore(bottom)
			for i := range uint64(1000) {
				if i%10 == 0 {
					block.Delete(benchKey(0x70, i))
				} else {
					block.Put(benchKey(0x70, 20000+i), benchValue)
				}
			}
			tx := storage.NewPrivateMemCachedStore(block)
			for i := range uint64(100) {
				tx.Put(benchKey(0x70, 30000+i), benchValue)
			}
			rng := storage.SeekRange{Prefix: []byte{0x70}}
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				tx.Seek(rng, func(k, v []byte) bool { n++; return true })
				if n != 10000-100+900+100 {
					b.Fatalf("walked %d keys", n)
				}
			}
		})
	}
}

// BenchmarkTxLayer is the per-transaction pattern: create a private layer
// over the block layer, read 10 keys, write 5, merge it into the block.
func BenchmarkTxLayer(b *testing.B) {
	block := storage.NewMemCachedStore(storage.NewMemoryStore())
	for i := range uint64(1000) {
		block.Put(benchKey(0x70, i), benchValue)
	}
	keys := make([][]byte, 1000)
	for i := range keys {
		keys[i] = benchKey(0x70, uint64(i))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tx := storage.NewPrivateMemCachedStore(block)
		for j := range 10 {
			if _, err := tx.Get(keys[(i+j*7)%len(keys)]); err != nil {
				b.Fatal(err)
			}
		}
		for j := range 5 {
			tx.Put(keys[(i+j*13)%len(keys)], benchValue)
		}
		if _, err := tx.Persist(); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkLevelDBSizes writes 10,000-key change sets (about 1.3 MB) into
// LevelDB at the write buffer / block cache sizes the configuration can
// set (LevelDBOptions.WriteBufferSizeMiB / CacheSizeMiB): the default
// 64/32 MiB and the smaller points of docs/perf.md's curve. B/op and
// allocs/op are process-wide, so they include goleveldb's background
// flushes and compactions, which grow as the write buffer shrinks: the
// Go-heap churn each size costs. Compare allocations, not times, here.
func BenchmarkLevelDBSizes(b *testing.B) {
	for _, sz := range []struct{ wbuf, cache int }{{64, 32}, {32, 16}, {16, 8}} {
		b.Run(fmt.Sprintf("%d-%d", sz.wbuf, sz.cache), func(b *testing.B) {
			s, err := storage.Open(storage.Options{Engine: storage.EngineLevelDB, Path: diskPath(b, storage.EngineLevelDB),
				LevelDB: storage.LevelDBOptions{WriteBufferSize: sz.wbuf << 20, BlockCacheSize: sz.cache << 20}})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = s.Close() })
			next := uint64(0)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				cs := make(map[string][]byte, 10000)
				for range 10000 {
					cs[string(benchKey(0x70, next))] = benchValue
					next++
				}
				b.StartTimer()
				if err := s.PutChangeSet(cs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

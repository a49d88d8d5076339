package bintriediff

import (
	"crypto/sha256"
	"encoding/binary"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	gbt "github.com/ethereum/go-ethereum/trie/bintrie"

	"github.com/n3node/n3node/pkg/core/bintrie"
)

// Seeded benchmark data shared by both implementations: keys
// sha256("bench"||be64(i)) (one value per stem, the worst memory case) and
// values sha256("value"||be64(i)).
type benchData struct {
	keys []bintrie.Key
	vals []bintrie.Value
	// geth's slot lists, prebuilt so the timed loop measures the tree only.
	slots [][][]byte
}

var dataCache = map[int]*benchData{}

func data(n int) *benchData {
	if d := dataCache[n]; d != nil {
		return d
	}
	d := &benchData{keys: make([]bintrie.Key, n), vals: make([]bintrie.Value, n), slots: make([][][]byte, n)}
	for i := range n {
		d.keys[i] = sha256.Sum256(binary.BigEndian.AppendUint64([]byte("bench"), uint64(i)))
		d.vals[i] = sha256.Sum256(binary.BigEndian.AppendUint64([]byte("value"), uint64(i)))
		s := make([][]byte, bintrie.StemNodeWidth)
		s[d.keys[i][31]] = d.vals[i][:]
		d.slots[i] = s
	}
	dataCache[n] = d
	return d
}

// cpuNow returns the process's user+system CPU time. The machine these
// figures come from is shared, so besides wall time per op the benchmarks
// report CPU time per op (all threads, GC included), which waiting for a
// core does not inflate.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter accumulates CPU time over the timed parts of a benchmark.
type cpuMeter struct {
	total time.Duration
	t0    time.Duration
	n     int
}

func (m *cpuMeter) start() { m.t0 = cpuNow() }
func (m *cpuMeter) stop(ops int) {
	m.total += cpuNow() - m.t0
	m.n += ops
}
func (m *cpuMeter) report(b *testing.B) {
	if m.n > 0 {
		b.ReportMetric(float64(m.total.Nanoseconds())/float64(m.n), "cpu-ns/op")
	}
}

// impl is one implementation under benchmark.
type impl interface {
	build(d *benchData)
	put(d *benchData, i int, v *bintrie.Value)
	hash()
	commit() int // returns the number of blobs
	get(k *bintrie.Key)
}

type gethImpl struct{ t *gbt.BinaryTrie }

func (g *gethImpl) build(d *benchData) {
	t, err := gbt.NewBinaryTrie(common.Hash{}, newMemDB(), gethGroupDepth)
	if err != nil {
		panic(err)
	}
	for i := range d.keys {
		if err := t.UpdateStem(d.keys[i][:bintrie.StemSize], d.slots[i]); err != nil {
			panic(err)
		}
	}
	g.t = t
}

func (g *gethImpl) put(d *benchData, i int, v *bintrie.Value) {
	s := make([][]byte, bintrie.StemNodeWidth)
	s[d.keys[i][31]] = v[:]
	if err := g.t.UpdateStem(d.keys[i][:bintrie.StemSize], s); err != nil {
		panic(err)
	}
}

func (g *gethImpl) hash() { g.t.Hash() }

func (g *gethImpl) commit() int {
	_, ns := g.t.Commit(false)
	return len(ns.Nodes)
}

func (g *gethImpl) get(k *bintrie.Key) {
	if _, err := g.t.GetWithHashedKey(k[:]); err != nil {
		panic(err)
	}
}

type ourImpl struct{ t *bintrie.Tree }

func (o *ourImpl) build(d *benchData) {
	o.t = bintrie.New(bintrie.Options{})
	for i := range d.keys {
		if err := o.t.Put(d.keys[i], d.vals[i]); err != nil {
			panic(err)
		}
	}
}

func (o *ourImpl) put(d *benchData, i int, v *bintrie.Value) {
	if err := o.t.Put(d.keys[i], *v); err != nil {
		panic(err)
	}
}

func (o *ourImpl) hash() { o.t.Hash() }

func (o *ourImpl) commit() int {
	_, ch := o.t.Commit()
	return len(ch)
}

func (o *ourImpl) get(k *bintrie.Key) {
	if _, _, err := o.t.Get(*k); err != nil {
		panic(err)
	}
}

var impls = []struct {
	name string
	new  func() impl
}{
	{"geth", func() impl { return &gethImpl{} }},
	{"n3node", func() impl { return &ourImpl{} }},
}

// forEach runs f as sub-benchmark op=<op>/impl=<name>, so that
// `benchstat -col /impl` puts the two side by side.
func forEach(b *testing.B, op string, f func(b *testing.B, newImpl func() impl)) {
	for _, im := range impls {
		b.Run("op="+op+"/impl="+im.name, func(b *testing.B) { f(b, im.new) })
	}
}

func BenchmarkBintrie(b *testing.B) {
	const n = 100_000
	d := data(n)

	forEach(b, "Insert100k", func(b *testing.B, newImpl func() impl) {
		b.ReportAllocs()
		var m cpuMeter
		for b.Loop() {
			m.start()
			newImpl().build(d)
			m.stop(1)
		}
		m.report(b)
	})

	forEach(b, "Hash100k", func(b *testing.B, newImpl func() impl) {
		b.ReportAllocs()
		var m cpuMeter
		for b.Loop() {
			b.StopTimer()
			t := newImpl()
			t.build(d)
			b.StartTimer()
			m.start()
			t.hash()
			m.stop(1)
		}
		m.report(b)
	})

	forEach(b, "Commit100k", func(b *testing.B, newImpl func() impl) {
		b.ReportAllocs()
		blobs := 0
		var m cpuMeter
		for b.Loop() {
			b.StopTimer()
			t := newImpl()
			t.build(d)
			t.hash()
			b.StartTimer()
			m.start()
			blobs = t.commit()
			m.stop(1)
		}
		b.ReportMetric(float64(blobs), "blobs")
		m.report(b)
	})

	forEach(b, "SparseWrite10k", func(b *testing.B, newImpl func() impl) {
		ds := data(10_000)
		t := newImpl()
		t.build(ds)
		t.hash()
		t.commit()
		vals := make([]bintrie.Value, 1024)
		for i := range vals {
			vals[i] = bintrie.Value(sha256.Sum256([]byte{byte(i), byte(i >> 8), 's'}))
		}
		b.ReportAllocs()
		i, blobs := 0, 0
		var m cpuMeter
		m.start()
		for b.Loop() {
			t.put(ds, (i*7919)%len(ds.keys), &vals[i%len(vals)])
			t.hash()
			blobs += t.commit()
			i++
		}
		m.stop(i)
		b.ReportMetric(float64(blobs)/float64(i), "blobs/op")
		m.report(b)
	})

	forEach(b, "Get100k", func(b *testing.B, newImpl func() impl) {
		t := newImpl()
		t.build(d)
		t.hash()
		b.ReportAllocs()
		i := 0
		var m cpuMeter
		m.start()
		for b.Loop() {
			t.get(&d.keys[(i*7919)%n])
			i++
		}
		m.stop(i)
		m.report(b)
	})

	// Live heap per stem after building and hashing (values included for
	// both): the memory a resident tree costs.
	forEach(b, "LiveHeap100k", func(b *testing.B, newImpl func() impl) {
		var perStem float64
		for b.Loop() { // timed on purpose: a loop with the timer stopped never ends
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			t := newImpl()
			t.build(d)
			t.hash()
			runtime.GC()
			runtime.ReadMemStats(&after)
			perStem = float64(after.HeapAlloc-before.HeapAlloc) / n
			runtime.KeepAlive(t)
		}
		b.ReportMetric(perStem, "heapB/stem")
	})
}

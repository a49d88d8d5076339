package stackitem

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// nestedItem is a 901-item tree: an array of 50 structs, each holding an
// integer, a 32-byte string, a 3-element array and a 5-entry map.
func nestedItem() Item {
	elems := make([]Item, 50)
	for i := range elems {
		m := NewMap()
		for k := range 5 {
			_ = m.Set(NewByteString([]byte(fmt.Sprintf("key%d", k))), NewInt(int64(i*k)))
		}
		bs := make([]byte, 32)
		for j := range bs {
			bs[j] = byte(i + j)
		}
		elems[i] = NewStruct([]Item{
			NewInt(int64(i) * 1000003),
			NewByteString(bs),
			NewArray([]Item{Bool(i%2 == 0), Null{}, NewInt(-int64(i))}),
			m,
		})
	}
	return NewArray(elems)
}

func BenchmarkSerialize(b *testing.B) {
	item := nestedItem()
	data, err := Serialize(item)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("serialize", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := Serialize(item); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("deserialize", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := Deserialize(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkJSON(b *testing.B) {
	item := nestedItem()
	// JSON maps need ByteString keys only, which nestedItem has.
	data, err := ToJSON(item)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("tojson", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := ToJSON(item); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fromjson", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := FromJSON(data, MaxItems, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMap(b *testing.B) {
	keys := make([]Item, 1000)
	for i := range keys {
		keys[i] = NewInt(int64(i) * 7919)
	}
	b.Run("set-1000", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			m := NewMap()
			for _, k := range keys {
				_ = m.Set(k, k)
			}
		}
	})
	m := NewMap()
	for _, k := range keys {
		_ = m.Set(k, k)
	}
	b.Run("get-1000", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for b.Loop() {
			for _, k := range keys {
				if _, ok, _ := m.Get(k); !ok {
					b.Fatal("missing")
				}
			}
		}
	})
}

// reportCPU locks the goroutine to its thread and, when the returned
// function runs, reports the thread CPU time per operation: the benchmark
// machine is shared, so wall time includes waiting for a CPU.
func reportCPU(b *testing.B) func() {
	runtime.LockOSThread()
	start := threadCPUTime()
	return func() {
		cpu := threadCPUTime() - start
		runtime.UnlockOSThread()
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func threadCPUTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

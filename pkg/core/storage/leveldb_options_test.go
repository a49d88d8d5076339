package storage

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
)

// TestLevelDBOptionsPassed: the sizes of LevelDBOptions (and their
// defaults) are the ones goleveldb is opened with.
func TestLevelDBOptionsPassed(t *testing.T) {
	for _, tc := range []struct {
		name        string
		o           LevelDBOptions
		cache, wbuf int
		bloom       bool
	}{
		{"defaults", LevelDBOptions{}, DefaultLevelDBCacheSize, DefaultLevelDBWriteBufferSize, true},
		{"sized", LevelDBOptions{BlockCacheSize: 16 << 20, WriteBufferSize: 8 << 20}, 16 << 20, 8 << 20, true},
		{"no bloom", LevelDBOptions{BloomBitsPerKey: -1}, DefaultLevelDBCacheSize, DefaultLevelDBWriteBufferSize, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ro := range []bool{false, true} {
				got := tc.o.levelDBOptions(ro)
				if got.BlockCacheCapacity != tc.cache || got.WriteBuffer != tc.wbuf {
					t.Errorf("cache %d, write buffer %d; want %d, %d", got.BlockCacheCapacity, got.WriteBuffer, tc.cache, tc.wbuf)
				}
				if (got.Filter != nil) != tc.bloom {
					t.Errorf("bloom filter %v, want %v", got.Filter != nil, tc.bloom)
				}
				if got.ReadOnly != ro || got.ErrorIfMissing != ro || !got.DisableLargeBatchTransaction {
					t.Errorf("read-only %v: %+v", ro, got)
				}
			}
		})
	}
}

// TestLevelDBWriteBufferFromConfig: a configured write buffer reaches the
// open database: with WriteBufferSizeMiB 1, writing 3 MiB rotates the
// memtable into a table file; with the 64 MiB default the same writes
// stay in the journal.
func TestLevelDBWriteBufferFromConfig(t *testing.T) {
	tables := func(mib int) int {
		dir := t.TempDir()
		d := config.DBConfiguration{Type: config.DBLevelDB}
		d.LevelDBOptions.DataDirectoryPath = dir
		d.LevelDBOptions.WriteBufferSizeMiB = mib
		o, err := OptionsFromConfig(d, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if want := mib << 20; mib > 0 && o.LevelDB.WriteBufferSize != want {
			t.Fatalf("WriteBufferSize %d, want %d", o.LevelDB.WriteBufferSize, want)
		}
		s, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		val := make([]byte, 64<<10)
		for i := range 48 { // 3 MiB in 1 MiB change sets
			if err := s.PutChangeSet(map[string][]byte{fmt.Sprintf("k%03d", i): val}); err != nil {
				t.Fatal(err)
			}
		}
		n := 0
		for range 100 { // the memtable is flushed in the background
			n = countTables(t, dir)
			if n > 0 || mib == 0 {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := tables(1); n == 0 {
		t.Error("WriteBufferSizeMiB 1: no table written after 3 MiB")
	}
	if n := tables(0); n != 0 {
		t.Errorf("default write buffer: %d tables written after 3 MiB", n)
	}
}

func countTables(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".ldb") {
			n++
		}
	}
	return n
}

// TestGoHeapBytes: the store buffers a Go memory limit must leave room for.
func TestGoHeapBytes(t *testing.T) {
	pebbleHeap := int64(0)
	if !pebbleBuffersInC {
		pebbleHeap = DefaultPebbleCacheSize + 2*DefaultPebbleMemTableSize
	}
	for _, tc := range []struct {
		name string
		o    Options
		want int64
	}{
		{"leveldb defaults", Options{Engine: EngineLevelDB}, DefaultLevelDBCacheSize + 2*DefaultLevelDBWriteBufferSize},
		{"leveldb 32/16", Options{Engine: EngineLevelDB, LevelDB: LevelDBOptions{BlockCacheSize: 16 << 20, WriteBufferSize: 32 << 20}}, 80 << 20},
		{"pebble", Options{}, pebbleHeap},
		{"bolt", Options{Engine: EngineBolt}, 0},
		{"memory", Options{Engine: EngineMemory}, 0},
		{"unknown", Options{Engine: "rocksdb"}, 0},
	} {
		if got := tc.o.GoHeapBytes(); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

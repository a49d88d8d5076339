package storage_test

import (
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
)

// Small caches keep the many short-lived test databases cheap.
var (
	testPebble  = storage.PebbleOptions{CacheSize: 4 << 20, MemTableSize: 4 << 20}
	testLevelDB = storage.LevelDBOptions{BlockCacheSize: 4 << 20, WriteBufferSize: 4 << 20}
)

func openDisk(t testing.TB, engine storage.Engine, path string) storage.Store {
	t.Helper()
	s, err := storage.Open(storage.Options{Engine: engine, Path: path, Pebble: testPebble, LevelDB: testLevelDB})
	if err != nil {
		t.Fatalf("open %s: %v", engine, err)
	}
	return s
}

func diskPath(t testing.TB, engine storage.Engine) string {
	if engine == storage.EngineBolt {
		return filepath.Join(t.TempDir(), "chain.bolt")
	}
	return filepath.Join(t.TempDir(), "chain")
}

// diskHarness checks a disk backend directly, with Reopen.
func diskHarness(engine storage.Engine) storagetest.Harness {
	paths := map[storage.Store]string{}
	return storagetest.Harness{
		Name: string(engine),
		Open: func(t testing.TB) storage.Store {
			p := diskPath(t, engine)
			s := openDisk(t, engine, p)
			paths[s] = p
			return s
		},
		Reopen: func(t testing.TB, s storage.Store) storage.Store {
			p := paths[s]
			if err := s.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			s = openDisk(t, engine, p)
			paths[s] = p
			return s
		},
	}
}

func boltHarness() storagetest.Harness {
	h := diskHarness(storage.EngineBolt)
	h.NoWriteInSeek = true
	return h
}

// stack is a Store made of MemCachedStore layers (top first) over a bottom
// store. After the n-th write it persists the top depth(n) layers, so data
// ends up spread over the layers: some keys only in the upper layer, some
// below it, deletions in an upper layer hiding values below.
type stack struct {
	*storage.MemCachedStore
	layers []*storage.MemCachedStore
	depth  func(n int) int
	writes int
	path   string
}

func (s *stack) afterWrite(t testing.TB) {
	s.writes++
	for _, l := range s.layers[:s.depth(s.writes)] {
		if _, err := l.Persist(); err != nil {
			t.Fatalf("Persist: %v", err)
		}
	}
}

type stackStore struct {
	*stack
	t testing.TB
}

func (s stackStore) PutChangeSet(puts map[string][]byte) error {
	if err := s.MemCachedStore.PutChangeSet(puts); err != nil {
		return err
	}
	s.afterWrite(s.t)
	return nil
}

func (s stackStore) SeekGC(rng storage.SeekRange, keep func(k, v []byte) bool) error {
	if err := s.MemCachedStore.SeekGC(rng, keep); err != nil {
		return err
	}
	s.afterWrite(s.t)
	return nil
}

// stackHarness builds `layers` layers over a bottom store. private makes the
// top layer private. Over a disk engine, Reopen persists every layer and
// reopens the disk store under a fresh stack.
func stackHarness(name string, engine storage.Engine, layers int, private bool, depth func(n int) int) storagetest.Harness {
	build := func(t testing.TB, bottom storage.Store, path string) storage.Store {
		st := &stack{depth: depth, path: path}
		var lower = bottom
		for i := 0; i < layers; i++ {
			var l *storage.MemCachedStore
			if private && i == layers-1 {
				l = storage.NewPrivateMemCachedStore(lower)
			} else {
				l = storage.NewMemCachedStore(lower)
			}
			st.layers = append([]*storage.MemCachedStore{l}, st.layers...)
			lower = l
		}
		st.MemCachedStore = st.layers[0]
		return stackStore{st, t}
	}
	h := storagetest.Harness{
		Name: name,
		Open: func(t testing.TB) storage.Store {
			if engine == storage.EngineMemory {
				return build(t, storage.NewMemoryStore(), "")
			}
			p := diskPath(t, engine)
			return build(t, openDisk(t, engine, p), p)
		},
	}
	if engine != storage.EngineMemory {
		h.Reopen = func(t testing.TB, s storage.Store) storage.Store {
			st := s.(stackStore).stack
			for _, l := range st.layers {
				if _, err := l.PersistSync(); err != nil {
					t.Fatalf("PersistSync: %v", err)
				}
			}
			if err := st.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			return build(t, openDisk(t, engine, st.path), st.path)
		}
	}
	return h
}

// boltStack persists into BoltDB after writes, which a walk of the layer
// must not do while it holds a bolt read transaction in the same goroutine.
func boltStack() storagetest.Harness {
	h := stackHarness("cache/bolt/mixed", storage.EngineBolt, 1, false, alternate)
	h.NoWriteInSeek = true
	return h
}

func never(int) int       { return 0 }
func always1(int) int     { return 1 }
func alternate(n int) int { return n % 2 }
func cycle3(n int) int    { return n % 3 } // 0, 1 or 2 layers

func TestConformance(t *testing.T) {
	storagetest.Run(t, []storagetest.Harness{
		{Name: "memory", Open: func(testing.TB) storage.Store { return storage.NewMemoryStore() }},
		diskHarness(storage.EnginePebble),
		boltHarness(),
		diskHarness(storage.EngineLevelDB),
		stackHarness("cache/memory/unpersisted", storage.EngineMemory, 1, false, never),
		stackHarness("cache/memory/persisted", storage.EngineMemory, 1, false, always1),
		stackHarness("cache/memory/mixed", storage.EngineMemory, 1, false, alternate),
		stackHarness("cache2/memory/unpersisted", storage.EngineMemory, 2, false, never),
		stackHarness("cache2/memory/mixed", storage.EngineMemory, 2, false, cycle3),
		stackHarness("private+cache/memory/mixed", storage.EngineMemory, 2, true, cycle3),
		stackHarness("cache/pebble/mixed", storage.EnginePebble, 1, false, alternate),
		stackHarness("cache2/pebble/mixed", storage.EnginePebble, 2, false, cycle3),
		stackHarness("cache/leveldb/persisted", storage.EngineLevelDB, 1, false, always1),
		boltStack(),
	})
}

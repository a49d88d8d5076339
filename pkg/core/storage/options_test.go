package storage_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/storage"
)

var diskEngines = []storage.Engine{storage.EnginePebble, storage.EngineBolt, storage.EngineLevelDB}

func TestParseEngine(t *testing.T) {
	for in, want := range map[string]storage.Engine{
		"pebble": storage.EnginePebble, "Pebble": storage.EnginePebble, "": storage.DefaultEngine,
		"bolt": storage.EngineBolt, "boltdb": storage.EngineBolt, "BoltDB": storage.EngineBolt,
		"leveldb": storage.EngineLevelDB, "LevelDB": storage.EngineLevelDB,
		"memory": storage.EngineMemory, "inmemory": storage.EngineMemory, " InMemory ": storage.EngineMemory,
	} {
		got, err := storage.ParseEngine(in)
		if err != nil || got != want {
			t.Errorf("ParseEngine(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"rocksdb", "badger", "level"} {
		if _, err := storage.ParseEngine(in); !errors.Is(err, storage.ErrUnknownEngine) {
			t.Errorf("ParseEngine(%q): %v, want ErrUnknownEngine", in, err)
		}
	}
	if _, err := storage.Open(storage.Options{Engine: "rocksdb", Path: t.TempDir()}); !errors.Is(err, storage.ErrUnknownEngine) {
		t.Errorf("Open(rocksdb): %v", err)
	}
	if storage.DefaultEngine != storage.EnginePebble {
		t.Errorf("default engine is %q", storage.DefaultEngine)
	}
}

func TestOpenMemory(t *testing.T) {
	s, err := storage.Open(storage.Options{Engine: storage.EngineMemory})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*storage.MemoryStore); !ok {
		t.Fatalf("Open(inmemory) = %T", s)
	}
	if _, err := storage.Open(storage.Options{Engine: storage.EngineMemory, ReadOnly: true}); !errors.Is(err, storage.ErrNotExist) {
		t.Fatalf("read-only in-memory: %v", err)
	}
}

func TestOpenReadOnlyMissing(t *testing.T) {
	for _, e := range diskEngines {
		t.Run(string(e), func(t *testing.T) {
			path := diskPath(t, e)
			_, err := storage.Open(storage.Options{Engine: e, Path: path, ReadOnly: true})
			if !errors.Is(err, storage.ErrNotExist) {
				t.Fatalf("read-only open of a missing database: %v, want ErrNotExist", err)
			}
			if _, statErr := os.Stat(path); !errors.Is(statErr, os.ErrNotExist) {
				t.Fatalf("a read-only open created %s", path)
			}
			if e != storage.EngineBolt {
				// An empty directory is no database either.
				if err := os.MkdirAll(path, 0o755); err != nil {
					t.Fatal(err)
				}
				_, err = storage.Open(storage.Options{Engine: e, Path: path, ReadOnly: true})
				if !errors.Is(err, storage.ErrNotExist) {
					t.Fatalf("read-only open of an empty directory: %v, want ErrNotExist", err)
				}
			}
		})
	}
}

func TestOpenReadOnly(t *testing.T) {
	for _, e := range diskEngines {
		t.Run(string(e), func(t *testing.T) {
			path := diskPath(t, e)
			s := openDisk(t, e, path)
			put := map[string][]byte{"\x01a": []byte("1")}
			if err := s.PutChangeSet(put); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			ro, err := storage.Open(storage.Options{Engine: e, Path: path, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			wantGet(t, ro, "\x01a", "1")
			if err := ro.PutChangeSet(map[string][]byte{"\x01b": []byte("2")}); !errors.Is(err, storage.ErrReadOnly) {
				t.Fatalf("write to a read-only store: %v, want ErrReadOnly", err)
			}
			if err := ro.SeekGC(storage.SeekRange{}, func(k, v []byte) bool { return false }); !errors.Is(err, storage.ErrReadOnly) {
				t.Fatalf("SeekGC on a read-only store: %v, want ErrReadOnly", err)
			}
			wantSeek(t, ro, "\x01a=1")
		})
	}
}

func TestOpenLocked(t *testing.T) {
	for _, e := range diskEngines {
		t.Run(string(e), func(t *testing.T) {
			path := diskPath(t, e)
			opts := storage.Options{Engine: e, Path: path, Bolt: storage.BoltOptions{LockTimeout: 50 * time.Millisecond}}

			// Held by this process.
			s, err := storage.Open(opts)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := storage.Open(opts); !errors.Is(err, storage.ErrLocked) {
				t.Fatalf("second open in this process: %v, want ErrLocked", err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}

			// Held by another process.
			h := startHelper(t, "lock", e, path)
			h.await(t, "ready")
			if _, err := storage.Open(opts); !errors.Is(err, storage.ErrLocked) {
				t.Fatalf("open while another process holds it: %v, want ErrLocked", err)
			}
			ro := opts
			ro.ReadOnly = true
			if _, err := storage.Open(ro); !errors.Is(err, storage.ErrLocked) {
				t.Fatalf("read-only open while another process holds it: %v, want ErrLocked", err)
			}
			_ = h.stdin.Close()
			if err := h.cmd.Wait(); err != nil {
				t.Fatalf("lock holder: %v", err)
			}
			s, err = storage.Open(opts) // free again
			if err != nil {
				t.Fatal(err)
			}
			_ = s.Close()
		})
	}
}

// damage overwrites the database's metadata with garbage.
func damage(t *testing.T, e storage.Engine, path string) {
	t.Helper()
	garbage := make([]byte, 16<<10)
	for i := range garbage {
		garbage[i] = byte(i*131 + 7)
	}
	var files []string
	switch e {
	case storage.EngineBolt:
		files = []string{path} // the meta pages are at the start of the file
	case storage.EnginePebble, storage.EngineLevelDB:
		files, _ = filepath.Glob(filepath.Join(path, "MANIFEST-*"))
	}
	if len(files) == 0 {
		t.Fatalf("no metadata files to damage in %s", path)
	}
	for _, f := range files {
		fd, err := os.OpenFile(f, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fd.WriteAt(garbage, 0); err != nil {
			t.Fatal(err)
		}
		_ = fd.Close()
	}
}

func TestOpenCorrupt(t *testing.T) {
	for _, e := range diskEngines {
		t.Run(string(e), func(t *testing.T) {
			path := diskPath(t, e)
			s := openDisk(t, e, path)
			if err := s.PutChangeSet(map[string][]byte{"\x01a": []byte("1")}); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			damage(t, e, path)
			for _, ro := range []bool{false, true} {
				_, err := storage.Open(storage.Options{Engine: e, Path: path, ReadOnly: ro})
				if !errors.Is(err, storage.ErrCorrupt) {
					t.Fatalf("open (read-only %v) of a damaged database: %v, want ErrCorrupt", ro, err)
				}
			}
		})
	}
}

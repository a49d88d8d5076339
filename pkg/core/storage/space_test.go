package storage_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
)

// Every disk store keeps the free space reserve: below it a write fails
// with ErrDiskFull and changes nothing, and goes through once space
// returns.
func TestSpaceReserve(t *testing.T) {
	for _, engine := range []storage.Engine{storage.EnginePebble, storage.EngineBolt, storage.EngineLevelDB} {
		t.Run(string(engine), func(t *testing.T) {
			var free atomic.Uint64
			free.Store(1 << 30)
			s, err := storage.Open(storage.Options{Engine: engine, Path: diskPath(t, engine), Pebble: testPebble,
				LevelDB: testLevelDB, MinFreeSpace: 1 << 20,
				FreeSpace: func(string) (uint64, error) { return free.Load(), nil }})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.PutChangeSet(map[string][]byte{"a": {1}}); err != nil {
				t.Fatal(err)
			}
			free.Store(1<<20 - 1)
			err = s.PutChangeSet(map[string][]byte{"b": {2}})
			if !errors.Is(err, storage.ErrDiskFull) || !storage.IsDiskFull(err) {
				t.Fatalf("write below the reserve: %v", err)
			}
			if _, err := s.Get([]byte("b")); !errors.Is(err, storage.ErrKeyNotFound) {
				t.Fatalf("refused write reached the store: %v", err)
			}
			if v, err := s.Get([]byte("a")); err != nil || !bytes.Equal(v, []byte{1}) {
				t.Fatalf("read while full: %v %v", v, err)
			}
			free.Store(1<<20 + 1) // the reserve and the write's 2 bytes, less one
			if err := s.PutChangeSet(map[string][]byte{"b": {2}}); !errors.Is(err, storage.ErrDiskFull) {
				t.Fatalf("write into the reserve: %v", err)
			}
			free.Store(1<<20 + 2)
			if err := s.PutChangeSet(map[string][]byte{"b": {2}}); err != nil {
				t.Fatal(err)
			}
			free.Store(0)
			storage.UseReserve(s) // the last writes before Close
			if err := s.PutChangeSet(map[string][]byte{"c": {3}}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTmpfsDiskFull fills a real (tmpfs) file system under Pebble; it needs
// root to mount and runs with N3NODE_TMPFS=1. Writes stop with ErrDiskFull
// before Pebble meets ENOSPC (which it does not survive: a failed switch to
// a new WAL file is a fatal runtime error), resume when space returns, and
// nothing written is lost.
func TestTmpfsDiskFull(t *testing.T) {
	if os.Getenv("N3NODE_TMPFS") != "1" {
		t.Skip("set N3NODE_TMPFS=1 (as root) to run on a small tmpfs")
	}
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Fatalf("mount: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", mnt).Run() })

	value := bytes.Repeat([]byte{0xAB}, 64<<10)
	fill := func(s storage.Store, prefix string) (int, error) {
		for i := 0; i < 1000; i++ {
			puts := map[string][]byte{}
			for j := range 16 { // 1 MiB per write
				puts[fmt.Sprintf("%s/%04d/%02d", prefix, i, j)] = value
			}
			if err := s.PutChangeSet(puts); err != nil {
				return i, err
			}
		}
		return 1000, nil
	}
	ballast := filepath.Join(mnt, "ballast")
	if err := os.WriteFile(ballast, make([]byte, 8<<20), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("reserve", func(t *testing.T) {
		s, err := storage.Open(storage.Options{Engine: storage.EnginePebble, Path: filepath.Join(mnt, "a"),
			Pebble: storage.PebbleOptions{CacheSize: 1 << 20, MemTableSize: 2 << 20}, MinFreeSpace: 4 << 20})
		if err != nil {
			t.Fatal(err)
		}
		n, err := fill(s, "x")
		if !errors.Is(err, storage.ErrDiskFull) {
			t.Fatalf("after %d writes: %v", n, err)
		}
		t.Logf("%d MiB written before the reserve stopped writes: %v", n, err)
		if err := os.Remove(ballast); err != nil {
			t.Fatal(err)
		}
		if err := s.PutChangeSet(map[string][]byte{"after": {1}}); err != nil {
			t.Fatalf("write after space returned: %v", err)
		}
		for i := range n {
			if _, err := s.Get(fmt.Appendf(nil, "x/%04d/15", i)); err != nil {
				t.Fatalf("write %d lost: %v", i, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s, err = storage.Open(storage.Options{Engine: storage.EnginePebble, Path: filepath.Join(mnt, "a"), ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Get([]byte("after")); err != nil {
			t.Fatal(err)
		}
	})
}

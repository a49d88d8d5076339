package core_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a bytes.Buffer for a logger written from several
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A full disk pauses the chain: blocks and transactions are refused with
// ErrWritesPaused, reads (of blocks committed before the failing write
// too) go on, one log line says why; when writes succeed again the chain
// resumes by itself and nothing committed is lost.
func TestDiskFullPausesAndResumes(t *testing.T) {
	mem := storage.NewMemoryStore()
	fs := storagetest.NewFaultStore(mem)
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	c := newTestChain(t, chainOpts{store: noClose{fs}, opts: core.Options{PersistInterval: time.Hour, Logger: log}})
	c.addBlock()
	c.addBlock()
	c.bc.PersistNowForTest()
	require.NoError(t, c.bc.WritesPaused())

	full := fmt.Errorf("%w: 1024 bytes free", storage.ErrDiskFull)
	fs.FailWritesWith(-1, full)
	b3 := c.addBlock() // committed in memory, not on disk
	for range 3 {
		c.bc.PersistNowForTest()
	}
	require.ErrorIs(t, c.bc.WritesPaused(), storage.ErrDiskFull)

	next := c.blockAfter(nil)
	err := c.bc.AddBlock(next)
	require.ErrorIs(t, err, core.ErrWritesPaused)
	require.ErrorIs(t, err, storage.ErrDiskFull)
	require.Equal(t, uint32(3), c.bc.BlockHeight())
	tx := c.sign(c.newTx([]byte{0x11, 0x40}, c.key), c.key)
	require.ErrorIs(t, c.bc.PoolTx(tx), core.ErrWritesPaused)

	got, err := c.bc.GetBlockByIndex(3) // reads see what is only in memory
	require.NoError(t, err)
	require.Equal(t, b3.Hash(), got.Hash())

	out := logs.String()
	require.Equal(t, 1, strings.Count(out, "level=ERROR"), out)
	require.Contains(t, out, "the disk is full")

	fs.Heal()
	c.bc.PersistNowForTest()
	require.NoError(t, c.bc.WritesPaused())
	require.Contains(t, logs.String(), "takes writes again")
	require.NoError(t, c.bc.AddBlock(next))
	require.NoError(t, c.bc.Close())

	// Everything reached the store.
	c2 := newTestChain(t, chainOpts{store: mem})
	require.Equal(t, uint32(4), c2.bc.BlockHeight())
	got, err = c2.bc.GetBlockByIndex(4)
	require.NoError(t, err)
	require.Equal(t, next.Hash(), got.Hash())
}

// Any refused write pauses the chain the same way (the reason differs).
func TestWriteErrorPauses(t *testing.T) {
	fs := storagetest.NewFaultStore(storage.NewMemoryStore())
	c := newTestChain(t, chainOpts{store: fs, opts: core.Options{PersistInterval: time.Hour}})
	fs.FailWrites(-1)
	c.addBlock()
	c.bc.PersistNowForTest()
	err := c.bc.AddBlock(c.blockAfter(nil))
	require.ErrorIs(t, err, core.ErrWritesPaused)
	require.ErrorIs(t, err, storagetest.ErrInjected)
	require.False(t, errors.Is(err, storage.ErrDiskFull))
	fs.Heal()
	c.bc.PersistNowForTest()
	c.addBlock()
}

// A node stopped while its disk is full writes what it held back into the
// store's reserve on Close: nothing is lost.
func TestDiskFullCloseUsesReserve(t *testing.T) {
	var free atomic.Uint64
	free.Store(1 << 40)
	path := filepath.Join(t.TempDir(), "chain")
	open := func() storage.Store {
		s, err := storage.Open(storage.Options{Path: path, Pebble: storage.PebbleOptions{CacheSize: 1 << 20, MemTableSize: 4 << 20},
			FreeSpace: func(string) (uint64, error) { return free.Load(), nil }})
		require.NoError(t, err)
		return s
	}
	c := newTestChain(t, chainOpts{store: open(), opts: core.Options{PersistInterval: time.Hour}})
	c.addBlock()
	c.bc.PersistNowForTest()
	free.Store(1 << 20)
	b := c.addBlock()
	c.bc.PersistNowForTest()
	require.ErrorIs(t, c.bc.WritesPaused(), storage.ErrDiskFull)
	require.NoError(t, c.bc.Close())

	free.Store(1 << 40)
	c2 := newTestChain(t, chainOpts{store: open()})
	require.Equal(t, b.Index, c2.bc.BlockHeight())
}

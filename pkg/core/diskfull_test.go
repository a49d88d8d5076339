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

	"github.com/n3node/n3node/internal/testchain"
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
	c := testchain.New(t, testchain.Options{Store: noClose{fs}, Core: core.Options{PersistInterval: time.Hour, Logger: log}})
	c.AddBlock()
	c.AddBlock()
	c.BC.PersistNowForTest()
	require.NoError(t, c.BC.WritesPaused())

	full := fmt.Errorf("%w: 1024 bytes free", storage.ErrDiskFull)
	fs.FailWritesWith(-1, full)
	b3 := c.AddBlock() // committed in memory, not on disk
	for range 3 {
		c.BC.PersistNowForTest()
	}
	require.ErrorIs(t, c.BC.WritesPaused(), storage.ErrDiskFull)

	next := c.NextBlock()
	err := c.BC.AddBlock(next)
	require.ErrorIs(t, err, core.ErrWritesPaused)
	require.ErrorIs(t, err, storage.ErrDiskFull)
	require.Equal(t, uint32(3), c.BC.BlockHeight())
	tx := c.Tx([]byte{0x11, 0x40})
	require.ErrorIs(t, c.BC.PoolTx(tx), core.ErrWritesPaused)

	got, err := c.BC.GetBlockByIndex(3) // reads see what is only in memory
	require.NoError(t, err)
	require.Equal(t, b3.Hash(), got.Hash())

	out := logs.String()
	require.Equal(t, 1, strings.Count(out, "level=ERROR"), out)
	require.Contains(t, out, "the disk is full")

	fs.Heal()
	c.BC.PersistNowForTest()
	require.NoError(t, c.BC.WritesPaused())
	require.Contains(t, logs.String(), "takes writes again")
	require.NoError(t, c.BC.AddBlock(next))
	require.NoError(t, c.BC.Close())

	// Everything reached the store.
	c2 := testchain.New(t, testchain.Options{Store: mem})
	require.Equal(t, uint32(4), c2.BC.BlockHeight())
	got, err = c2.BC.GetBlockByIndex(4)
	require.NoError(t, err)
	require.Equal(t, next.Hash(), got.Hash())
}

// Any refused write pauses the chain the same way (the reason differs).
func TestWriteErrorPauses(t *testing.T) {
	fs := storagetest.NewFaultStore(storage.NewMemoryStore())
	c := testchain.New(t, testchain.Options{Store: fs, Core: core.Options{PersistInterval: time.Hour}})
	fs.FailWrites(-1)
	c.AddBlock()
	c.BC.PersistNowForTest()
	next := c.NextBlock()
	err := c.BC.AddBlock(next)
	require.ErrorIs(t, err, core.ErrWritesPaused)
	require.ErrorIs(t, err, storagetest.ErrInjected)
	require.False(t, errors.Is(err, storage.ErrDiskFull))
	fs.Heal()
	c.BC.PersistNowForTest()
	require.NoError(t, c.BC.AddBlock(next))
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
	c := testchain.New(t, testchain.Options{Store: open(), Core: core.Options{PersistInterval: time.Hour}})
	c.AddBlock()
	c.BC.PersistNowForTest()
	free.Store(1 << 20)
	b := c.AddBlock()
	c.BC.PersistNowForTest()
	require.ErrorIs(t, c.BC.WritesPaused(), storage.ErrDiskFull)
	require.NoError(t, c.BC.Close())

	free.Store(1 << 40)
	c2 := testchain.New(t, testchain.Options{Store: open()})
	require.Equal(t, b.Index, c2.BC.BlockHeight())
}

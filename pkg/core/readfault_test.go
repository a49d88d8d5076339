package core_test

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
	"github.com/stretchr/testify/require"
)

// A database that fails reads (Get errors, walks that the store ends with
// a panic) stops the chain with one log line and ErrReadFailed: no panic
// reaches the operator, and no block executed with a failed read is
// committed.
func TestReadErrorStopsChain(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(c *testchain.Chain, next *block.Block) error
	}{
		{"block execution", func(c *testchain.Chain, next *block.Block) error { return c.BC.AddBlock(next) }},
		{"storage walk", func(c *testchain.Chain, _ *block.Block) error {
			c.BC.SeekStorage(-1, nil, func(k, v []byte) bool { return true }) // NEO: a walk of the disk store
			return c.BC.ReadErr()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := storage.NewMemoryStore()
			fs := storagetest.NewFaultStore(mem)
			var logs syncBuffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
			c := testchain.New(t, testchain.Options{Store: noClose{fs}, Core: core.Options{PersistInterval: time.Hour, Logger: log}})
			c.AddBlock()
			c.BC.PersistNowForTest()
			select {
			case <-c.BC.Failed():
				t.Fatal("failed before any read failed")
			default:
			}
			next := c.NextBlock()

			fs.FailReads(true)
			err := tc.read(c, next) // must not panic
			require.ErrorIs(t, err, core.ErrReadFailed)
			require.ErrorIs(t, err, storagetest.ErrInjectedRead)
			select {
			case <-c.BC.Failed():
			default:
				t.Fatal("Failed not closed")
			}
			fs.FailReads(false)
			require.ErrorIs(t, c.BC.AddBlock(next), core.ErrReadFailed) // for good
			require.ErrorIs(t, c.BC.PoolTx(c.Tx([]byte{0x11, 0x40})), core.ErrReadFailed)
			require.Equal(t, uint32(1), c.BC.BlockHeight())

			out := logs.String()
			require.Equal(t, 1, strings.Count(out, "level=ERROR"), out)
			require.Contains(t, out, "database failed, stopping")
			require.NotContains(t, out, "panic")
			require.NoError(t, c.BC.Close())
		})
	}
}

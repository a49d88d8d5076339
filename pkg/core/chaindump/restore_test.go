package chaindump_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/chaindump"
)

// sourceChain is a small chain with contract storage: a deployment and a
// few blocks of puts and deletes, with empty blocks between them.
func sourceChain(t *testing.T) *testchain.Chain {
	g := testchain.New(t)
	h := g.DeployStorage()
	for i := range 4 {
		k, v := []byte{byte(i)}, []byte{byte(i), 1, 2}
		g.AddBlock(g.Tx(testchain.PutScript(h, [][]byte{k, {9}}, [][]byte{v, nil})))
		g.AddBlock()
	}
	return g
}

// dump writes blocks 0 to the height of g in the C# layout.
func dump(t *testing.T, g *testchain.Chain) []byte {
	var buf bytes.Buffer
	n := g.BC.BlockHeight() + 1
	w, err := chaindump.NewWriter(&buf, 0, n, false)
	require.NoError(t, err)
	for i := range n {
		b, err := g.BC.GetBlockByIndex(i)
		require.NoError(t, err)
		require.NoError(t, w.WriteBlock(b.Bytes()))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func restore(t *testing.T, ctx context.Context, dst *testchain.Chain, data []byte, o chaindump.RestoreOptions) error {
	r, err := chaindump.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	return chaindump.Restore(ctx, dst.BC, r, o)
}

// TestRestore restores a dump in two runs (Count, then the rest, skipping
// the blocks already there) and checks every block hash and state root
// against the source chain.
func TestRestore(t *testing.T) {
	src := sourceChain(t)
	data := dump(t, src)
	dst := testchain.Open(t, src.Cfg, nil, core.Options{})

	require.NoError(t, restore(t, context.Background(), dst, data, chaindump.RestoreOptions{Count: 3}))
	require.Equal(t, uint32(3), dst.BC.BlockHeight())
	require.NoError(t, restore(t, context.Background(), dst, data, chaindump.RestoreOptions{}))
	require.Equal(t, src.BC.BlockHeight(), dst.BC.BlockHeight())
	for i := range src.BC.BlockHeight() + 1 {
		require.Equal(t, src.BC.GetHeaderHash(i), dst.BC.GetHeaderHash(i), "block %d", i)
		want, err := src.BC.GetStateRoot(i)
		require.NoError(t, err)
		got, err := dst.BC.GetStateRoot(i)
		require.NoError(t, err)
		require.Equal(t, want.RootHash, got.RootHash, "state root %d", i)
	}
	// A third run has nothing to add.
	require.NoError(t, restore(t, context.Background(), dst, data, chaindump.RestoreOptions{}))
	require.Equal(t, src.BC.BlockHeight(), dst.BC.BlockHeight())
}

// TestRestoreOtherChain: a dump whose blocks differ from those the chain
// has is refused before anything is imported.
func TestRestoreOtherChain(t *testing.T) {
	src := sourceChain(t)
	dst := testchain.Open(t, src.Cfg, nil, core.Options{})
	dst.AddBlock() // an empty block 1; the source's deploys the contract
	err := restore(t, context.Background(), dst, dump(t, src), chaindump.RestoreOptions{})
	require.ErrorIs(t, err, chaindump.ErrOtherChain)
	require.ErrorContains(t, err, "block 1 of the dump is not the database's block 1")
	require.Equal(t, uint32(1), dst.BC.BlockHeight())
}

// TestRestoreDamaged: the blocks before a damaged record are imported and
// the record's error returned.
func TestRestoreDamaged(t *testing.T) {
	src := sourceChain(t)
	data := dump(t, src)
	// Cut the dump after block 2's record and append a 10-byte record.
	off := 4
	for range 3 {
		off += 4 + int(binary.LittleEndian.Uint32(data[off:]))
	}
	damaged := append(bytes.Clone(data[:off]), 10, 0, 0, 0)
	damaged = append(damaged, make([]byte, 10)...)
	dst := testchain.Open(t, src.Cfg, nil, core.Options{})
	err := restore(t, context.Background(), dst, damaged, chaindump.RestoreOptions{})
	require.ErrorIs(t, err, chaindump.ErrFormat)
	require.Equal(t, uint32(2), dst.BC.BlockHeight())
}

// TestRestoreCanceled: an ended context stops the import with an error
// wrapping the context's.
func TestRestoreCanceled(t *testing.T) {
	src := sourceChain(t)
	dst := testchain.Open(t, src.Cfg, nil, core.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := restore(t, ctx, dst, dump(t, src), chaindump.RestoreOptions{})
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorContains(t, err, "interrupted at height")
	require.False(t, errors.Is(err, chaindump.ErrFormat))
}

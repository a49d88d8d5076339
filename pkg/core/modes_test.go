package core_test

import (
	"context"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/stretchr/testify/require"
)

// KeepOnlyLatestState and RemoveUntraceableBlocks give the same state roots
// as an archival node; the latter removes blocks older than
// MaxTraceableBlocks and the trie nodes that died before them.
func TestStorageModes(t *testing.T) {
	gen := testchain.New(t)
	blocks, _ := genBlocks(gen, mustHeader(t, gen.BC, 0), 80)
	committee := gen.Account()
	run := func(app string) *core.Blockchain {
		c := testchain.New(t, testchain.Options{Protocol: "  MaxTraceableBlocks: 20\n", App: app})
		c.BC.SeedGASForTest(committee, 1_000_000_0000_0000)
		require.NoError(t, c.BC.AddBlocks(context.Background(), streamBlocks(blocks)))
		return c.BC
	}
	full := run("")
	latest := run("  KeepOnlyLatestState: true\n")
	gc := run("  RemoveUntraceableBlocks: true\n  GarbageCollectionPeriod: 10\n")
	for h := uint32(0); h <= 80; h++ {
		want, err := full.GetStateRoot(h)
		require.NoError(t, err)
		for _, bc := range []*core.Blockchain{latest, gc} {
			got, err := bc.GetStateRoot(h)
			require.NoError(t, err)
			require.Equal(t, want.RootHash, got.RootHash, "height %d", h)
		}
	}
	// Old state: readable from the archival trie only.
	old, _ := full.GetStateRoot(5)
	key := []byte{0xf9, 0xff, 0xff, 0xff, 10} // Policy fee per byte
	_, err := full.GetState(old.RootHash, key)
	require.NoError(t, err)
	_, err = latest.GetState(old.RootHash, key)
	require.Error(t, err)
	// Untraceable blocks are gone, recent ones stay.
	_, err = gc.GetBlockByIndex(5)
	require.ErrorIs(t, err, core.ErrNotFound)
	_, err = gc.GetBlockByIndex(70)
	require.NoError(t, err)
	_, err = full.GetBlockByIndex(5)
	require.NoError(t, err)
	countNodes := func(bc *core.Blockchain) int {
		n := 0
		bc.DAO().Store.Seek(storage.SeekRange{Prefix: storage.DataMPT.Bytes()}, func(_, _ []byte) bool { n++; return true })
		return n
	}
	t.Logf("trie nodes: archival %d, latest %d, gc %d", countNodes(full), countNodes(latest), countNodes(gc))
	require.Less(t, countNodes(latest), countNodes(full))
	require.Less(t, countNodes(gc), countNodes(full))
}

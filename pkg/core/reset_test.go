package core_test

import (
	"fmt"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

const (
	resetTop    = 24
	resetTarget = 13
)

// resetSource builds a chain with contract storage and GAS transfers that
// change in every block, and returns its blocks by index (0: nil).
func resetSource(t *testing.T) (*testchain.Chain, []*block.Block) {
	g := testchain.New(t)
	h := g.DeployStorage()
	blocks := []*block.Block{nil, mustBlock(t, g.BC, 1)}
	accs := testchain.Keys(t, 40, 3)
	for i := 0; g.BC.BlockHeight() < resetTop; i++ {
		if i%2 == 0 {
			acc := hash.Hash160(accs[i%3].PublicKey().VerificationScript())
			g.TransferGAS(acc, int64(100+i), nil)
		} else {
			k := []byte(fmt.Sprintf("key-%d", i%5))
			v := []byte(fmt.Sprintf("value-%d", i))
			if i%7 == 0 {
				v = nil
			}
			g.AddBlock(g.Tx(testchain.PutScript(h, [][]byte{k}, [][]byte{v})))
		}
		blocks = append(blocks, mustBlock(t, g.BC, g.BC.BlockHeight()))
	}
	return g, blocks
}

// ledgerKeys returns every stored key and value but the trie nodes (which
// a reset keeps) and the SYS records other than the chain markers.
func ledgerKeys(s storage.Store) map[string]string {
	res := map[string]string{}
	s.Seek(storage.SeekRange{}, func(k, v []byte) bool {
		switch p := storage.KeyPrefix(k[0]); {
		case p == storage.DataMPT, p > storage.SYSCurrentHeader && p != storage.SYSVersion:
		default:
			res[string(k)] = string(v)
		}
		return true
	})
	return res
}

// TestReset rolls a chain back and checks that its database is the one
// of a chain that stopped at the target height, that it survives a
// restart and adds the later blocks again to the same state roots.
func TestReset(t *testing.T) {
	src, blocks := resetSource(t)
	roots := map[uint32]hash.Uint256{}
	for i := uint32(0); i <= resetTop; i++ {
		r, err := src.BC.GetStateRoot(i)
		require.NoError(t, err)
		roots[i] = r.RootHash
	}
	// The reference: the same blocks up to the target.
	refStore := storage.NewMemoryStore()
	ref := testchain.Open(t, src.Cfg, noClose{refStore}, core.Options{})
	for _, b := range blocks[1 : resetTarget+1] {
		require.NoError(t, ref.BC.AddBlock(b))
	}
	require.NoError(t, ref.BC.Close())
	want := ledgerKeys(refStore)

	next := src.NextBlock()
	run := func(t *testing.T, crashAt int) {
		st := storage.NewMemoryStore()
		fs := storagetest.NewFaultStore(st)
		g := testchain.Open(t, src.Cfg, noClose{fs}, core.Options{})
		for _, b := range blocks[1:] {
			require.NoError(t, g.BC.AddBlock(b))
		}
		// Headers ahead of the blocks go too.
		require.NoError(t, g.BC.AddHeaders(&next.Header))
		require.NoError(t, g.BC.Persist())
		var steps []string
		progress := func(step string, done, total int) { steps = append(steps, step) }
		if crashAt > 0 {
			// Writes after the first crashAt fail: the process died there
			// (Close cannot write what is held back either).
			n := 0
			fs.SetWriteHook(func(map[string][]byte) {
				if n++; n == crashAt+1 {
					fs.FailWrites(-1)
				}
			})
			require.Error(t, g.BC.Reset(resetTarget, progress))
			_ = g.BC.Close()
		} else {
			require.NoError(t, g.BC.Reset(resetTarget, progress))
			require.Equal(t, uint32(resetTarget), g.BC.BlockHeight())
			require.Equal(t, uint32(resetTarget), g.BC.HeaderHeight())
			require.Equal(t, roots[resetTarget], g.BC.StateModule().CurrentLocalStateRoot())
			require.Contains(t, steps, "storage")
			require.Contains(t, steps, "blocks")
		}
		if crashAt == 0 {
			require.NoError(t, g.BC.Close())
		}
		bc, err := core.New(src.Cfg, st, core.Options{Logger: quiet})
		require.NoError(t, err)
		defer bc.Close()
		require.Equal(t, uint32(resetTarget), bc.BlockHeight())
		require.Equal(t, roots[resetTarget], bc.StateModule().CurrentLocalStateRoot())
		require.NoError(t, bc.Persist())
		require.Equal(t, want, ledgerKeys(st))
		for _, b := range blocks[resetTarget+1:] {
			require.NoError(t, bc.AddBlock(b))
			require.Equal(t, roots[b.Index], bc.StateModule().CurrentLocalStateRoot(), "block %d", b.Index)
		}
	}
	t.Run("clean", func(t *testing.T) { run(t, 0) })
	// The first write holds the storage copy and the reset marker; a
	// crash after it, in any later stage, is finished by opening the
	// chain again.
	for _, n := range []int{1, 2, 3, 4, 5} {
		t.Run(fmt.Sprintf("crash after %d writes", n), func(t *testing.T) { run(t, n) })
	}
}

// TestResetRefused covers the cases neo-go refuses and the no-op.
func TestResetRefused(t *testing.T) {
	g := testchain.New(t)
	for range 3 {
		g.AddBlock()
	}
	require.ErrorContains(t, g.BC.Reset(4, nil), "current block height is 3, can't reset state to height 4")
	require.NoError(t, g.BC.Reset(3, nil))
	for _, app := range []string{"  KeepOnlyLatestState: true\n", "  RemoveUntraceableBlocks: true\n"} {
		c := testchain.New(t, testchain.Options{App: app})
		c.AddBlock()
		c.AddBlock()
		require.Error(t, c.BC.Reset(1, nil), app)
	}
}

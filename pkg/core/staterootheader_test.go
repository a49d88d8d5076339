package core_test

import (
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// TestStateRootInHeader: on a StateRootInHeader chain every header carries
// the local state root of the previous block; blocks with another root or
// in the other format are refused, and stored blocks read back with their
// roots.
func TestStateRootInHeader(t *testing.T) {
	c := testchain.New(t, testchain.Options{Protocol: "  StateRootInHeader: true\n"})
	g, err := c.BC.GetBlockByIndex(0)
	require.NoError(t, err)
	require.True(t, g.StateRootEnabled)
	require.True(t, g.PrevStateRoot.IsZero())

	for range 3 {
		c.AddBlock(c.Tx([]byte{0x11})) // PUSH1
	}
	for i := uint32(1); i <= 3; i++ {
		b, err := c.BC.GetBlockByIndex(i)
		require.NoError(t, err)
		r, err := c.BC.GetStateRoot(i - 1)
		require.NoError(t, err)
		require.True(t, b.StateRootEnabled)
		require.Equal(t, r.RootHash, b.PrevStateRoot, "block %d", i)
		// The stored encoding round-trips in the network's format.
		raw := b.Bytes()
		require.Len(t, raw, b.Size())
		d, err := block.DecodeOwnedBlock(raw, true)
		require.NoError(t, err)
		require.Equal(t, b.Hash(), d.Hash())
		require.Equal(t, b.PrevStateRoot, d.PrevStateRoot)
	}

	top, err := c.BC.GetHeader(c.BC.CurrentBlockHash())
	require.NoError(t, err)
	wrong := c.BlockAfter(top)
	wrong.PrevStateRoot = hash.Uint256{7}
	wrong = resignBlock(c, wrong)
	require.ErrorIs(t, c.BC.AddBlock(wrong), core.ErrHdrInvalidStateRoot)

	plain := c.BlockAfter(top)
	plain.StateRootEnabled = false
	plain = resignBlock(c, plain)
	require.ErrorIs(t, c.BC.AddBlock(plain), core.ErrHdrStateRootSetting)

	// A header sent ahead of its block is checked when it is added if
	// the previous root is known.
	ahead := c.BlockAfter(top)
	ahead.PrevStateRoot = hash.Uint256{8}
	ahead = resignBlock(c, ahead)
	require.ErrorIs(t, c.BC.AddHeaders(&ahead.Header), core.ErrHdrInvalidStateRoot)

	c.AddBlock()
	require.Equal(t, uint32(4), c.BC.BlockHeight())
}

// TestStateRootInHeaderCommitCheck: a block whose header was accepted
// before the previous root existed (header sync ahead of blocks) is
// refused when its previous root turns out to differ.
func TestStateRootInHeaderCommitCheck(t *testing.T) {
	c := testchain.New(t, testchain.Options{Protocol: "  StateRootInHeader: true\n"})
	b1 := c.NextBlock()
	b2 := c.NextBlock() // made ahead: PrevStateRoot is zero, not block 1's root
	require.NoError(t, c.BC.AddHeaders(&b1.Header, &b2.Header))
	require.NoError(t, c.BC.AddBlock(b1))
	require.ErrorIs(t, c.BC.AddBlock(b2), core.ErrHdrInvalidStateRoot)
	require.Equal(t, uint32(1), c.BC.BlockHeight())
}

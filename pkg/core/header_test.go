package core_test

import (
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

func TestHeaderVerification(t *testing.T) {
	c := testchain.New(t)
	c.AddBlock()
	top, err := c.BC.GetHeader(c.BC.CurrentBlockHash())
	require.NoError(t, err)

	resign := func(b *block.Block) *block.Block { return resignBlock(c, b) }
	for _, tc := range []struct {
		name string
		blk  func() *block.Block
		err  error
	}{
		{"previous hash", func() *block.Block {
			b := c.BlockAfter(top)
			b.PrevHash = hash.Uint256{1}
			return resign(b)
		}, core.ErrHdrHashMismatch},
		{"not newer", func() *block.Block {
			b := c.BlockAfter(top)
			b.Timestamp = top.Timestamp
			return resign(b)
		}, core.ErrHdrInvalidTimestamp},
		{"primary index", func() *block.Block {
			b := c.BlockAfter(top)
			b.PrimaryIndex = 1
			return resign(b)
		}, core.ErrHdrPrimaryIndex},
		{"witness of another key", func() *block.Block {
			b := c.BlockAfter(top)
			sd := b.SignData(uint32(c.Cfg.Magic))
			b.Witness.InvocationScript = testchain.PushData(newKey(t, 9).Sign(sd[:]))
			return b
		}, core.ErrHdrWitness},
		{"witness of another script", func() *block.Block {
			b := c.BlockAfter(top)
			b.Witness.VerificationScript = []byte{0x11}
			return b
		}, core.ErrHdrWitness},
		{"merkle root", func() *block.Block {
			b := c.BlockAfter(top)
			b.MerkleRoot = hash.Uint256{2}
			return resign(b)
		}, core.ErrMerkleRoot},
		{"gap", func() *block.Block {
			return c.BlockAfter(&c.BlockAfter(top).Header)
		}, core.ErrInvalidBlockIndex},
		{"already on chain", func() *block.Block {
			b, err := c.BC.GetBlockByIndex(1)
			require.NoError(t, err)
			return b
		}, core.ErrAlreadyExists},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, c.BC.AddBlock(tc.blk()), tc.err)
			require.EqualValues(t, 1, c.BC.BlockHeight())
			require.EqualValues(t, 1, c.BC.HeaderHeight())
		})
	}
	// The chain goes on after the refusals.
	c.AddBlock()
	require.EqualValues(t, 2, c.BC.BlockHeight())
}

func TestSkipBlockVerification(t *testing.T) {
	c := testchain.New(t, testchain.Options{App: "  SkipBlockVerification: true\n"})
	b := c.BlockAfter(nil)
	b.Witness = transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	require.NoError(t, c.BC.AddBlock(b))
	require.EqualValues(t, 1, c.BC.BlockHeight())
}

func TestAddHeadersAhead(t *testing.T) {
	c := testchain.New(t)
	var blocks []*block.Block
	var prev *block.Header
	for range 5 {
		b := c.BlockAfter(prev)
		blocks = append(blocks, b)
		prev = &b.Header
	}
	hdrs := make([]*block.Header, len(blocks))
	for i, b := range blocks {
		hdrs[i] = &b.Header
	}
	// A broken chain of headers is refused from the bad one on.
	bad := c.BlockAfter(&blocks[1].Header)
	bad.Timestamp = 0
	require.Error(t, c.BC.AddHeaders(hdrs[0], hdrs[1], &bad.Header))
	require.EqualValues(t, 2, c.BC.HeaderHeight())
	require.NoError(t, c.BC.AddHeaders(hdrs...))
	require.EqualValues(t, 5, c.BC.HeaderHeight())
	require.EqualValues(t, 0, c.BC.BlockHeight())
	h, err := c.BC.GetHeaderByIndex(4)
	require.NoError(t, err)
	require.Equal(t, blocks[3].Hash(), h.Hash())
	_, err = c.BC.GetBlock(blocks[3].Hash())
	require.ErrorIs(t, err, core.ErrNotFound)
	// A block whose header is known must have that hash.
	g, err := c.BC.GetHeaderByIndex(0)
	require.NoError(t, err)
	other := c.BlockAfter(g)
	other.Nonce++
	resignBlock(c, other)
	require.ErrorIs(t, c.BC.AddBlock(other), core.ErrBlockHashMismatch)
	for _, b := range blocks {
		require.NoError(t, c.BC.AddBlock(b))
	}
	require.EqualValues(t, 5, c.BC.BlockHeight())
	got, err := c.BC.GetBlock(blocks[3].Hash())
	require.NoError(t, err)
	require.Equal(t, blocks[3].Hash(), got.Hash())
}

// resignBlock rebuilds b's header (dropping its cached hash) and signs it.
func resignBlock(c *testchain.Chain, b *block.Block) *block.Block {
	b.Header = block.Header{Version: b.Version, PrevHash: b.PrevHash, MerkleRoot: b.MerkleRoot, Timestamp: b.Timestamp,
		Nonce: b.Nonce, Index: b.Index, PrimaryIndex: b.PrimaryIndex, NextConsensus: b.NextConsensus,
		StateRootEnabled: b.StateRootEnabled, PrevStateRoot: b.PrevStateRoot}
	c.SignBlock(b)
	return b
}

package core_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

func TestHeaderVerification(t *testing.T) {
	c := newTestChain(t)
	c.addBlock()
	top, err := c.bc.GetHeader(c.bc.CurrentBlockHash())
	require.NoError(t, err)

	resign := c.resign
	for _, tc := range []struct {
		name string
		blk  func() *block.Block
		err  error
	}{
		{"previous hash", func() *block.Block {
			b := c.blockAfter(top)
			b.PrevHash = hash.Uint256{1}
			return resign(b)
		}, core.ErrHdrHashMismatch},
		{"not newer", func() *block.Block {
			b := c.blockAfter(top)
			b.Timestamp = top.Timestamp
			return resign(b)
		}, core.ErrHdrInvalidTimestamp},
		{"primary index", func() *block.Block {
			b := c.blockAfter(top)
			b.PrimaryIndex = 1
			return resign(b)
		}, core.ErrHdrPrimaryIndex},
		{"witness of another key", func() *block.Block {
			b := c.blockAfter(top)
			sd := b.SignData(uint32(c.cfg.Magic))
			b.Witness.InvocationScript = pushData(newKey(t, 9).Sign(sd[:]))
			return b
		}, core.ErrHdrWitness},
		{"witness of another script", func() *block.Block {
			b := c.blockAfter(top)
			b.Witness.VerificationScript = []byte{0x11}
			return b
		}, core.ErrHdrWitness},
		{"merkle root", func() *block.Block {
			b := c.blockAfter(top)
			b.MerkleRoot = hash.Uint256{2}
			return resign(b)
		}, core.ErrMerkleRoot},
		{"gap", func() *block.Block {
			return c.blockAfter(&c.blockAfter(top).Header)
		}, core.ErrInvalidBlockIndex},
		{"already on chain", func() *block.Block {
			b, err := c.bc.GetBlockByIndex(1)
			require.NoError(t, err)
			return b
		}, core.ErrAlreadyExists},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, c.bc.AddBlock(tc.blk()), tc.err)
			require.EqualValues(t, 1, c.bc.BlockHeight())
			require.EqualValues(t, 1, c.bc.HeaderHeight())
		})
	}
	// The chain goes on after the refusals.
	c.addBlock()
	require.EqualValues(t, 2, c.bc.BlockHeight())
}

func TestSkipBlockVerification(t *testing.T) {
	c := newTestChain(t, chainOpts{app: "  SkipBlockVerification: true\n"})
	b := c.blockAfter(nil)
	b.Witness = transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	require.NoError(t, c.bc.AddBlock(b))
	require.EqualValues(t, 1, c.bc.BlockHeight())
}

func TestAddHeadersAhead(t *testing.T) {
	c := newTestChain(t)
	var blocks []*block.Block
	var prev *block.Header
	for range 5 {
		b := c.blockAfter(prev)
		blocks = append(blocks, b)
		prev = &b.Header
	}
	hdrs := make([]*block.Header, len(blocks))
	for i, b := range blocks {
		hdrs[i] = &b.Header
	}
	// A broken chain of headers is refused from the bad one on.
	bad := c.blockAfter(&blocks[1].Header)
	bad.Timestamp = 0
	require.Error(t, c.bc.AddHeaders(hdrs[0], hdrs[1], &bad.Header))
	require.EqualValues(t, 2, c.bc.HeaderHeight())
	require.NoError(t, c.bc.AddHeaders(hdrs...))
	require.EqualValues(t, 5, c.bc.HeaderHeight())
	require.EqualValues(t, 0, c.bc.BlockHeight())
	h, err := c.bc.GetHeaderByIndex(4)
	require.NoError(t, err)
	require.Equal(t, blocks[3].Hash(), h.Hash())
	_, err = c.bc.GetBlock(blocks[3].Hash())
	require.ErrorIs(t, err, core.ErrNotFound)
	// A block whose header is known must have that hash.
	g, err := c.bc.GetHeaderByIndex(0)
	require.NoError(t, err)
	other := c.blockAfter(g)
	other.Nonce++
	c.resign(other)
	require.ErrorIs(t, c.bc.AddBlock(other), core.ErrBlockHashMismatch)
	for _, b := range blocks {
		require.NoError(t, c.bc.AddBlock(b))
	}
	require.EqualValues(t, 5, c.bc.BlockHeight())
	got, err := c.bc.GetBlock(blocks[3].Hash())
	require.NoError(t, err)
	require.Equal(t, blocks[3].Hash(), got.Hash())
}

// resign rebuilds b's header (dropping its cached hash) and signs it.
func (c *testChain) resign(b *block.Block) *block.Block {
	b.Header = block.Header{Version: b.Version, PrevHash: b.PrevHash, MerkleRoot: b.MerkleRoot, Timestamp: b.Timestamp,
		Nonce: b.Nonce, Index: b.Index, PrimaryIndex: b.PrimaryIndex, NextConsensus: b.NextConsensus}
	c.signBlock(b)
	return b
}

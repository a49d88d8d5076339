package bqueue_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/network/bqueue"
	"github.com/stretchr/testify/require"
)

var catchupBlocks = flag.Int("catchup.blocks", 40, "heavy blocks BenchmarkCatchUp feeds through the queue")

// oneByOne hides a ledger's stream API, so the queue adds one block per
// call.
type oneByOne struct{ bqueue.Ledger }

// heavyChain makes a chain of n blocks after the storage contract's
// deployment, each with txs transactions writing keys storage items of
// 64 bytes (fresh keys and overwrites), and returns its configuration, its
// blocks (from height 1) and the state root of each height.
func heavyChain(t testing.TB, n, txs, keys int) (config.Blockchain, []*block.Block, []hash.Uint256) {
	cfg := testchain.Config(t, testchain.Options{})
	g := testchain.Open(t, cfg, nil, core.Options{})
	h := g.DeployStorage()
	r := rand.New(rand.NewPCG(17, 4))
	for i := range n {
		var ts []*transaction.Transaction
		for k := range txs {
			ks, vs := make([][]byte, keys), make([][]byte, keys)
			for j := range keys {
				ks[j] = fmt.Appendf(nil, "k%d", r.IntN(4*n*txs*keys))
				vs[j] = make([]byte, 64)
				for x := range vs[j] {
					vs[j][x] = byte(r.Uint32())
				}
				if (i+k+j)%11 == 10 {
					vs[j] = nil // a delete
				}
			}
			ts = append(ts, g.Tx(testchain.PutScript(h, ks, vs)))
		}
		g.AddBlock(ts...)
	}
	top := g.BC.BlockHeight()
	blocks := make([]*block.Block, 0, top)
	roots := make([]hash.Uint256, top+1)
	for i := uint32(1); i <= top; i++ {
		b, err := g.BC.GetBlock(g.BC.GetHeaderHash(i))
		require.NoError(t, err)
		blocks = append(blocks, b)
	}
	for i := range top + 1 {
		sr, err := g.BC.GetStateRoot(i)
		require.NoError(t, err)
		roots[i] = sr.RootHash
	}
	return cfg, blocks, roots
}

// tampered returns b with another nonce (its witness no longer matches).
func tampered(b *block.Block) *block.Block {
	h := b.Header
	return &block.Block{Header: block.Header{
		Version: h.Version, PrevHash: h.PrevHash, MerkleRoot: h.MerkleRoot, Timestamp: h.Timestamp,
		Nonce: h.Nonce + 1, Index: h.Index, PrimaryIndex: h.PrimaryIndex, NextConsensus: h.NextConsensus,
		Witness: h.Witness,
	}, Transactions: b.Transactions}
}

// syncThroughQueue feeds blocks to a new chain through a queue (stream or
// one by one), in the order given, and returns the chain once it has them
// all.
func syncThroughQueue(t testing.TB, cfg config.Blockchain, blocks []*block.Block, stream bool, order []*block.Block) *core.Blockchain {
	bc := testchain.Open(t, cfg, nil, core.Options{}).BC
	var l bqueue.Ledger = bc
	if !stream {
		l = oneByOne{bc}
	}
	q := bqueue.New(l, len(blocks)+1, nil, nil)
	done := make(chan struct{})
	go func() { q.Run(); close(done) }()
	defer func() { q.Discard(); <-done }()
	for _, b := range order {
		q.Put(b)
	}
	top := blocks[len(blocks)-1].Index
	deadline := time.Now().Add(5 * time.Minute)
	for bc.BlockHeight() < top {
		if time.Now().After(deadline) {
			t.Fatalf("height %d, want %d", bc.BlockHeight(), top)
		}
		time.Sleep(time.Millisecond)
	}
	return bc
}

// TestStreamSameRoots: blocks arriving out of order, with a tampered copy
// of one height ahead of the real one, land through the queue's stream
// with the same state roots as the source chain, and as one by one.
func TestStreamSameRoots(t *testing.T) {
	cfg, blocks, roots := heavyChain(t, 12, 4, 6)
	r := rand.New(rand.NewPCG(1, 2))
	order := make([]*block.Block, len(blocks))
	copy(order, blocks)
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	// A peer's forgery of height 6 comes first; the real block comes last,
	// after the queue has refused the forgery and the blocks after it
	// wait for the real one.
	bad := blocks[5]
	order = append([]*block.Block{tampered(bad)}, order...)
	for i, b := range order {
		if b == bad {
			order = append(order[:i:i], order[i+1:]...)
			break
		}
	}
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			bc := testchain.Open(t, cfg, nil, core.Options{}).BC
			var l bqueue.Ledger = bc
			if !stream {
				l = oneByOne{bc}
			}
			q := bqueue.New(l, len(blocks)+1, nil, nil)
			done := make(chan struct{})
			go func() { q.Run(); close(done) }()
			defer func() { q.Discard(); <-done }()
			for _, b := range order {
				q.Put(b)
			}
			deadline := time.Now().Add(5 * time.Minute)
			for bc.BlockHeight() < bad.Index-1 || q.Len() != len(blocks)-int(bad.Index) {
				if time.Now().After(deadline) {
					t.Fatalf("height %d, queued %d", bc.BlockHeight(), q.Len())
				}
				time.Sleep(time.Millisecond)
			}
			require.Equal(t, bad.Index-1, bc.BlockHeight(), "blocks after the refused one were applied")
			require.True(t, q.Put(bad), "the real block was not taken after the forgery was refused")
			top := blocks[len(blocks)-1].Index
			for bc.BlockHeight() < top {
				if time.Now().After(deadline) {
					t.Fatalf("height %d, want %d", bc.BlockHeight(), top)
				}
				time.Sleep(time.Millisecond)
			}
			for i := range top + 1 {
				sr, err := bc.GetStateRoot(i)
				require.NoError(t, err)
				require.Equal(t, roots[i], sr.RootHash, "state root of %d", i)
			}
			for _, b := range blocks {
				require.Equal(t, b.Hash(), bc.GetHeaderHash(b.Index))
			}
		})
	}
}

// BenchmarkCatchUp measures catching up -catchup.blocks heavy blocks (8
// transactions of 8 storage writes each) through the block queue, all
// queued in random order before Run starts consuming them, with the
// ledger taking a stream (the pipeline overlaps execution and trie
// commit) and one block per call. Timing is meaningful only on a quiet
// host (docs/perf.md); allocations are deterministic.
func BenchmarkCatchUp(b *testing.B) {
	cfg, blocks, roots := heavyChain(b, *catchupBlocks, 8, 8)
	r := rand.New(rand.NewPCG(3, 4))
	order := make([]*block.Block, len(blocks))
	copy(order, blocks)
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, stream := range []bool{true, false} {
		name := "OneByOne"
		if stream {
			name = "Stream"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bc := syncThroughQueue(b, cfg, blocks, stream, order)
				b.StopTimer()
				top := bc.BlockHeight()
				if sr, err := bc.GetStateRoot(top); err != nil || sr.RootHash != roots[top] {
					b.Fatalf("state root of %d differs (%v)", top, err)
				}
				_ = bc.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.N*len(blocks))/b.Elapsed().Seconds(), "blocks/s")
		})
	}
}

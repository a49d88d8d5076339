package bench

import (
	"context"
	"fmt"
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/rpcclient"
)

// watcher follows the chain from a reference block on, as neo-bench's
// parser does: it polls getblockcount and fetches every new block (binary
// getblock), keeping timestamp, transaction count and size.
type watcher struct {
	c *rpcclient.Client

	mu     sync.Mutex
	next   uint32
	blocks []BlockStat
	txs    int64 // transactions in blocks after the reference block
	// emptyTail counts the empty blocks at the end of blocks.
	emptyTail int
}

func newWatcher(c *rpcclient.Client, ref uint32) *watcher {
	return &watcher{c: c, next: ref}
}

// fetch reads block i.
func fetchBlock(ctx context.Context, c *rpcclient.Client, i uint32) (BlockStat, error) {
	raw, err := c.GetBlockRaw(ctx, i)
	if err != nil {
		return BlockStat{}, fmt.Errorf("getblock %d: %w", i, err)
	}
	size := len(raw)
	b, err := block.NewBlockFromOwnedBytes(raw)
	if err != nil {
		return BlockStat{}, fmt.Errorf("block %d: %w", i, err)
	}
	if b.Index != i {
		return BlockStat{}, fmt.Errorf("getblock %d returned block %d", i, b.Index)
	}
	return BlockStat{Index: i, Timestamp: b.Timestamp, Txs: len(b.Transactions), Size: size}, nil
}

// poll fetches the blocks that appeared since the last call and returns
// how many there were and how many of them were empty.
func (w *watcher) poll(ctx context.Context) (n, empty int, err error) {
	count, err := w.c.GetBlockCount(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("getblockcount: %w", err)
	}
	for {
		w.mu.Lock()
		i := w.next
		w.mu.Unlock()
		if i >= count {
			return n, empty, nil
		}
		st, err := fetchBlock(ctx, w.c, i)
		if err != nil {
			return n, empty, err
		}
		w.mu.Lock()
		if len(w.blocks) > 0 {
			w.txs += int64(st.Txs)
		}
		w.blocks = append(w.blocks, st)
		if st.Txs == 0 {
			w.emptyTail++
		} else {
			w.emptyTail = 0
		}
		w.next = i + 1
		w.mu.Unlock()
		n++
		if st.Txs == 0 {
			empty++
		}
	}
}

// inBlocks returns the transactions seen in blocks after the reference.
func (w *watcher) inBlocks() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.txs
}

// trailingEmpty returns the number of empty blocks at the end of the chain
// seen so far.
func (w *watcher) trailingEmpty() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.emptyTail
}

// snapshot returns a copy of the blocks seen so far.
func (w *watcher) snapshot() []BlockStat {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]BlockStat(nil), w.blocks...)
}

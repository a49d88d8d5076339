package bqueue_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/network/bqueue"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type chain struct {
	mu     sync.Mutex
	height uint32
	added  []uint32
	refuse map[uint32]int // refuse this many times
	added1 chan uint32
}

func (c *chain) BlockHeight() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.height
}

func (c *chain) AddBlock(b *block.Block) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.Index != c.height+1 {
		return errors.New("not next")
	}
	if c.refuse[b.Index] > 0 {
		c.refuse[b.Index]--
		return errors.New("bad block")
	}
	c.height = b.Index
	c.added = append(c.added, b.Index)
	if c.added1 != nil {
		c.added1 <- b.Index
	}
	return nil
}

// streamLedger gives a Ledger's AddBlock a stream API that reads a few
// blocks ahead, as core's pipeline does.
type streamLedger struct{ bqueue.Ledger }

func (l streamLedger) AddBlockStream(ctx context.Context, in <-chan *block.Block, added func(*block.Block)) error {
	ctx, cancel := context.WithCancel(ctx)
	ahead := make(chan *block.Block, 3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(ahead)
		for {
			select {
			case <-ctx.Done():
				return
			case b, ok := <-in:
				if !ok {
					return
				}
				select {
				case ahead <- b:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	defer func() {
		cancel()
		wg.Wait()
	}()
	for b := range ahead {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := l.AddBlock(b); err != nil {
			return err
		}
		added(b)
	}
	return ctx.Err()
}

// forEachMode runs test over a ledger that takes one block per call and
// over the same ledger taking a stream.
func forEachMode(t *testing.T, test func(*testing.T, func(bqueue.Ledger) bqueue.Ledger)) {
	t.Run("AddBlock", func(t *testing.T) { test(t, func(l bqueue.Ledger) bqueue.Ledger { return l }) })
	t.Run("AddBlockStream", func(t *testing.T) {
		test(t, func(l bqueue.Ledger) bqueue.Ledger { return streamLedger{l} })
	})
}

func blk(i uint32) *block.Block { return &block.Block{Header: block.Header{Index: i}} }

func waitHeight(t *testing.T, c *chain, h uint32) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for c.BlockHeight() < h {
		if time.Now().After(deadline) {
			t.Fatalf("height %d, want %d", c.BlockHeight(), h)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestOrderAndWindow(t *testing.T) { forEachMode(t, testOrderAndWindow) }

func testOrderAndWindow(t *testing.T, wrap func(bqueue.Ledger) bqueue.Ledger) {
	c := &chain{}
	var relayed []uint32
	var rmu sync.Mutex
	q := bqueue.New(wrap(c), 10, func(b *block.Block) { rmu.Lock(); relayed = append(relayed, b.Index); rmu.Unlock() }, nil)
	// Out of order, with duplicates and out-of-window heights.
	for _, i := range []uint32{5, 3, 0, 11, 12, 4, 4, 2, 10, 7, 6, 9, 8} {
		q.Put(blk(i))
	}
	if q.Len() != 9 {
		t.Fatalf("Len %d", q.Len())
	}
	if last, free := q.LastQueued(); last != 0 || free != 1 {
		t.Fatalf("LastQueued %d %d", last, free)
	}
	if q.Put(blk(11)) {
		t.Fatal("took a block beyond the window")
	}
	q.Put(blk(1))
	done := make(chan struct{})
	go func() { q.Run(); close(done) }()
	waitHeight(t, c, 10)
	q.Discard()
	<-done
	for i, h := range c.added {
		if h != uint32(i+1) {
			t.Fatalf("added %v", c.added)
		}
	}
	rmu.Lock()
	defer rmu.Unlock()
	if len(relayed) != 10 {
		t.Fatalf("relayed %v", relayed)
	}
	if q.Put(blk(11)) {
		t.Fatal("Put after Discard")
	}
}

func TestRefusedBlockIsReplaced(t *testing.T) { forEachMode(t, testRefusedBlockIsReplaced) }

func testRefusedBlockIsReplaced(t *testing.T, wrap func(bqueue.Ledger) bqueue.Ledger) {
	c := &chain{refuse: map[uint32]int{2: 1}}
	q := bqueue.New(wrap(c), 5, nil, nil)
	done := make(chan struct{})
	go func() { q.Run(); close(done) }()
	defer func() { q.Discard(); <-done }()
	q.Put(blk(1))
	q.Put(blk(2)) // refused once
	q.Put(blk(3))
	waitHeight(t, c, 1)
	deadline := time.Now().Add(30 * time.Second)
	for q.Len() != 1 { // 3 is left waiting for 2
		if time.Now().After(deadline) {
			t.Fatalf("Len %d", q.Len())
		}
		time.Sleep(time.Millisecond)
	}
	if last, _ := q.LastQueued(); last != 1 {
		t.Fatalf("LastQueued %d after refusal", last)
	}
	if !q.Put(blk(2)) {
		t.Fatal("second copy of the refused height not taken")
	}
	waitHeight(t, c, 3)
}

// TestChainMovesOn: blocks the chain got elsewhere are forgotten.
func TestChainMovesOn(t *testing.T) { forEachMode(t, testChainMovesOn) }

func testChainMovesOn(t *testing.T, wrap func(bqueue.Ledger) bqueue.Ledger) {
	c := &chain{}
	q := bqueue.New(wrap(c), 8, nil, nil)
	for i := uint32(1); i <= 8; i++ {
		q.Put(blk(i))
	}
	c.mu.Lock()
	c.height = 5
	c.mu.Unlock()
	if q.Len() != 3 {
		t.Fatalf("Len %d", q.Len())
	}
	if !q.Put(blk(13)) || q.Put(blk(14)) {
		t.Fatal("window did not move")
	}
	c.mu.Lock()
	c.height = 1000
	c.mu.Unlock()
	if q.Len() != 0 {
		t.Fatalf("Len %d after a jump", q.Len())
	}
	q.Discard()
}

// TestFlood: many goroutines put random heights; the queue never holds
// more than its capacity and the chain still gets every block in order.
func TestFlood(t *testing.T) { forEachMode(t, testFlood) }

func testFlood(t *testing.T, wrap func(bqueue.Ledger) bqueue.Ledger) {
	c := &chain{}
	const capacity, top = 50, 400
	q := bqueue.New(wrap(c), capacity, nil, nil)
	done := make(chan struct{})
	go func() { q.Run(); close(done) }()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 1))
			for {
				select {
				case <-stop:
					return
				default:
				}
				h := c.BlockHeight()
				q.Put(blk(h + 1 + uint32(r.IntN(3*capacity))))
				if n := q.Len(); n > capacity {
					t.Errorf("Len %d > capacity", n)
					return
				}
				if _, free := q.LastQueued(); free < 0 {
					t.Errorf("free %d", free)
					return
				}
				if h >= top {
					return
				}
			}
		}()
	}
	waitHeight(t, c, top)
	close(stop)
	wg.Wait()
	q.Discard()
	<-done
	for i, h := range c.added {
		if h != uint32(i+1) {
			t.Fatalf("out of order at %d: %d", i, h)
		}
	}
}

// forgingChain refuses blocks with the forged nonce.
type forgingChain struct{ *chain }

const forgedNonce = 0xbad

func (c forgingChain) AddBlock(b *block.Block) error {
	if b.Nonce == forgedNonce {
		return errors.New("bad witness")
	}
	return c.chain.AddBlock(b)
}

func forged(i uint32) *block.Block {
	return &block.Block{Header: block.Header{Index: i, Nonce: forgedNonce}}
}

// TestForgedBlocks: a peer fills the whole window with forged blocks
// before the headers are known. A real block matched against its header
// (PutChecked) replaces the forgery of its height, a plain Put does not;
// and when the chain moves on by itself (consensus), the next Put wakes
// Run for the block that is now due even though it takes nothing.
func TestForgedBlocks(t *testing.T) { forEachMode(t, testForgedBlocks) }

func testForgedBlocks(t *testing.T, wrap func(bqueue.Ledger) bqueue.Ledger) {
	c := &chain{}
	q := bqueue.New(wrap(forgingChain{c}), 10, nil, nil)
	for i := uint32(1); i <= 10; i++ {
		if !q.Put(forged(i)) {
			t.Fatalf("forged %d not taken", i)
		}
	}
	go q.Run()
	defer q.Discard()
	// Run refuses the forged block 1; the others wait.
	deadline := time.Now().Add(30 * time.Second)
	for q.Len() != 9 {
		if time.Now().After(deadline) {
			t.Fatalf("Len %d", q.Len())
		}
		time.Sleep(time.Millisecond)
	}
	if q.Put(blk(3)) {
		t.Fatal("an unchecked block replaced a queued one")
	}
	if q.PutChecked(forged(3)) {
		t.Fatal("the same block taken again")
	}
	for _, i := range []uint32{2, 3} {
		if !q.PutChecked(blk(i)) {
			t.Fatalf("checked block %d not taken", i)
		}
	}
	if !q.Put(blk(1)) {
		t.Fatal("block 1 not taken")
	}
	waitHeight(t, c, 3)
	// Forged 4 is refused; the chain then gets 4 and 5 elsewhere.
	for q.Len() != 6 {
		if time.Now().After(deadline) {
			t.Fatalf("Len %d", q.Len())
		}
		time.Sleep(time.Millisecond)
	}
	c.mu.Lock()
	c.height = 5
	c.mu.Unlock()
	// Forged 6 is due: a Put that takes nothing still gets it refused,
	// which frees its height for the real block.
	if q.Put(blk(7)) {
		t.Fatal("took a block for a queued height")
	}
	for !q.Put(blk(6)) {
		if time.Now().After(deadline) {
			t.Fatal("the forged block 6 was never refused")
		}
		time.Sleep(time.Millisecond)
	}
	for _, i := range []uint32{7, 8, 9, 10} {
		q.PutChecked(blk(i))
	}
	waitHeight(t, c, 10)
}

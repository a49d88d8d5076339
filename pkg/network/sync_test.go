package network

import (
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/network/internal/fakechain"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

// chain300 is a chain of 300 blocks (genesis included) with a few
// transactions in every block.
var chain300 = func() []*block.Block {
	c := fakechain.Chain(300, 3)
	// Share the genesis of the other tests.
	return append([]*block.Block{genesis}, relink(c[1:], &genesis.Header)...)
}()

// relink rebuilds blocks on top of prev (the headers change, the
// transactions stay).
func relink(bs []*block.Block, prev *block.Header) []*block.Block {
	out := make([]*block.Block, len(bs))
	for i, b := range bs {
		out[i] = fakechain.Block(prev, b.Index, b.Transactions)
		prev = &out[i].Header
	}
	return out
}

func checkSynced(t *testing.T, l *fakeLedger, chain []*block.Block) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.blocks) != len(chain) {
		t.Fatalf("height %d, want %d", len(l.blocks)-1, len(chain)-1)
	}
	for i, b := range chain {
		if l.blocks[i].Hash() != b.Hash() {
			t.Fatalf("block %d differs", i)
		}
	}
	// Headers first: every block was added after its header was known.
	for i, hh := range l.headerLog {
		if hh < l.addedOrder[i] {
			t.Fatalf("block %d added with header height %d", l.addedOrder[i], hh)
		}
	}
	if l.addHeaders == 0 {
		t.Fatal("no headers were added")
	}
}

func TestSyncFromOnePeer(t *testing.T) {
	src := startNode(t, testConfig(1), ledgerWith(chain300))
	cfg := testConfig(2)
	cfg.BlockQueueSize = 120 // smaller than the chain: the window must move
	dst := startNode(t, cfg, newFakeLedger(genesis))
	connect(t, dst, src)
	eventually(t, 20*time.Second, "sync", func() bool { return dst.l.BlockHeight() == 299 })
	checkSynced(t, dst.l, chain300)
}

// TestSyncSurvivesPeerLoss: besides a good source, the node has a peer
// that never answers and one that hangs up when asked; the requests they
// take are asked again of others and the sync completes.
func TestSyncSurvivesPeerLoss(t *testing.T) {
	cfg := testConfig(2)
	cfg.BlockQueueSize = 100
	dst := startNode(t, cfg, newFakeLedger(genesis))

	silent := dialRaw(t, dst.addr())
	silent.handshake(299)
	hangup := dialRaw(t, dst.addr())
	hangup.handshake(299)
	asked := make(chan struct{})
	go func() {
		defer close(asked)
		if _, err := hangup.read(message.CmdGetHeaders, message.CmdGetBlockByIndex); err == nil {
			hangup.conn.Close()
		}
	}()

	var srcs []*node
	for i := range 2 {
		s := startNode(t, testConfig(uint64(10+i)), ledgerWith(chain300))
		srcs = append(srcs, s)
		connect(t, dst, s)
	}
	eventually(t, 20*time.Second, "some progress", func() bool { return dst.l.BlockHeight() >= 50 })
	srcs[0].Shutdown()
	eventually(t, 30*time.Second, "sync", func() bool { return dst.l.BlockHeight() == 299 })
	checkSynced(t, dst.l, chain300)
	<-asked
}

// TestSyncIgnoresBadBlocks: a peer that sends a block contradicting the
// known headers is dropped; a good peer then completes the sync.
func TestSyncIgnoresBadBlocks(t *testing.T) {
	l := newFakeLedger(genesis)
	var hdrs []*block.Header
	for _, b := range chain300[1:50] {
		hdrs = append(hdrs, &b.Header)
	}
	if err := l.AddHeaders(hdrs...); err != nil {
		t.Fatal(err)
	}
	dst := startNode(t, testConfig(2), l)
	r := dialRaw(t, dst.addr())
	r.handshake(49)
	forged := fakechain.Block(&chain300[4].Header, 5, nil)
	r.send(message.CmdBlock, forged)
	if !r.closed() {
		t.Fatal("peer sending a block that contradicts the headers not dropped")
	}
	if dst.l.BlockHeight() != 0 {
		t.Fatalf("height %d", dst.l.BlockHeight())
	}
	good := startNode(t, testConfig(1), ledgerWith(chain300[:50]))
	connect(t, dst, good)
	eventually(t, 10*time.Second, "blocks", func() bool { return dst.l.BlockHeight() == 49 })
	checkSynced(t, dst.l, chain300[:50])
}

// TestServeRequests checks the answers to getheaders, getblockbyindex,
// getblocks, getdata and mempool.
func TestServeRequests(t *testing.T) {
	src := startNode(t, testConfig(1), ledgerWith(chain300[:30]))
	tx := fakechain.Tx(999)
	if err := src.l.pool.add(tx); err != nil {
		t.Fatal(err)
	}
	r := dialRaw(t, src.addr())
	r.handshake(0)

	r.send(message.CmdGetHeaders, &payload.GetBlockByIndex{IndexStart: 5, Count: -1})
	m, err := r.read(message.CmdHeaders)
	if err != nil {
		t.Fatal(err)
	}
	if hs := m.Payload.(*payload.Headers).Hdrs; len(hs) != 25 || hs[0].Index != 5 || hs[24].Hash() != chain300[29].Hash() {
		t.Fatalf("headers: %d", len(hs))
	}

	r.send(message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: 28, Count: 10})
	for i := uint32(28); i < 30; i++ {
		m, err := r.read(message.CmdBlock)
		if err != nil {
			t.Fatal(err)
		}
		if b := m.Payload.(*block.Block); b.Index != i || b.Hash() != chain300[i].Hash() {
			t.Fatalf("block %d", b.Index)
		}
	}

	r.send(message.CmdGetBlocks, &payload.GetBlocks{HashStart: chain300[10].Hash(), Count: 3})
	m, err = r.read(message.CmdInv)
	if err != nil {
		t.Fatal(err)
	}
	if inv := m.Payload.(*payload.Inventory); inv.Type != payload.BlockType || len(inv.Hashes) != 3 || inv.Hashes[2] != chain300[13].Hash() {
		t.Fatalf("getblocks answer %+v", inv)
	}

	missing := fakechain.Tx(1000).Hash()
	r.send(message.CmdGetData, &payload.Inventory{Type: payload.TXType, Hashes: []hash256{tx.Hash(), missing}})
	m, err = r.read(message.CmdTransaction)
	if err != nil {
		t.Fatal(err)
	}
	if m.Payload.(interface{ Size() int }).Size() != tx.Size() {
		t.Fatal("wrong tx")
	}
	m, err = r.read(message.CmdNotFound)
	if err != nil {
		t.Fatal(err)
	}
	if inv := m.Payload.(*payload.Inventory); len(inv.Hashes) != 1 || inv.Hashes[0] != missing {
		t.Fatalf("notfound %+v", inv)
	}

	r.send(message.CmdMempool, nil)
	m, err = r.read(message.CmdInv)
	if err != nil {
		t.Fatal(err)
	}
	if inv := m.Payload.(*payload.Inventory); len(inv.Hashes) != 1 || inv.Hashes[0] != tx.Hash() {
		t.Fatalf("mempool inv %+v", inv)
	}
}

// TestBlockQueueBound: a peer flooding blocks of every height cannot make
// the queue hold more than its capacity.
func TestBlockQueueBound(t *testing.T) {
	cfg := testConfig(1)
	cfg.BlockQueueSize = 30
	dst := startNode(t, cfg, newFakeLedger(genesis))
	r := dialRaw(t, dst.addr())
	r.handshake(100000)
	// Blocks that do not link (the ledger refuses them), of heights in
	// and far beyond the window, many times.
	done := make(chan struct{})
	go func() {
		defer close(done)
		for round := range 5 {
			for h := uint32(1); h < 200; h += 1 + uint32(round) {
				b := fakechain.Block(nil, h, nil)
				bs, _ := message.Encode(message.CmdBlock, b, false)
				r.write(bs)
			}
		}
	}()
	maxSeen := 0
	for {
		if n := dst.BlockQueueLen(); n > maxSeen {
			maxSeen = n
		}
		select {
		case <-done:
			time.Sleep(50 * time.Millisecond)
			if n := dst.BlockQueueLen(); n > maxSeen {
				maxSeen = n
			}
			if maxSeen > dst.BlockQueueCap() || maxSeen == 0 {
				t.Fatalf("queue held %d blocks, capacity %d", maxSeen, dst.BlockQueueCap())
			}
			return
		default:
			time.Sleep(time.Millisecond)
		}
	}
}

// TestArchivalNodesSync: with ArchivalNodesSync a node does not ask a
// light peer (no ArchivalNode capability) for blocks below that peer's
// traceable window; it syncs them from an archival peer.
func TestArchivalNodesSync(t *testing.T) {
	lightCfg := testConfig(1)
	lightCfg.Archival = false
	light := startNode(t, lightCfg, ledgerWith(chain300))
	cfg := testConfig(2)
	cfg.BlockQueueSize = 120
	cfg.ArchivalNodesSync = true
	cfg.MaxTraceableBlocks = 50 // 299-50 is above the queue's end: light cannot serve
	dst := startNode(t, cfg, newFakeLedger(genesis))
	connect(t, dst, light)
	eventually(t, 20*time.Second, "headers", func() bool { return dst.l.HeaderHeight() == 299 })
	time.Sleep(300 * time.Millisecond)
	if h := dst.l.BlockHeight(); h != 0 {
		t.Fatalf("blocks up to %d from a light peer", h)
	}
	archival := startNode(t, testConfig(3), ledgerWith(chain300))
	connect(t, dst, archival)
	eventually(t, 20*time.Second, "sync", func() bool { return dst.l.BlockHeight() == 299 })
	checkSynced(t, dst.l, chain300)
}

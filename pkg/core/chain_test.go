package core_test

import (
	"context"
	"math/big"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transferlog"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

func streamBlocks(blocks []*block.Block) <-chan *block.Block {
	ch := make(chan *block.Block, len(blocks))
	for _, b := range blocks {
		ch <- b
	}
	close(ch)
	return ch
}

func openPebble(t testing.TB, dir string) storage.Store {
	s, err := storage.Open(storage.Options{Engine: storage.EnginePebble, Path: dir})
	require.NoError(t, err)
	return s
}

// Close writes everything; reopening the database gives the same chain
// (height, hashes, roots, native state, header chain ahead of blocks,
// transfer logs) and it goes on.
func TestReopen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	gen := testchain.New(t)
	blocks, contract := genBlocks(gen, mustHeader(t, gen.BC, 0), 40)

	c := testchain.New(t, testchain.Options{Store: openPebble(t, dir)})
	c.BC.SeedGASForTest(gen.Account(), 1_000_000_0000_0000)
	require.NoError(t, c.BC.AddBlocks(context.Background(), streamBlocks(blocks[:30])))
	hdrs := []*block.Header{&blocks[30].Header, &blocks[31].Header}
	require.NoError(t, c.BC.AddHeaders(hdrs...))
	root30, err := c.BC.GetStateRoot(30)
	require.NoError(t, err)
	fee := c.BC.FeePerByte()
	require.NotEqual(t, int64(1000), fee)
	require.NoError(t, c.BC.Close())

	cfg := testchain.Config(t, testchain.Options{})
	bc, err := core.New(cfg, openPebble(t, dir), core.Options{})
	require.NoError(t, err)
	defer bc.Close()
	require.EqualValues(t, 30, bc.BlockHeight())
	require.EqualValues(t, 32, bc.HeaderHeight())
	require.Equal(t, blocks[29].Hash(), bc.CurrentBlockHash())
	r, err := bc.GetStateRoot(30)
	require.NoError(t, err)
	require.Equal(t, root30, r)
	require.Equal(t, root30.RootHash, bc.StateModule().CurrentLocalStateRoot())
	require.Equal(t, fee, bc.FeePerByte())
	require.NotNil(t, bc.GetContractState(contract))
	require.NoError(t, bc.AddBlocks(context.Background(), streamBlocks(blocks[30:])))
	require.EqualValues(t, 40, bc.BlockHeight())

	// The same blocks in one go give the same root.
	ref := testchain.New(t)
	ref.BC.SeedGASForTest(gen.Account(), 1_000_000_0000_0000)
	require.NoError(t, ref.BC.AddBlocks(context.Background(), streamBlocks(blocks)))
	want, err := ref.BC.GetStateRoot(40)
	require.NoError(t, err)
	got, err := bc.GetStateRoot(40)
	require.NoError(t, err)
	require.Equal(t, want, got)

	// A database of another network is refused.
	require.NoError(t, bc.Close())
	other := testchain.Config(t, testchain.Options{Protocol: "  MaxTraceableBlocks: 1000\n"})
	other.Magic = 43
	_, err = core.New(other, openPebble(t, dir), core.Options{})
	require.ErrorIs(t, err, core.ErrGenesisMismatch)
	ledger := testchain.Config(t, testchain.Options{App: "  KeepOnlyLatestState: true\n"})
	_, err = core.New(ledger, openPebble(t, dir), core.Options{})
	require.ErrorIs(t, err, core.ErrVersionMismatch)
}

// Transfer notifications of a deployed contract are logged for both sides,
// newest first, across batches, with the last-updated height.
func TestTransferLogs(t *testing.T) {
	c := testchain.New(t)
	blocks, contract := genBlocks(c, mustHeader(t, c.BC, 0), 150)
	c.BC.SeedGASForTest(c.Account(), 1_000_000_0000_0000)
	require.NoError(t, c.BC.AddBlocks(context.Background(), streamBlocks(blocks)))
	cs := c.BC.GetContractState(contract)
	require.NotNil(t, cs)
	from, to := hash.Uint160{1}, hash.Uint160{2}
	for _, acc := range []hash.Uint160{from, to} {
		var got []*transferlog.Transfer
		require.NoError(t, c.BC.ForEachTransfer(acc, false, ^uint64(0), func(tr *transferlog.Transfer) (bool, error) {
			got = append(got, tr)
			return true, nil
		}))
		require.Len(t, got, 149)
		for i, tr := range got {
			idx := uint32(150 - i)
			require.Equal(t, idx, tr.Block)
			amount := big.NewInt(int64(idx))
			cp := to
			if acc == to {
				cp = from
			} else {
				amount.Neg(amount)
			}
			require.Equal(t, amount, tr.AmountInt())
			require.Equal(t, cp, tr.Counterparty)
			require.Equal(t, cs.ID, tr.Asset)
			require.Equal(t, blocks[idx-1].Timestamp, tr.Timestamp)
		}
		lu, err := c.BC.GetTokenLastUpdated(acc)
		require.NoError(t, err)
		require.Equal(t, map[int32]uint32{cs.ID: 150}, lu)
	}
	// A time window: transfers of blocks 100..110 only.
	var n int
	require.NoError(t, c.BC.ForEachTransfer(to, false, blocks[109].Timestamp, func(tr *transferlog.Transfer) (bool, error) {
		if tr.Timestamp > blocks[109].Timestamp {
			return true, nil
		}
		if tr.Timestamp < blocks[99].Timestamp {
			return false, nil
		}
		n++
		return true, nil
	}))
	require.Equal(t, 11, n)
}

// slowStore delays every change set, like a slow disk.
type slowStore struct {
	storage.Store
	delay time.Duration
	sets  atomic.Int64
}

func (s *slowStore) PutChangeSet(m map[string][]byte) error {
	s.sets.Add(1)
	time.Sleep(s.delay)
	return s.Store.PutChangeSet(m)
}

// With a slow disk, the in-memory layer stays bounded: commits wait for
// the persister (back-pressure) instead of piling up changes.
func TestBackPressure(t *testing.T) {
	const limit = 1000
	store := &slowStore{Store: storage.NewMemoryStore(), delay: 30 * time.Millisecond}
	c := testchain.New(t, testchain.Options{Store: store, Core: core.Options{MaxPendingKeys: limit, PersistInterval: time.Hour}})
	gen := testchain.New(t)
	blocks, _ := genBlocks(gen, mustHeader(t, gen.BC, 0), 200)
	c.BC.SeedGASForTest(gen.Account(), 1_000_000_0000_0000)

	var (
		maxSeen  atomic.Int64
		perBlock atomic.Int64
		wg       sync.WaitGroup
	)
	ch := make(chan *block.Block)
	c.BC.SubscribeForBlocks(ch)
	wg.Add(1)
	go func() {
		defer wg.Done()
		prev := 0
		for range ch {
			n := c.BC.PendingKeys()
			if int64(n) > maxSeen.Load() {
				maxSeen.Store(int64(n))
			}
			if d := n - prev; d > 0 && int64(d) > perBlock.Load() {
				perBlock.Store(int64(d))
			}
			prev = n
		}
	}()
	require.NoError(t, c.BC.AddBlocks(context.Background(), streamBlocks(blocks)))
	c.BC.UnsubscribeFromBlocks(ch)
	close(ch)
	wg.Wait()
	keys, persists, _ := c.BC.PersistStats()
	t.Logf("max pending keys seen %d (limit %d, largest block %d keys); %d keys in %d persists, %d change sets",
		maxSeen.Load(), limit, perBlock.Load(), keys, persists, store.sets.Load())
	require.Greater(t, persists, int64(1), "the persister must have been asked to run")
	require.LessOrEqual(t, maxSeen.Load(), int64(limit)+2*perBlock.Load()+100)
	require.EqualValues(t, 200, c.BC.BlockHeight())
}

// Subscribers get blocks, headers, transactions, executions and
// notifications in order; a subscriber that does not read does not stop the
// chain.
func TestSubscriptions(t *testing.T) {
	c := testchain.New(t)
	gen := testchain.New(t)
	blocks, _ := genBlocks(gen, mustHeader(t, gen.BC, 0), 5)
	c.BC.SeedGASForTest(gen.Account(), 1_000_000_0000_0000)
	var (
		bch   = make(chan *block.Block, 100)
		ech   = make(chan core.Event, 1000)
		stuck = make(chan *block.Block) // never read
	)
	c.BC.SubscribeForBlocks(bch)
	c.BC.Subscribe(ech, core.AllEvents&^core.BlockEvents)
	c.BC.SubscribeForBlocks(stuck)
	require.NoError(t, c.BC.AddBlocks(context.Background(), streamBlocks(blocks)))
	require.EqualValues(t, 5, c.BC.BlockHeight())
	<-stuck // let the dispatcher go on
	for i := range blocks {
		if i > 0 {
			<-stuck
		}
		require.Equal(t, blocks[i].Hash(), (<-bch).Hash())
	}
	// Per block: OnPersist's execution and notifications, per transaction
	// its execution, notifications and the transaction, PostPersist's,
	// then the header.
	for _, b := range blocks {
		ev := <-ech
		require.NotNil(t, ev.Execution, "OnPersist first")
		require.Equal(t, b.Hash(), ev.Execution.Container)
		var ntx, nexec int
		for ev.Header == nil {
			require.Nil(t, ev.Block)
			switch {
			case ev.Execution != nil:
				nexec++
			case ev.Tx != nil:
				require.Equal(t, b.Transactions[ntx].Hash(), ev.Tx.Hash())
				ntx++
			case ev.Notification == nil:
				t.Fatal("empty event")
			}
			ev = <-ech
		}
		require.Equal(t, b.Hash(), ev.Header.Hash())
		require.Equal(t, len(b.Transactions), ntx)
		require.Equal(t, len(b.Transactions)+2, nexec)
	}
	c.BC.Unsubscribe(ech)
	c.BC.UnsubscribeFromBlocks(stuck)
	c.BC.UnsubscribeFromBlocks(bch)
}

// Memory pool events come in the chain's one stream, in order with the
// block events: the transaction added to the pool, then (when a block
// takes it) the block's events and its removal from the pool. Without a
// subscriber for them the chain does not listen to its pool.
func TestSubscriptionMempoolEvents(t *testing.T) {
	c := testchain.New(t)
	ch := make(chan core.Event, 100)
	c.BC.Subscribe(ch, core.MempoolEvents|core.BlockEvents)
	tx := c.Tx([]byte{byte(opcode.PUSH1)})
	require.NoError(t, c.BC.PoolTx(tx))
	ev := <-ch
	require.NotNil(t, ev.Mempool)
	require.Equal(t, mempoolevent.TransactionAdded, ev.Mempool.Type)
	require.Equal(t, tx.Hash(), ev.Mempool.Tx.Hash())
	b := c.AddPooled()
	var sawBlock, sawRemoved bool
	for !sawBlock || !sawRemoved {
		ev := <-ch
		switch {
		case ev.Block != nil:
			require.Equal(t, b.Hash(), ev.Block.Hash())
			sawBlock = true
		case ev.Mempool != nil:
			require.Equal(t, mempoolevent.TransactionRemoved, ev.Mempool.Type)
			require.Equal(t, tx.Hash(), ev.Mempool.Tx.Hash())
			sawRemoved = true
		default:
			t.Fatalf("unexpected event %+v", ev)
		}
	}
	c.BC.Unsubscribe(ch)
	// Nobody wants pool events: none are queued.
	require.NoError(t, c.BC.PoolTx(c.Tx([]byte{byte(opcode.PUSH2)})))
	select {
	case ev := <-ch:
		t.Fatalf("event after Unsubscribe: %+v", ev)
	case <-time.After(50 * time.Millisecond):
	}
}

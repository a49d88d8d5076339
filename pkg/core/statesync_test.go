package core_test

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/statesync"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/storage/storagetest"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// State sync test chains: MaxTraceableBlocks 60, sync points every 40
// blocks; the source has 130 blocks, so the sync point is 120 and the
// synced node stores blocks 61..120.
const (
	ssInterval = 40
	ssHeight   = 130
	ssPoint    = 120
	ssMTB      = 60
)

const ssProto = "  MaxTraceableBlocks: 60\n  MaxValidUntilBlockIncrement: 50\n"

var quiet = slog.New(slog.DiscardHandler)

// syncSource is an archival chain with a storage contract whose items
// change in every block.
type syncSource struct {
	g      *testchain.Chain
	blocks []*block.Block // by index (0: nil)
	id     int32          // the storage contract
}

var sources = map[string]*syncSource{}

func newSyncSource(t *testing.T) *syncSource {
	cfg := testchain.Config(t, testchain.Options{Protocol: ssProto})
	g := testchain.Open(t, cfg, nil, core.Options{})
	src := &syncSource{g: g, blocks: []*block.Block{nil}}
	h := g.DeployStorage()
	src.blocks = append(src.blocks, mustBlock(t, g.BC, 1))
	src.id = g.BC.GetContractState(h).ID
	rng := rand.New(rand.NewPCG(7, 11))
	for g.BC.BlockHeight() < ssHeight {
		var ks, vs [][]byte
		for range 6 {
			k := []byte(fmt.Sprintf("key-%03d", rng.IntN(400)))
			var v []byte
			if rng.IntN(8) != 0 {
				v = make([]byte, 1+rng.IntN(40))
				for i := range v {
					v[i] = byte(rng.Uint32())
				}
			}
			ks, vs = append(ks, k), append(vs, v)
		}
		b := g.AddBlock(g.Tx(testchain.PutScript(h, ks, vs)))
		src.blocks = append(src.blocks, b)
	}
	return src
}

func mustBlock(t *testing.T, bc *core.Blockchain, i uint32) *block.Block {
	b, err := bc.GetBlockByIndex(i)
	require.NoError(t, err)
	return b
}

func (s *syncSource) cfg() config.Blockchain { return s.g.Cfg }

// root returns the source's state root of height h.
func (s *syncSource) root(h uint32) (*stateroot.Root, error) { return s.g.BC.GetStateRoot(h) }

// serve answers a getmptdata request with small answers (many rounds).
func (s *syncSource) serve(hs []hash.Uint256) [][]byte {
	return statesync.ServeNodes(s.g.BC.StateSyncStore(), stateroot.ModeFor(s.g.Cfg.Ledger), hs, 3000)
}

// items returns the contract storage of the source at height h, read
// through the trie.
func (s *syncSource) items(t *testing.T, h uint32) map[string]string {
	r, err := s.root(h)
	require.NoError(t, err)
	ts := s.g.BC.StateModule().TrieStore(s.g.BC.StateSyncStore(), r.RootHash)
	return seekAll(ts, storage.STStorage)
}

func seekAll(st storage.Store, p storage.KeyPrefix) map[string]string {
	out := map[string]string{}
	st.Seek(storage.SeekRange{Prefix: p.Bytes()}, func(k, v []byte) bool {
		out[string(k)] = string(v)
		return true
	})
	return out
}

// replayNodes executes the source's blocks up to h on a fresh chain with
// cfg and returns its live trie nodes (reference counting modes: the
// value with its count; dead ModeGC nodes left out).
func replayNodes(t *testing.T, src *syncSource, cfg config.Blockchain, h uint32) map[string]string {
	bc, err := core.New(cfg, storage.NewMemoryStore(), core.Options{Logger: quiet})
	require.NoError(t, err)
	defer bc.Close()
	for i := uint32(1); i <= h; i++ {
		require.NoError(t, bc.AddBlock(src.blocks[i]))
	}
	return liveNodes(bc.StateSyncStore())
}

func liveNodes(st storage.Store) map[string]string {
	out := seekAll(st, storage.DataMPT)
	for k, v := range out {
		if len(v) > 5 && v[len(v)-5] == 0 { // ModeGC: dead, kept until collected
			delete(out, k)
		}
	}
	return out
}

// syncer is a node bootstrapping by state sync from a source, with a
// direct link standing for the P2P exchange.
type syncer struct {
	t   *testing.T
	src *syncSource
	cfg config.Blockchain
	bc  *core.Blockchain
	mod *statesync.Module
	// mptRounds counts getmptdata exchanges.
	mptRounds int
	// verify adds headers with the ledger's verifying AddHeaders.
	verify bool
}

func newSyncer(t *testing.T, src *syncSource, cfg config.Blockchain, st storage.Store) *syncer {
	bc, err := core.New(cfg, st, core.Options{Logger: quiet})
	require.NoError(t, err)
	return &syncer{t: t, src: src, cfg: cfg, bc: bc, mod: newModule(src, cfg, bc)}
}

func newModule(src *syncSource, cfg config.Blockchain, bc *core.Blockchain) *statesync.Module {
	return statesync.New(statesync.Config{
		Sync:               true,
		Interval:           ssInterval,
		MaxTraceableBlocks: cfg.MaxTraceableBlocks,
		Mode:               stateroot.ModeFor(cfg.Ledger),
		Root:               src.root,
		Logger:             quiet,
	}, bc)
}

// run drives the module through its stages until it is inactive or
// stopAt returns true (checked before every step).
func (y *syncer) run(stopAt func() bool) error {
	t := y.t
	if !y.mod.IsInitialized() {
		if err := y.mod.Init(y.src.g.BC.BlockHeight()); err != nil {
			return err
		}
	}
	for y.mod.IsActive() {
		if stopAt != nil && stopAt() {
			return nil
		}
		switch {
		case y.mod.NeedHeaders():
			var hs []*block.Header
			for i := y.bc.HeaderHeight() + 1; i <= y.src.g.BC.HeaderHeight(); i++ {
				hs = append(hs, &y.src.blocks[i].Header)
			}
			if y.verify {
				require.NoError(t, y.bc.AddHeaders(hs...))
			} else {
				require.NoError(t, y.bc.AddHeadersForTest(hs...))
			}
			if err := y.mod.Update(); err != nil {
				return err
			}
		case y.mod.NeedMPTData():
			miss := y.mod.MissingMPTNodes(32)
			require.NotEmpty(t, miss)
			nodes := y.src.serve(miss)
			require.NotEmpty(t, nodes)
			y.mptRounds++
			if err := y.mod.AddMPTNodes(nodes); err != nil {
				return err
			}
		case y.mod.NeedBlocks():
			if err := y.mod.AddBlock(y.src.blocks[y.mod.BlockHeight()+1]); err != nil {
				return err
			}
		default:
			if err := y.mod.Update(); err != nil {
				return err
			}
		}
	}
	return nil
}

// check compares the synced node with the source at the sync point, then
// feeds it the rest of the source's blocks the regular way: every state
// root must be the source's.
func (y *syncer) check() {
	t := y.t
	bc := y.bc
	require.Equal(t, uint32(ssPoint), bc.BlockHeight())
	r, err := bc.GetStateRoot(ssPoint)
	require.NoError(t, err)
	want, err := y.src.root(ssPoint)
	require.NoError(t, err)
	require.Equal(t, want.RootHash, r.RootHash)
	require.Equal(t, want.RootHash, bc.StateModule().CurrentLocalStateRoot())
	require.Equal(t, y.src.items(t, ssPoint), seekAll(bc.StateSyncStore(), storage.STStorage))
	require.Empty(t, seekAll(bc.StateSyncStore(), storage.STTempStorage))
	// Blocks after the traceable window are stored; the genesis block is
	// gone (the point is beyond MaxTraceableBlocks).
	for i := uint32(ssPoint - ssMTB + 1); i <= ssPoint; i++ {
		b, err := bc.GetBlockByIndex(i)
		require.NoError(t, err)
		require.Equal(t, y.src.blocks[i].Hash(), b.Hash())
		require.Len(t, b.Transactions, len(y.src.blocks[i].Transactions))
	}
	_, err = bc.GetBlockByIndex(0)
	require.Error(t, err)
	for i := uint32(ssPoint + 1); i <= ssHeight; i++ {
		require.NoError(t, bc.AddBlock(y.src.blocks[i]), "block %d", i)
		got, err := bc.GetStateRoot(i)
		require.NoError(t, err)
		want, err := y.src.root(i)
		require.NoError(t, err)
		require.Equal(t, want.RootHash, got.RootHash, "root %d", i)
	}
	// Queries: contract storage, proofs.
	for k, v := range y.src.items(t, ssHeight) {
		if k[1] == byte(y.src.id) {
			require.Equal(t, []byte(v), bc.GetStorageItem(y.src.id, []byte(k[5:])))
			root := bc.StateModule().CurrentLocalStateRoot()
			proof, err := bc.StateModule().GetProof(bc.StateSyncStore(), root, []byte(k[1:]))
			require.NoError(t, err)
			got, err := mpt.VerifyProof(root, []byte(k[1:]), proof)
			require.NoError(t, err)
			require.Equal(t, []byte(v), got)
			break
		}
	}
}

func TestStateSync(t *testing.T) {
	src := newSyncSource(t)
	for _, tc := range []struct {
		name string
		app  string
	}{
		{"archival", ""},
		{"RemoveUntraceableBlocks", "  RemoveUntraceableBlocks: true\n"},
		{"KeepOnlyLatestState", "  KeepOnlyLatestState: true\n  RemoveUntraceableBlocks: true\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testchain.Config(t, testchain.Options{Protocol: ssProto, App: tc.app})
			st := storage.NewMemoryStore()
			y := newSyncer(t, src, cfg, noClose{st})
			require.NoError(t, y.run(nil))
			require.Greater(t, y.mptRounds, 5)
			require.False(t, y.mod.IsActive())
			// The restored trie is the one executing the chain leaves,
			// reference counts included (an archival chain keeps older
			// nodes too).
			replayed, synced := replayNodes(t, src, cfg, ssPoint), liveNodes(y.bc.StateSyncStore())
			if stateroot.ModeFor(cfg.Ledger).RC() {
				require.Equal(t, replayed, synced)
			} else {
				for k, v := range synced {
					require.Equal(t, replayed[k], v)
				}
			}
			y.check()
			// Reopened, the chain is where it was.
			h, root := y.bc.BlockHeight(), y.bc.StateModule().CurrentLocalStateRoot()
			require.NoError(t, y.bc.Close())
			bc, err := core.New(cfg, st, core.Options{Logger: quiet})
			require.NoError(t, err)
			defer bc.Close()
			require.Equal(t, h, bc.BlockHeight())
			require.Equal(t, root, bc.StateModule().CurrentLocalStateRoot())
			// A synced node starting again does not sync again.
			m := newModule(src, cfg, bc)
			require.NoError(t, m.Init(ssHeight))
			require.False(t, m.IsActive())
		})
	}
}

// noClose keeps Close of a crashed chain from closing the store the
// restarted one uses.
type noClose struct{ storage.Store }

func (noClose) Close() error { return nil }

// TestStateSyncCrash interrupts the sync at every stage (a crash loses
// what was not written to the store) and restarts the node.
func TestStateSyncCrash(t *testing.T) {
	src := newSyncSource(t)
	cfg := testchain.Config(t, testchain.Options{Protocol: ssProto, App: "  RemoveUntraceableBlocks: true\n"})
	stops := []struct {
		name string
		at   func(y *syncer) bool
		lost func(y *syncer) bool // work done after the last write reached the store
	}{
		{"headers", func(y *syncer) bool { return y.bc.HeaderHeight() > 0 }, nil},
		{"mpt", func(y *syncer) bool { return y.mptRounds == 7 }, nil},
		{"mpt, later rounds lost", func(y *syncer) bool { return y.mptRounds == 4 }, func(y *syncer) bool { return y.mptRounds == 9 }},
		{"blocks", func(y *syncer) bool { return y.mod.NeedBlocks() && y.mod.BlockHeight() > ssPoint-ssMTB+10 }, nil},
		{"blocks, later blocks lost", func(y *syncer) bool { return y.mod.NeedBlocks() && y.mod.BlockHeight() > ssPoint-ssMTB+10 },
			func(y *syncer) bool { return y.mod.BlockHeight() > ssPoint-ssMTB+20 }},
	}
	want := replayNodes(t, src, cfg, ssPoint)
	for _, s := range stops {
		t.Run(s.name, func(t *testing.T) {
			mem := storage.NewMemoryStore()
			fs := storagetest.NewFaultStore(mem)
			y := newSyncer(t, src, cfg, noClose{fs})
			require.NoError(t, y.run(func() bool { return s.at(y) }))
			require.True(t, y.mod.IsActive())
			y.bc.PersistNowForTest()
			fs.FailWrites(-1)
			if s.lost != nil {
				require.NoError(t, y.run(func() bool { return s.lost(y) }))
				require.True(t, y.mod.IsActive())
			}
			_ = y.bc.Close()

			y2 := newSyncer(t, src, cfg, mem)
			defer y2.bc.Close()
			require.NoError(t, y2.run(nil))
			require.Equal(t, want, liveNodes(y2.bc.StateSyncStore()))
			y2.check()
		})
	}
}

// TestStateJumpCrash crashes the state jump after each of its writes and
// reopens the chain, which finishes the jump.
func TestStateJumpCrash(t *testing.T) {
	src := newSyncSource(t)
	cfg := testchain.Config(t, testchain.Options{Protocol: ssProto, App: "  RemoveUntraceableBlocks: true\n"})
	old := core.StateJumpBatch
	core.StateJumpBatch = 40
	defer func() { core.StateJumpBatch = old }()
	stageKey := string([]byte{byte(storage.SYSStateChangeStage)})
	for crashAt := 1; ; crashAt++ {
		mem := storage.NewMemoryStore()
		fs := storagetest.NewFaultStore(mem)
		y := newSyncer(t, src, cfg, noClose{fs})
		require.NoError(t, y.run(func() bool { return y.mod.NeedBlocks() && y.mod.BlockHeight() == ssPoint-1 }))
		y.bc.PersistNowForTest()
		writes, started := 0, false
		fs.SetWriteHook(func(puts map[string][]byte) {
			if _, ok := puts[stageKey]; ok {
				started = true
			}
			if started {
				writes++
				if writes == crashAt {
					fs.FailWrites(-1)
				}
			}
		})
		err := y.mod.AddBlock(src.blocks[ssPoint])
		fs.SetWriteHook(nil)
		if err == nil {
			require.Equal(t, writes+1, crashAt)
			y.check()
			_ = y.bc.Close()
			require.Greater(t, crashAt, 5, "the jump should take several writes")
			return
		}
		_ = y.bc.Close()
		y2 := newSyncer(t, src, cfg, mem)
		if y2.bc.BlockHeight() != ssPoint {
			// Crashed before the jump was recorded: the module does it.
			require.Equal(t, uint32(0), y2.bc.BlockHeight(), "crash at write %d", crashAt)
			require.NoError(t, y2.run(nil))
		}
		y2.check()
		require.NoError(t, y2.bc.Close())
	}
}

// TestStateSyncServe checks ServeNodes against the trie: answers are
// node encodings whose hashes are the requested subtrees', each node once,
// within the limit.
func TestStateSyncServe(t *testing.T) {
	src := newSyncSource(t)
	r, err := src.root(ssHeight)
	require.NoError(t, err)
	st := src.g.BC.StateSyncStore()
	mode := stateroot.ModeFor(src.cfg().Ledger)
	all := statesync.ServeNodes(st, mode, []hash.Uint256{r.RootHash}, 1<<30)
	seen := map[hash.Uint256]bool{}
	for _, n := range all {
		h := hash.Hash256(n)
		require.False(t, seen[h])
		seen[h] = true
		_, err := mpt.DecodeNode(n)
		require.NoError(t, err)
	}
	require.Equal(t, r.RootHash, hash.Hash256(all[0]))
	// Every node of the trie is there: a billet restores it from them.
	b, err := mpt.NewBillet(r.RootHash, mpt.ModeAll, storage.NewMemoryStore())
	require.NoError(t, err)
	for _, n := range all {
		nd, _ := mpt.DecodeNode(n)
		require.NoError(t, b.RestoreNode(nd))
	}
	require.True(t, b.IsComplete())
	// Limits: the answer stops before the limit; unknown hashes give
	// nothing.
	small := statesync.ServeNodes(st, mode, []hash.Uint256{r.RootHash}, 1000)
	size := 0
	for _, n := range small {
		size += len(n) + 1
	}
	require.LessOrEqual(t, size, 1000)
	require.Equal(t, all[:len(small)], small)
	require.Empty(t, statesync.ServeNodes(st, mode, []hash.Uint256{{1, 2, 3}}, 1000))
}

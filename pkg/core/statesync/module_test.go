package statesync_test

import (
	"encoding/binary"
	"fmt"
	"github.com/n3node/n3node/internal/mpttest"
	"log/slog"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mpt"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/statesync"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// fakeLedger is a chain at genesis with headers up to hh whose state sync
// data lives in a memory store.
type fakeLedger struct {
	st      storage.Store
	bh, hh  uint32
	headers map[uint32]*block.Block
	stored  []uint32
	jumped  *coreroot.Root
	jumpErr error
}

func (l *fakeLedger) BlockHeight() uint32  { return l.bh }
func (l *fakeLedger) HeaderHeight() uint32 { return l.hh }
func (l *fakeLedger) GetHeaderHash(i uint32) hash.Uint256 {
	if b, ok := l.headers[i]; ok && i <= l.hh {
		return b.Hash()
	}
	return hash.Uint256{}
}
func (l *fakeLedger) StateSyncStore() storage.Store { return l.st }
func (l *fakeLedger) AddSyncBlock(b *block.Block) error {
	l.stored = append(l.stored, b.Index)
	return l.st.PutChangeSet(map[string][]byte{
		string([]byte{byte(storage.SYSStateSyncCurrentBlockHeight)}): binary.LittleEndian.AppendUint32(nil, b.Index),
	})
}
func (l *fakeLedger) JumpToState(p uint32, r *coreroot.Root) error {
	if l.jumpErr != nil {
		return l.jumpErr
	}
	l.jumped = r
	l.bh = p
	return nil
}

// testTrie is internal/mpttest's random trie.
var testTrie = mpttest.RandomTrie

func blocks(n int) map[uint32]*block.Block {
	out := map[uint32]*block.Block{}
	var prev hash.Uint256
	for i := range uint32(n + 1) {
		b := &block.Block{Header: block.Header{Index: i, PrevHash: prev, Timestamp: uint64(i)}}
		if i%3 == 0 {
			b.Transactions = []*transaction.Transaction{transaction.New([]byte{0x40}, i, 0, 0, 100)}
		}
		b.RebuildMerkleRoot()
		prev = b.Hash()
		out[i] = b
	}
	return out
}

func newFake(t testing.TB) (*fakeLedger, storage.Store, hash.Uint256, *statesync.Module) {
	src, root := testTrie(t, 500, mpt.ModeAll)
	l := &fakeLedger{st: storage.NewMemoryStore(), hh: 0, headers: blocks(130)}
	m := statesync.New(statesync.Config{
		Sync:               true,
		Interval:           40,
		MaxTraceableBlocks: 30,
		Mode:               mpt.ModeLatest,
		Root: func(p uint32) (*coreroot.Root, error) {
			return &coreroot.Root{Index: p, RootHash: root}, nil
		},
		Logger: slog.New(slog.DiscardHandler),
	}, l)
	return l, src, root, m
}

func TestModuleStages(t *testing.T) {
	l, src, root, m := newFake(t)
	require.True(t, m.IsActive())
	require.False(t, m.IsInitialized())
	// Genesis nodes left from the chain are dropped at the start.
	require.NoError(t, l.st.PutChangeSet(map[string][]byte{string(mpt.NodeKey(hash.Uint256{9})): {1}}))
	require.NoError(t, m.Init(135))
	require.Equal(t, uint32(120), m.SyncPoint())
	require.True(t, m.NeedHeaders())
	_, err := l.st.Get(mpt.NodeKey(hash.Uint256{9}))
	require.ErrorIs(t, err, storage.ErrKeyNotFound)
	require.Error(t, m.Init(135), "twice")
	require.ErrorIs(t, m.AddMPTNodes(nil), statesync.ErrNotRequested)
	require.ErrorIs(t, m.AddBlock(l.headers[91]), statesync.ErrNotRequested)

	l.hh = 120 // not beyond P yet
	require.NoError(t, m.Update())
	require.True(t, m.NeedHeaders())
	l.hh = 121
	require.NoError(t, m.Update())
	require.True(t, m.NeedMPTData())
	require.Equal(t, []hash.Uint256{root}, m.MissingMPTNodes(32))

	// Garbage fails the call, nodes nobody asked for are ignored.
	require.Error(t, m.AddMPTNodes([][]byte{{0x07}}))
	require.NoError(t, m.AddMPTNodes([][]byte{mpt.NewLeafNode([]byte{1}).Bytes()}))
	rounds := 0
	for m.NeedMPTData() {
		miss := m.MissingMPTNodes(32)
		require.NotEmpty(t, miss)
		require.NoError(t, m.AddMPTNodes(statesync.ServeNodes(src, mpt.ModeAll, miss, 500)))
		rounds++
	}
	require.Greater(t, rounds, 10)
	// The restored trie holds the source's items, stored under
	// STTempStorage with the trie key.
	items := 0
	l.st.Seek(storage.SeekRange{Prefix: storage.STTempStorage.Bytes()}, func(k, v []byte) bool {
		got, err := mpt.NewTrie(root, mpt.ModeAll, src).Get(k[1:])
		require.NoError(t, err)
		require.Equal(t, got, v)
		items++
		return true
	})
	require.Equal(t, 500, items)

	// Blocks 91..120 (MaxTraceableBlocks 30), in order, matching headers.
	require.True(t, m.NeedBlocks())
	require.Equal(t, uint32(90), m.BlockHeight())
	require.Error(t, m.AddBlock(l.headers[92]))
	bad := *l.headers[91]
	bad.Transactions = []*transaction.Transaction{transaction.New([]byte{0x41}, 1, 0, 0, 100)}
	require.ErrorIs(t, m.AddBlock(&bad), statesync.ErrBadBlock)
	l.jumpErr = fmt.Errorf("disk full")
	for i := uint32(91); i <= 120; i++ {
		err := m.AddBlock(l.headers[i])
		if i < 120 {
			require.NoError(t, err)
		} else {
			require.ErrorContains(t, err, "disk full")
		}
	}
	require.Equal(t, uint32(120), m.BlockHeight())
	require.True(t, m.IsActive())
	// The jump is tried again on the next update.
	l.jumpErr = nil
	require.NoError(t, m.Update())
	require.False(t, m.IsActive())
	require.Equal(t, root, l.jumped.RootHash)
	require.Equal(t, uint32(120), l.jumped.Index)
}

func TestModuleInit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		bh     uint32
		point  uint32 // stored sync point (0: none)
		remote uint32
		active bool
		err    error
		want   uint32
	}{
		{"too low", 0, 0, 79, false, nil, 0},
		{"first point", 0, 0, 80, true, nil, 80},
		{"chain close enough", 41, 0, 120, false, nil, 0},
		{"chain behind, not at genesis", 30, 0, 120, true, statesync.ErrStarted, 0},
		{"resume", 0, 80, 125, true, nil, 80},
		{"outdated", 0, 40, 125, true, statesync.ErrOutdated, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, _, _, m := newFake(t)
			l.bh = tc.bh
			if tc.point != 0 {
				require.NoError(t, l.st.PutChangeSet(map[string][]byte{
					string([]byte{byte(storage.SYSStateSyncPoint)}): binary.LittleEndian.AppendUint32(nil, tc.point),
				}))
			}
			err := m.Init(tc.remote)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.active, m.IsActive())
			require.True(t, m.IsInitialized())
			if tc.active {
				require.Equal(t, tc.want, m.SyncPoint())
			}
		})
	}
	// Without Sync the module only serves.
	m := statesync.New(statesync.Config{Interval: 40}, &fakeLedger{st: storage.NewMemoryStore()})
	require.False(t, m.IsActive())
	require.True(t, m.IsInitialized())
	require.Empty(t, m.MissingMPTNodes(10))
}

// FuzzAddMPTNodes feeds arbitrary node lists (var-bytes each) to a module
// fetching a trie: it never panics and never restores a node that is not
// the trie's.
func FuzzAddMPTNodes(f *testing.F) {
	src, root := testTrie(f, 50, mpt.ModeAll)
	first := statesync.ServeNodes(src, mpt.ModeAll, []hash.Uint256{root}, 400)
	var seed []byte
	for _, n := range first {
		seed = append(seed, byte(len(n)))
		seed = append(seed, n...)
	}
	f.Add(seed)
	f.Add([]byte{1, 0x04, 3, 0x02, 0x01, 0x07})
	f.Fuzz(func(t *testing.T, data []byte) {
		l := &fakeLedger{st: storage.NewMemoryStore(), hh: 121, headers: blocks(1)}
		m := statesync.New(statesync.Config{Sync: true, Interval: 40, Mode: mpt.ModeAll, Logger: slog.New(slog.DiscardHandler),
			Root: func(p uint32) (*coreroot.Root, error) { return &coreroot.Root{Index: p, RootHash: root}, nil }}, l)
		require.NoError(t, m.Init(125))
		var nodes [][]byte
		for len(data) > 0 {
			n := min(int(data[0]), len(data)-1)
			nodes = append(nodes, data[1:1+n])
			data = data[1+n:]
		}
		_ = m.AddMPTNodes(nodes)
		// Whatever was stored is a node of the source trie.
		l.st.Seek(storage.SeekRange{Prefix: storage.DataMPT.Bytes()}, func(k, v []byte) bool {
			if _, err := src.Get(k); err != nil {
				t.Fatalf("stored node %x is not the source's", k)
			}
			return true
		})
	})
}

package dao

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

func TestStorageItemsAndLayers(t *testing.T) {
	base := NewSimple(storage.NewMemoryStore())
	base.PutStorageItem(1, []byte("a"), []byte("1"))
	base.PutStorageItem(1, []byte("c"), []byte("3"))
	base.PutStorageItem(2, []byte("a"), []byte("other"))
	require.Equal(t, []byte("1"), base.GetStorageItem(1, []byte("a")))

	blk := base.GetPrivate()
	tx := blk.GetPrivate()
	tx.PutStorageItem(1, []byte("b"), []byte("2"))
	tx.DeleteStorageItem(1, []byte("c"))
	require.Nil(t, tx.GetStorageItem(1, []byte("c")))
	require.Equal(t, []byte("3"), blk.GetStorageItem(1, []byte("c")))

	var keys []string
	tx.Seek(1, storage.SeekRange{}, func(k, v []byte) bool {
		keys = append(keys, string(k)+"="+string(v))
		return true
	})
	require.Equal(t, []string{"a=1", "b=2"}, keys)
	keys = nil
	tx.Seek(1, storage.SeekRange{Backwards: true}, func(k, v []byte) bool {
		keys = append(keys, string(k))
		return true
	})
	require.Equal(t, []string{"b", "a"}, keys)

	// Discarding the transaction layer drops its changes.
	tx.Discard()
	require.Equal(t, []byte("3"), tx.GetStorageItem(1, []byte("c")))

	tx = blk.GetPrivate()
	tx.PutStorageItem(1, []byte("b"), []byte("2"))
	_, err := tx.Persist()
	require.NoError(t, err)
	require.Equal(t, []byte("2"), blk.GetStorageItem(1, []byte("b")))
	require.Nil(t, base.GetStorageItem(1, []byte("b")))
	_, err = blk.Persist()
	require.NoError(t, err)
	require.Equal(t, []byte("2"), base.GetStorageItem(1, []byte("b")))

	// The storage change set carries the consensus key layout.
	ch := blk.Store.Changes([]byte{STStorage})
	require.Empty(t, ch) // persisted
	blk.PutStorageItem(-5, []byte{0xff}, []byte{1})
	ch = blk.Store.Changes([]byte{STStorage})
	require.Contains(t, ch, string([]byte{0x70, 0xfb, 0xff, 0xff, 0xff, 0xff}))
	require.Equal(t, StorageKey(-5, []byte{0xff}), []byte{0x70, 0xfb, 0xff, 0xff, 0xff, 0xff})

	// Integers.
	base.PutInt64(3, []byte{1}, 0)
	require.Equal(t, []byte{}, base.GetStorageItem(3, []byte{1}))
	base.PutInt64(3, []byte{1}, 1000)
	n, err := base.GetInt64(3, []byte{1})
	require.NoError(t, err)
	require.EqualValues(t, 1000, n)
	_, err = base.GetInt64(3, []byte{2})
	require.ErrorIs(t, err, ErrNotFound)

	// Convertibles.
	bal := &state.NEP17Balance{}
	bal.Balance.SetInt64(77)
	require.NoError(t, base.PutStorageConvertible(4, []byte{1}, bal))
	var bal2 state.NEP17Balance
	require.NoError(t, base.GetStorageConvertible(4, []byte{1}, &bal2))
	require.EqualValues(t, 77, bal2.Balance.Int64())
	require.ErrorIs(t, base.GetStorageConvertible(4, []byte{2}, &bal2), ErrNotFound)
}

type testCache struct{ v int }

func (c *testCache) Copy() NativeContractCache { cp := *c; return &cp }

func TestNativeCacheLayers(t *testing.T) {
	base := NewSimple(storage.NewMemoryStore())
	require.Nil(t, base.GetROCache(1))
	base.SetCache(1, &testCache{v: 1})

	blk := base.GetPrivate()
	tx := blk.GetPrivate()
	require.Equal(t, 1, tx.GetROCache(1).(*testCache).v)
	rw := tx.GetRWCache(1).(*testCache)
	rw.v = 2
	require.Equal(t, 2, tx.GetROCache(1).(*testCache).v)
	require.Equal(t, 1, blk.GetROCache(1).(*testCache).v)
	require.Same(t, rw, tx.GetRWCache(1))

	// A discarded layer's cache changes disappear.
	tx.Discard()
	require.Equal(t, 1, tx.GetROCache(1).(*testCache).v)

	tx = blk.GetPrivate()
	tx.GetRWCache(1).(*testCache).v = 3
	_, err := tx.Persist()
	require.NoError(t, err)
	require.Equal(t, 3, blk.GetROCache(1).(*testCache).v)
	require.Equal(t, 1, base.GetROCache(1).(*testCache).v)
	_, err = blk.Persist()
	require.NoError(t, err)
	require.Equal(t, 3, base.GetROCache(1).(*testCache).v)

	// Shared wrapped layers work the same way.
	w := base.GetWrapped()
	w.GetRWCache(1).(*testCache).v = 4
	require.Equal(t, 3, base.GetROCache(1).(*testCache).v)
	_, err = w.PersistSync()
	require.NoError(t, err)
	require.Equal(t, 4, base.GetROCache(1).(*testCache).v)
	require.Nil(t, w.GetRWCache(99))
}

func loadRefchainBlocks(t *testing.T) []*block.Block {
	raw, err := os.ReadFile("../../../testdata/refchain/chain.acc")
	require.NoError(t, err)
	n := binary.LittleEndian.Uint32(raw)
	raw = raw[4:]
	var res []*block.Block
	for range n {
		sz := binary.LittleEndian.Uint32(raw)
		b, err := block.NewBlockFromBytes(raw[4 : 4+sz])
		require.NoError(t, err)
		res = append(res, b)
		raw = raw[4+sz:]
	}
	return res
}

func TestLedgerRecords(t *testing.T) {
	blocks := loadRefchainBlocks(t)
	require.Greater(t, len(blocks), 10)
	d := NewSimple(storage.NewMemoryStore())
	ntx := 0
	for _, b := range blocks {
		require.NoError(t, d.StoreAsBlock(b))
		for _, tx := range b.Transactions {
			require.NoError(t, d.StoreAsTransaction(tx, b.Index, vmstate.Halt))
			require.NoError(t, d.StoreAppExecResult(&state.AppExecResult{Container: tx.Hash(),
				Execution: state.Execution{Trigger: trigger.Application, VMState: vmstate.Halt, Stack: []stackitem.Item{}}}))
			ntx++
		}
		require.NoError(t, d.StoreAppExecResult(&state.AppExecResult{Container: b.Hash(), Execution: state.Execution{Trigger: trigger.OnPersist, VMState: vmstate.Halt}}))
		require.NoError(t, d.StoreAppExecResult(&state.AppExecResult{Container: b.Hash(), Execution: state.Execution{Trigger: trigger.PostPersist, VMState: vmstate.Halt}}))
		d.PutHeaderHash(b.Index, b.Hash())
		d.StoreAsCurrentBlock(b.Hash(), b.Index)
	}
	require.Greater(t, ntx, 30)
	for _, b := range blocks {
		got, err := d.GetBlock(b.Hash())
		require.NoError(t, err)
		require.Equal(t, b.Bytes(), got.Bytes())
		h, err := d.GetHeaderHash(b.Index)
		require.NoError(t, err)
		require.Equal(t, b.Hash(), h)
		for _, tx := range b.Transactions {
			got, idx, vm, err := d.GetTransaction(tx.Hash())
			require.NoError(t, err)
			require.Equal(t, b.Index, idx)
			require.Equal(t, vmstate.Halt, vm)
			require.Equal(t, tx.Bytes(), got.Bytes())
			require.ErrorIs(t, d.HasTransaction(tx.Hash(), nil, b.Index, 100), ErrAlreadyExists)
			aers, err := d.GetAppExecResults(tx.Hash(), trigger.All)
			require.NoError(t, err)
			require.Len(t, aers, 1)
		}
		aers, err := d.GetAppExecResults(b.Hash(), trigger.All)
		require.NoError(t, err)
		require.Len(t, aers, 2)
		require.Equal(t, trigger.OnPersist, aers[0].Trigger)
		aers, err = d.GetAppExecResults(b.Hash(), trigger.PostPersist)
		require.NoError(t, err)
		require.Len(t, aers, 1)
	}
	last := blocks[len(blocks)-1]
	h, idx, err := d.GetCurrentBlock()
	require.NoError(t, err)
	require.Equal(t, last.Hash(), h)
	require.Equal(t, last.Index, idx)
	_, _, err = d.GetTrimmedBlock(hash.Uint256{1})
	require.ErrorIs(t, err, ErrNotFound)
	_, err = d.GetAppExecResults(hash.Uint256{1}, trigger.All)
	require.ErrorIs(t, err, ErrNotFound)

	// Deleting a block removes its records.
	ts, err := d.DeleteBlock(last.Hash())
	require.NoError(t, err)
	require.Equal(t, last.Timestamp, ts)
	_, err = d.GetBlock(last.Hash())
	require.ErrorIs(t, err, ErrNotFound)
	for _, tx := range last.Transactions {
		_, _, _, err := d.GetTransaction(tx.Hash())
		require.ErrorIs(t, err, ErrNotFound)
	}

	require.NoError(t, d.PutVersion(Version{Value: "n3node-1", KeepOnlyLatestState: true}))
	v, err := d.GetVersion()
	require.NoError(t, err)
	require.Equal(t, "n3node-1", v.Value)
	require.True(t, v.KeepOnlyLatestState)
}

func TestConflicts(t *testing.T) {
	d := NewSimple(storage.NewMemoryStore())
	signer := hash.Uint160{9}
	other := hash.Uint160{8}
	conflicting := hash.Uint256{7}
	tx := transaction.New([]byte{0x40}, 1, 0, 0, 100)
	tx.Signers = []transaction.Signer{{Account: signer}}
	tx.Witnesses = []transaction.Witness{{}}
	tx.Attributes = []transaction.Attribute{{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: conflicting}}}
	require.NoError(t, d.StoreAsTransaction(tx, 10, vmstate.Halt))

	require.ErrorIs(t, d.HasTransaction(conflicting, nil, 10, 100), ErrHasConflicts)
	require.ErrorIs(t, d.HasTransaction(conflicting, []transaction.Signer{{Account: signer}}, 10, 100), ErrHasConflicts)
	require.NoError(t, d.HasTransaction(conflicting, []transaction.Signer{{Account: other}}, 10, 100))
	require.NoError(t, d.HasTransaction(conflicting, []transaction.Signer{{Account: signer}}, 200, 100)) // untraceable
	require.NoError(t, d.HasTransaction(hash.Uint256{6}, nil, 10, 100))
	_, _, _, err := d.GetTransaction(conflicting)
	require.ErrorIs(t, err, ErrNotFound)
}

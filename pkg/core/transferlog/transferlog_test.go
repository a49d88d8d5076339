package transferlog

import (
	"math"
	"math/big"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/stretchr/testify/require"
)

// layer is a store with Put (a private MemCachedStore over a MemoryStore).
func layer(s storage.Store) *storage.MemCachedStore { return storage.NewPrivateMemCachedStore(s) }

func collect(t *testing.T, s storage.Store, acc hash.Uint160, nep11 bool, newest uint64) []Transfer {
	var res []Transfer
	require.NoError(t, ForEach(s, acc, nep11, newest, func(tr *Transfer) (bool, error) {
		res = append(res, *tr)
		return true, nil
	}))
	return res
}

func TestWriterAndForEach(t *testing.T) {
	db := storage.NewMemoryStore()
	a, b := hash.Uint160{1}, hash.Uint160{2}
	tx := hash.Uint256{9}
	const blocks = 300
	for i := uint32(1); i <= blocks; i++ {
		l := layer(db)
		w := NewWriter(l, i, uint64(i)*1000)
		require.NoError(t, w.Add(5, a, b, big.NewInt(int64(i)), nil, false, tx))
		if i%3 == 0 {
			require.NoError(t, w.Add(6, hash.Uint160{}, a, big.NewInt(7), []byte{byte(i)}, true, tx)) // mint
		}
		require.NoError(t, w.Add(5, a, a, big.NewInt(1), nil, false, tx)) // self
		require.NoError(t, w.Flush())
		_, err := l.Persist()
		require.NoError(t, err)
	}
	all := collect(t, db, b, false, ^uint64(0))
	require.Len(t, all, blocks)
	for i, tr := range all {
		idx := uint32(blocks - i)
		require.Equal(t, idx, tr.Block)
		require.Equal(t, big.NewInt(int64(idx)), tr.AmountInt())
		require.Equal(t, a, tr.Counterparty)
		require.Equal(t, uint64(idx)*1000, tr.Timestamp)
		require.Nil(t, tr.ID)
	}
	// a: per block sent i, then self -1, +1, newest first.
	as := collect(t, db, a, false, ^uint64(0))
	require.Len(t, as, 3*blocks)
	require.Equal(t, big.NewInt(1), as[0].AmountInt())
	require.Equal(t, big.NewInt(-1), as[1].AmountInt())
	require.Equal(t, big.NewInt(-blocks), as[2].AmountInt())
	nft := collect(t, db, a, true, ^uint64(0))
	require.Len(t, nft, blocks/3)
	require.Equal(t, []byte{byte(blocks % 256)}, nft[0].ID)
	require.Equal(t, hash.Uint160{}, nft[0].Counterparty)
	require.Empty(t, collect(t, db, b, true, ^uint64(0)))

	// newest cuts at a block's timestamp.
	some := collect(t, db, b, false, 150*1000)
	require.Len(t, some, 150)
	require.EqualValues(t, 150, some[0].Block)

	lu, err := GetLastUpdated(db, a)
	require.NoError(t, err)
	require.Equal(t, map[int32]uint32{5: blocks, 6: blocks}, lu)
	lu, err = GetLastUpdated(db, hash.Uint160{3})
	require.NoError(t, err)
	require.Empty(t, lu)

	// Stopping early.
	n := 0
	require.NoError(t, ForEach(db, b, false, ^uint64(0), func(*Transfer) (bool, error) { n++; return n < 10, nil }))
	require.Equal(t, 10, n)

	// Garbage collection drops the records of blocks before the cut.
	cut := uint64(200 * 1000)
	for _, p := range Prefixes {
		require.NoError(t, db.SeekGC(storage.SeekRange{Prefix: p, Backwards: true}, GCKeep(cut)))
	}
	kept := collect(t, db, b, false, ^uint64(0))
	require.Len(t, kept, blocks-199)
	require.Equal(t, cut, kept[len(kept)-1].Timestamp)
}

func TestDecodeErrors(t *testing.T) {
	_, err := DecodeRecord(nil)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = DecodeRecord([]byte{2})
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = DecodeRecord([]byte{1, 0xff})
	require.ErrorIs(t, err, ErrCorrupt)
	db := storage.NewMemoryStore()
	require.NoError(t, db.PutChangeSet(map[string][]byte{string(updatedKey(hash.Uint160{1}, 1)): {1, 0x80}}))
	_, err = GetLastUpdated(db, hash.Uint160{1})
	require.ErrorIs(t, err, ErrCorrupt)
	require.Error(t, NewWriter(layer(storage.NewMemoryStore()), 1, 1).Add(1, hash.Uint160{1}, hash.Uint160{}, big.NewInt(1), make([]byte, MaxTokenIDLen+1), true, hash.Uint256{}))
}

func sampleRecord() []byte {
	l := layer(storage.NewMemoryStore())
	w := NewWriter(l, 3, 3000)
	_ = w.Add(1, hash.Uint160{1}, hash.Uint160{2}, big.NewInt(-5), []byte{1, 2}, true, hash.Uint256{7})
	_ = w.Add(1, hash.Uint160{1}, hash.Uint160{}, big.NewInt(9), []byte{3}, true, hash.Uint256{7})
	_ = w.Flush()
	v, _ := l.Get(recordKey(hash.Uint160{1}, true, 3000, 3))
	return v
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add(sampleRecord())
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		ts, err := DecodeRecord(b)
		if err != nil {
			return
		}
		for i := range ts {
			_ = ts[i].AmountInt()
		}
	})
}

// TestWriterAmounts: the amounts written (the int64 scratch path and the
// big.Int one) are bigint.ToBytes of the amount and of its negation.
func TestWriterAmounts(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 70)
	for _, x := range []*big.Int{
		big.NewInt(0), big.NewInt(1), big.NewInt(-1), big.NewInt(127), big.NewInt(128), big.NewInt(-129),
		big.NewInt(math.MaxInt64), big.NewInt(math.MinInt64), new(big.Int).Neg(huge), huge,
	} {
		w := NewWriter(nil, 1, 1)
		for _, neg := range []bool{false, true} {
			want := x
			if neg {
				want = new(big.Int).Neg(x)
			}
			require.Equal(t, bigint.ToBytes(want), w.amount(x, neg), "%s, neg %v", x, neg)
		}
	}
}

package stateroot

import (
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

func TestRootEncoding(t *testing.T) {
	r := &Root{Index: 7, RootHash: hash.Uint256{1, 2, 3}}
	b := r.Bytes()
	require.Len(t, b, 1+4+32+1)
	got, err := RootFromBytes(b)
	require.NoError(t, err)
	require.Equal(t, r.Index, got.Index)
	require.Equal(t, r.RootHash, got.RootHash)
	j, err := json.Marshal(r)
	require.NoError(t, err)
	require.JSONEq(t, `{"version":0,"index":7,"roothash":"0x`+r.RootHash.StringLE()+`","witnesses":[]}`, string(j))
	var back Root
	require.NoError(t, json.Unmarshal(j, &back))
	require.Equal(t, r.RootHash, back.RootHash)

	w := &Root{Version: 0, Index: 1, Witness: []transaction.Witness{{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}}
	got, err = RootFromBytes(w.Bytes())
	require.NoError(t, err)
	require.Equal(t, w.Witness, got.Witness)
	_, err = RootFromBytes(append(w.Bytes(), 0))
	require.ErrorIs(t, err, ErrCorrupt)
	two := append(w.Bytes()[:37], 2)
	_, err = RootFromBytes(two)
	require.ErrorIs(t, err, ErrCorrupt)
}

func item(id byte, k string) string {
	return string(append([]byte{byte(storage.STStorage), id, 0, 0, 0}, k...))
}

// Blocks through the module give the roots of mpt.Example_ledger; roots,
// proofs, historic reads and reopening work from the store.
func TestModule(t *testing.T) {
	for _, mode := range []mpt.Mode{mpt.ModeAll, mpt.ModeLatest, mpt.ModeGC} {
		t.Run(mode.String(), func(t *testing.T) {
			db := storage.NewMemoryStore()
			layer := storage.NewMemCachedStore(db)
			m := NewModule(mode, layer)
			require.NoError(t, m.Init(0))
			blocks := []map[string][]byte{
				{item(1, "alice"): {10}, item(1, "bob"): {20}},
				{item(1, "alice"): nil, item(2, "x"): {}},
			}
			want := []string{
				"4f08f70da708aa41588e514d76346bd2eda9d29ee3443ebc1d5c1ec288989af5",
				"7ddac82d2fd7845acd6296db67805cf202f8689d3b95ca0b70d4540a2d473caf",
			}
			for h, ch := range blocks {
				dst := map[string][]byte{}
				r, err := m.AddBlock(uint32(h), ch, dst)
				require.NoError(t, err)
				require.Equal(t, "0x"+want[h], r.RootHash.String())
				_, err = m.AddBlock(uint32(h)+1, nil, map[string][]byte{})
				require.ErrorIs(t, err, ErrHeight, "pending block")
				require.NoError(t, layer.PutChangeSet(dst))
				m.Committed()
				require.EqualValues(t, h, m.CurrentLocalHeight())
			}
			_, err := m.AddBlock(5, nil, map[string][]byte{})
			require.ErrorIs(t, err, ErrHeight)

			r0, err := GetStateRoot(layer, 0)
			require.NoError(t, err)
			r1, err := GetStateRoot(layer, 1)
			require.NoError(t, err)
			require.Equal(t, m.CurrentLocalStateRoot(), r1.RootHash)
			h, err := m.GetLatestStateHeight(layer, r0.RootHash)
			require.NoError(t, err)
			require.Zero(t, h)
			v, err := m.GetState(layer, r1.RootHash, []byte{2, 0, 0, 0, 'x'})
			require.NoError(t, err)
			require.Empty(t, v)
			p, err := m.GetProof(layer, r1.RootHash, []byte{1, 0, 0, 0, 'b', 'o', 'b'})
			require.NoError(t, err)
			v, err = mpt.VerifyProof(r1.RootHash, []byte{1, 0, 0, 0, 'b', 'o', 'b'}, p)
			require.NoError(t, err)
			require.Equal(t, []byte{20}, v)
			if mode == mpt.ModeAll {
				v, err = m.GetState(layer, r0.RootHash, []byte{1, 0, 0, 0, 'a', 'l', 'i', 'c', 'e'})
				require.NoError(t, err)
				require.Equal(t, []byte{10}, v)
				ts := m.TrieStore(layer, r0.RootHash)
				v, err = ts.Get([]byte(item(1, "alice")))
				require.NoError(t, err)
				require.Equal(t, []byte{10}, v)
			}
			kvs, err := m.FindStates(layer, r1.RootHash, []byte{1}, nil, 10)
			require.NoError(t, err)
			require.Len(t, kvs, 1)

			// A failed or dropped block leaves the trie at the committed
			// root.
			dst := map[string][]byte{}
			_, err = m.AddBlock(2, map[string][]byte{item(3, "y"): {1}}, dst)
			require.NoError(t, err)
			m.Abort()
			require.Equal(t, r1.RootHash, m.CurrentLocalStateRoot())
			dst = map[string][]byte{}
			r2, err := m.AddBlock(2, map[string][]byte{item(1, "bob"): nil}, dst)
			require.NoError(t, err)
			require.NoError(t, layer.PutChangeSet(dst))
			m.Committed()

			// Reopen from the store.
			_, err = layer.Persist()
			require.NoError(t, err)
			m2 := NewModule(mode, storage.NewMemCachedStore(db))
			require.NoError(t, m2.Init(2))
			require.Equal(t, r2.RootHash, m2.CurrentLocalStateRoot())
			require.EqualValues(t, 2, m2.CurrentLocalHeight())
			require.Error(t, m2.Init(9))
			if mode.GC() {
				_, err := m.CollectGarbage(db, 2)
				require.NoError(t, err)
			}
		})
	}
}

func FuzzRootFromBytes(f *testing.F) {
	f.Add((&Root{Index: 1}).Bytes())
	f.Add((&Root{Witness: []transaction.Witness{{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}}).Bytes())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := RootFromBytes(b)
		if err != nil {
			return
		}
		// Non-minimal var-ints decode (as in C#), so compare re-decoded.
		r2, err := RootFromBytes(r.Bytes())
		require.NoError(t, err)
		require.Equal(t, r.Bytes(), r2.Bytes())
	})
}

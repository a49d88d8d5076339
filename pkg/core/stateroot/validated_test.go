package stateroot_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

func TestAddValidated(t *testing.T) {
	st := storage.NewMemoryStore()
	m := stateroot.NewModule(mpt.ModeAll, st)
	require.NoError(t, m.Init(0))
	for i := uint32(0); i < 4; i++ {
		dst := map[string][]byte{}
		_, err := m.AddBlock(i, map[string][]byte{string([]byte{0x70, 1, 0, 0, 0, byte(i)}): {byte(i)}}, dst)
		require.NoError(t, err)
		require.NoError(t, st.PutChangeSet(dst))
		m.Committed()
	}
	w := []transaction.Witness{{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}
	r2, err := stateroot.GetStateRoot(st, 2)
	require.NoError(t, err)

	_, err = m.AddValidated(st, &stateroot.Root{Index: 2, RootHash: r2.RootHash})
	require.ErrorIs(t, err, stateroot.ErrNoWitness)
	_, err = m.AddValidated(st, &stateroot.Root{Index: 2, RootHash: hash.Uint256{1}, Witness: w})
	require.ErrorIs(t, err, stateroot.ErrStateMismatch)
	_, err = m.AddValidated(st, &stateroot.Root{Index: 9, RootHash: r2.RootHash, Witness: w})
	require.ErrorIs(t, err, storage.ErrKeyNotFound)
	require.Zero(t, m.CurrentValidatedHeight())

	ok, err := m.AddValidated(st, &stateroot.Root{Index: 2, RootHash: r2.RootHash, Witness: w})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint32(2), m.CurrentValidatedHeight())
	got, err := stateroot.GetStateRoot(st, 2)
	require.NoError(t, err)
	require.Equal(t, w, got.Witness)
	// Again: nothing changes.
	ok, err = m.AddValidated(st, &stateroot.Root{Index: 2, RootHash: r2.RootHash, Witness: []transaction.Witness{{}}})
	require.NoError(t, err)
	require.False(t, ok)
	// A lower height gets its witness but the height stays.
	r1, err := stateroot.GetStateRoot(st, 1)
	require.NoError(t, err)
	ok, err = m.AddValidated(st, &stateroot.Root{Index: 1, RootHash: r1.RootHash, Witness: w})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint32(2), m.CurrentValidatedHeight())
	// Reopened, the module reads the validated height.
	m2 := stateroot.NewModule(mpt.ModeAll, st)
	require.NoError(t, m2.Init(3))
	require.Equal(t, uint32(2), m2.CurrentValidatedHeight())
	v, err := st.Get(stateroot.ValidatedHeightKey())
	require.NoError(t, err)
	require.Equal(t, []byte{2, 0, 0, 0}, v)
}

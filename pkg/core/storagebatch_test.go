package core_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/stretchr/testify/require"
)

// TestSaveStorageBatch: with SaveStorageBatch the chain keeps the storage
// changes of its latest block, classified as added, changed or deleted
// against the previous state; without it, none.
func TestSaveStorageBatch(t *testing.T) {
	off := testchain.New(t)
	off.AddBlock()
	require.Nil(t, off.BC.LastStorageBatch())

	c := testchain.New(t, testchain.Options{App: "  SaveStorageBatch: true\n"})
	h := c.DeployStorage()
	cs := c.BC.GetContractState(h)
	require.NotNil(t, cs)
	key := func(k string) []byte {
		return append(binary.LittleEndian.AppendUint32(nil, uint32(cs.ID)), k...)
	}
	find := func(b *chaindump.StorageBatch, k []byte) *chaindump.StorageChange {
		for i := range b.Changes {
			if bytes.Equal(b.Changes[i].Key, k) {
				return &b.Changes[i]
			}
		}
		return nil
	}

	c.AddBlock(c.Tx(testchain.PutScript(h, [][]byte{[]byte("a"), []byte("b")}, [][]byte{{1}, {2}})))
	b := c.BC.LastStorageBatch()
	require.NotNil(t, b)
	require.Equal(t, c.BC.BlockHeight(), b.Index)
	require.Equal(t, &chaindump.StorageChange{State: chaindump.StorageAdded, Key: key("a"), Value: []byte{1}}, find(b, key("a")))
	require.Equal(t, chaindump.StorageAdded, find(b, key("b")).State)
	// GAS fees and NEO/GAS balances change too (native storage).
	require.Greater(t, len(b.Changes), 2)

	c.AddBlock(c.Tx(testchain.PutScript(h, [][]byte{[]byte("a"), []byte("b"), []byte("c")}, [][]byte{{3}, nil, nil})))
	b = c.BC.LastStorageBatch()
	require.Equal(t, &chaindump.StorageChange{State: chaindump.StorageChanged, Key: key("a"), Value: []byte{3}}, find(b, key("a")))
	require.Equal(t, &chaindump.StorageChange{State: chaindump.StorageDeleted, Key: key("b")}, find(b, key("b")))
	require.Nil(t, find(b, key("c")), "deleting a key that never existed is no change")
	last := b.Changes[len(b.Changes)-1]
	require.Equal(t, chaindump.StorageDeleted, last.State, "deletions come last")

	c.AddBlock()
	require.Equal(t, c.BC.BlockHeight(), c.BC.LastStorageBatch().Index)
}

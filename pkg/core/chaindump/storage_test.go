package chaindump_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/stretchr/testify/require"
)

// TestStorageDumper: batches go to one file per 1000 blocks under one
// directory per 100000, as JSON lines that read back.
func TestStorageDumper(t *testing.T) {
	dir := t.TempDir()
	d := chaindump.NewStorageDumper(dir)
	for i := uint32(998); i <= 1001; i++ {
		require.NoError(t, d.Add(&chaindump.StorageBatch{Index: i, Changes: []chaindump.StorageChange{
			{State: chaindump.StorageAdded, Key: []byte{1, byte(i)}, Value: []byte{2}},
			{State: chaindump.StorageDeleted, Key: []byte{3}},
		}}))
	}
	require.NoError(t, d.Flush())
	require.Equal(t, filepath.Join(dir, "BlockStorage_100000", "dump-block-123000.dump"), chaindump.StorageDumpPath(dir, 123456))
	for file, idx := range map[uint32][]uint32{0: {998, 999}, 1000: {1000, 1001}} {
		f, err := os.Open(chaindump.StorageDumpPath(dir, file))
		require.NoError(t, err)
		bs, err := chaindump.ReadStorageDump(f)
		f.Close()
		require.NoError(t, err)
		require.Len(t, bs, 2)
		for i, b := range bs {
			require.Equal(t, idx[i], b.Index)
			require.Equal(t, 2, b.Size)
			require.Nil(t, b.Changes[1].Value)
		}
	}
	raw, err := os.ReadFile(chaindump.StorageDumpPath(dir, 0))
	require.NoError(t, err)
	require.Contains(t, string(raw), `{"block":998,"size":2,"storage":[{"state":"Added","key":"AeY=","value":"Ag=="},{"state":"Deleted","key":"Aw=="}]}`)
}

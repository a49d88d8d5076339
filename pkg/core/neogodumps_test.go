package core_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/n3node/n3node/internal/refchain/ledgerdiff"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/chaindump"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/stretchr/testify/require"
)

func readDump(t testing.TB, path string) [][]byte {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	r, err := chaindump.NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	var blocks [][]byte
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		blocks = append(blocks, b)
	}
	require.NotEmpty(t, blocks)
	return blocks
}

// neo-go's own test chains (deploys, NEP-11, notary deposits,
// designations) restore under the unit test network configuration with
// neo-go 0.120.0's state roots and application logs
// (testdata/vectors/neogo/*.records.json, recorded by
// internal/refchain/ledgerdiff TestRecordNeoGoDumps).
func TestNeoGoDumps(t *testing.T) {
	requireAllNatives(t)
	for _, name := range []string{"testblocks", "chain50x2"} {
		t.Run(name, func(t *testing.T) {
			blocks := readDump(t, "../../testdata/vectors/neogo/"+name+".acc")
			roots, logs, err := ledgerdiff.RecordsFile("../../testdata/vectors/neogo/" + name + ".records.json")
			require.NoError(t, err)
			rep, err := ledgerdiff.Compare(loadNetwork(t, "unit_testnet"), blocks, roots, logs, storage.NewMemoryStore(), core.Options{})
			require.NoError(t, err)
			t.Logf("imported %d blocks (err %v); compared %d state roots and %d application logs; %d mismatches",
				rep.Imported, rep.Err, rep.Roots, rep.Logs, len(rep.Mismatches))
			for i, m := range rep.Mismatches {
				if i == 20 {
					break
				}
				t.Logf("%s", m)
			}
			require.NoError(t, rep.Err)
			require.Equal(t, len(roots), rep.Roots)
			require.Positive(t, rep.Logs)
			require.Empty(t, rep.Mismatches, "first: %v", rep.FirstMismatch())
		})
	}
}

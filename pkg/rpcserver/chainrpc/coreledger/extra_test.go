package coreledger_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/stretchr/testify/require"
)

// extraFile holds neo-go 0.120.0's answers to extraQueries on the
// reference chain (written by TestNeoGoLiveDiff with N3NODE_NEOGO_UPDATE=1).
const extraFile = "testdata/neogo-extra.json"

// extraSettings are the RPC settings of the neo-go node that answered
// (besides the reference chain's): small limits, so that paging and
// truncation show.
type extraSettings struct {
	MaxIteratorResultItems    int `json:"maxiteratorresultitems"`
	MaxFindResultItems        int `json:"maxfindresultitems"`
	MaxFindStorageResultItems int `json:"maxfindstorageresultitems"`
}

var defaultExtraSettings = extraSettings{MaxIteratorResultItems: 2, MaxFindResultItems: 3, MaxFindStorageResultItems: 4}

type extraRecords struct {
	Settings extraSettings     `json:"settings"`
	Records  []refchain.Record `json:"records"`
}

func (s extraSettings) apply(c *rpcserver.Config) {
	c.MaxIteratorResultItems = s.MaxIteratorResultItems
	c.MaxFindResultItems = s.MaxFindResultItems
	c.MaxFindStorageResultItems = s.MaxFindStorageResultItems
}

// extraReplayOptions compare messages too; storage changes of verbose
// invocations are a set (neo-go lists them in Go map order).
var extraReplayOptions = refchain.ReplayOptions{
	ErrorMessages: true,
	Unordered: map[string][]string{
		"invokefunction":         {"diagnostics.storagechanges"},
		"invokescript":           {"diagnostics.storagechanges"},
		"invokefunctionhistoric": {"diagnostics.storagechanges"},
		"invokescripthistoric":   {"diagnostics.storagechanges"},
		"invokecontainedscript":  {"diagnostics.storagechanges"},
	},
}

// knownExtraDifferences are the extra answers n3node does not reproduce,
// with the reason (docs/rpc-methods.md lists them).
var knownExtraDifferences = map[string]string{}

// TestNeoGoExtraRecords replays the recorded extra set (every chain method,
// valid and invalid parameters) against our server on the restored
// reference chain; no neo-go is needed.
func TestNeoGoExtraRecords(t *testing.T) {
	data, err := os.ReadFile(extraFile)
	require.NoError(t, err)
	var ex extraRecords
	require.NoError(t, json.Unmarshal(data, &ex))
	require.Greater(t, len(ex.Records), 300)
	f, err := refchain.Load(fixtureDir)
	require.NoError(t, err)
	bc, cfg := restore(t, f)
	url := startServer(t, bc, cfg, fakeNet{}, ex.Settings.apply)
	mm, err := refchain.Replay(context.Background(), httpCaller(url), ex.Records, extraReplayOptions)
	require.NoError(t, err)
	checkMismatches(t, mm, knownExtraDifferences)
	t.Logf("%d records replayed, %d differ", len(ex.Records), len(mm))
}

// blockHashes returns the 0x-hashes of the fixture's blocks.
func blockHashes(t testing.TB, f *refchain.Fixtures) []string {
	res := make([]string, len(f.Blocks))
	for i, raw := range f.Blocks {
		b, err := block.NewBlockFromBytes(raw)
		require.NoError(t, err)
		res[i] = "0x" + b.Hash().StringLE()
	}
	return res
}

// fakeBlockHeader is the header of block index with other values, for
// invokecontainedscript.
func fakeBlockHeader(t testing.TB, f *refchain.Fixtures, index int) *block.Header {
	b, err := block.NewBlockFromBytes(f.Blocks[index])
	require.NoError(t, err)
	h := b.Header
	h.Timestamp = 1234567890123
	h.Nonce = 42
	h.Index = 1000
	return &h
}

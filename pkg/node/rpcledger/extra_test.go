package rpcledger_test

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
var knownExtraDifferences = map[string]string{
	// VM fault texts (pkg/vm, pkg/core/interop.FaultMessage): neo-go prints
	// Go runtime panics and its own wording.
	`invokefunction ["0x1999f51d5c65e97458ed02b0def9c8604d5583cd","invalidReturn"]`:     vmRET,
	`invokefunction ["0xa6bea8681690baac1d0959b99dca30823d6bee8b","get",[{"value":1}]]`: vmPACK,
	`invokescript ["/w=="]`: vmBadOpcode,
	`invokescript ["ERCi"]`: vmDivZero,
	`invokecontractverify ["0x1999f51d5c65e97458ed02b0def9c8604d5583cd"]`:                                                                                        vmUnderflow,
	`invokecontractverify ["0x1999f51d5c65e97458ed02b0def9c8604d5583cd",[],[{"account":"0xa8ef80bdb2abba80a51a2d6cfa0096e4be3765ba","scopes":"CalledByEntry"}]]`: vmUnderflow,
	`invokecontractverifyhistoric [10,"0x1999f51d5c65e97458ed02b0def9c8604d5583cd"]`:                                                                             vmUnderflow,
	`invokecontractverifyhistoric [20,"0x1999f51d5c65e97458ed02b0def9c8604d5583cd"]`:                                                                             vmUnderflow,
	`invokecontractverifyhistoric ["21","0x1999f51d5c65e97458ed02b0def9c8604d5583cd"]`:                                                                           vmUnderflow,
	`invokecontractverifyhistoric ["0xf51f6f5f8feb9a57c1da5754aba65348e4da4db0a28ec042bde6085b73cb2952","0x1999f51d5c65e97458ed02b0def9c8604d5583cd"]`:           vmUnderflow,
	`invokecontractverifyhistoric ["0x17b4f2e828098273d0cbc5515d8652ae8c4e9f545a4e4711b2bead82ee34bfcc","0x1999f51d5c65e97458ed02b0def9c8604d5583cd"]`:           vmUnderflow,
	`invokecontractverifyhistoric ["0x5c0c3f413840d6b4a01d56bf7ff1a904e9e51486d551840d00e5188d8267ceca","0x1999f51d5c65e97458ed02b0def9c8604d5583cd"]`:           vmUnderflow,
	`calculatenetworkfee ["AAoAAAAAAAAAAAAAAAAAAAAAAAAAZAAAAAHNg1VNYMj53rAC7Vh06WVcHfWZGQAAAREBAAA="]`:                                                           vmUnderflow,
	// Script check text (pkg/core/interop.CheckScript, wrapped twice by
	// core's verification).
	`sendrawtransaction ["ABsAAACAlpgAAAAAAEBLTAAAAAAAZAAAAAFH13dFadaW8AqL3k+npynV6+Cy2gEAAf8BQgxAE2mxkWp3y/5lkzaH377WJU2GhY+rP/74I8bK1u1llYFxvFyfHVx11nT0Dq8HP4ERkcAVFdI2MSZa1Fj+x8He8SgMIQK/1Gw7O97zW9aR/gooGIPtv7LGYMjAQ4n8/DpQZUotKEFW57Mn"]`: vmBadOpcode,
}

// Reasons of the known differences (all outside the RPC layer).
const (
	vmRET       = "VM text: neo-go 'invalid return values count: expected 1, got 2', n3node 'Return value count mismatch: ...'"
	vmPACK      = "VM text: neo-go 'OPACK: invalid length', n3node 'The array size is out of valid range, ...'"
	vmBadOpcode = "VM/script check text: neo-go '(Opcode(255)): incorrect opcode Opcode(255)', n3node '(UNKNOWN(0xFF)): bad script: invalid opcode 0xFF at 0'"
	vmDivZero   = "VM text: neo-go 'division by zero' (Go big.Int panic), n3node 'invalid operation: Attempted to divide by zero'"
	vmUnderflow = "VM text: neo-go 'runtime error: index out of range [-1]' (Go panic on an empty stack), n3node 'Out of stack bounds: 0/0'"
)

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

package block_test

// Headers of StateRootInHeader networks, encoded by neo-go v0.120.0 (MIT)
// and by n3node: binary form, hash and JSON must be the same. With
// -update-stateroot-vector the neo-go encoding is written to the block
// package's testdata, where a test of the main module reads it.

import (
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	ngblock "github.com/nspcc-dev/neo-go/pkg/core/block"
	ngtx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	ngio "github.com/nspcc-dev/neo-go/pkg/io"
	"github.com/nspcc-dev/neo-go/pkg/util"
	"github.com/stretchr/testify/require"
)

var updateVector = flag.Bool("update-stateroot-vector", false, "rewrite pkg/core/block/testdata/stateroot_header.json")

const vectorPath = "../../../../pkg/core/block/testdata/stateroot_header.json"

func neoGoBlock(t *testing.T) *ngblock.Block {
	b := ngblock.New(true)
	b.Version = 0
	b.PrevHash = util.Uint256{1, 2, 3}
	b.Timestamp = 1700000000123
	b.Nonce = 0x0102030405060708
	b.Index = 17
	b.PrimaryIndex = 2
	b.NextConsensus = util.Uint160{9, 8, 7}
	b.PrevStateRoot = util.Uint256{0xaa, 0xbb, 0xcc, 31: 0xdd}
	b.Script = ngtx.Witness{InvocationScript: []byte{0x0c, 0x02, 0x01, 0x02}, VerificationScript: []byte{0x11}}
	b.RebuildMerkleRoot()
	return b
}

func TestStateRootHeaderNeoGo(t *testing.T) {
	ng := neoGoBlock(t)
	w := ngio.NewBufBinWriter()
	ng.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	raw := w.Bytes()
	ngJSON, err := json.Marshal(ng)
	require.NoError(t, err)

	b, err := block.DecodeOwnedBlock(append([]byte(nil), raw...), true)
	require.NoError(t, err)
	require.Equal(t, ng.Hash().StringLE(), b.Hash().StringLE())
	require.Equal(t, raw, b.Bytes())
	require.Equal(t, len(raw), b.Size())
	js, err := json.Marshal(b)
	require.NoError(t, err)
	require.JSONEq(t, string(ngJSON), string(js))
	require.Equal(t, string(ngJSON), string(js), "field order")

	// neo-go's header message form (header only) too.
	hw := ngio.NewBufBinWriter()
	ng.Header.EncodeBinary(hw.BinWriter)
	h, err := block.DecodeHeader(hw.Bytes(), true)
	require.NoError(t, err)
	require.Equal(t, ng.Hash().StringLE(), h.Hash().StringLE())

	if *updateVector {
		v := map[string]any{
			"raw":  hex.EncodeToString(raw),
			"hash": ng.Hash().StringLE(),
			"json": json.RawMessage(ngJSON),
		}
		out, err := json.MarshalIndent(v, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(vectorPath, append(out, '\n'), 0o644))
	}
}

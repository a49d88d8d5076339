package core_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// seqLedger is the interop.Ledger of the sequential reference executor.
type seqLedger struct{ hashes []hash.Uint256 }

func (l *seqLedger) BlockHeight() uint32 { return uint32(len(l.hashes)) - 1 }
func (l *seqLedger) GetHeaderHash(i uint32) hash.Uint256 {
	if int(i) < len(l.hashes) {
		return l.hashes[i]
	}
	return hash.Uint256{}
}

// sequential executes blocks one after the other with nothing but
// native.ExecuteBlock, native.StoreBlock and a trie: the reference the
// pipeline must equal. It returns the root and the results of every block.
func sequential(t *testing.T, c *testchain.Chain, blocks []*block.Block, seed func(*dao.Simple)) ([]hash.Uint256, map[hash.Uint256][]*state.AppExecResult) {
	natives := native.NewContracts(&c.Cfg)
	d := dao.NewSimple(storage.NewMemoryStore())
	tr := mpt.NewTrie(hash.Uint256{}, mpt.ModeAll, storage.NewMemCachedStore(storage.NewMemoryStore()))
	l := &seqLedger{}
	g, err := core.CreateGenesisBlock(&c.Cfg.ProtocolConfiguration)
	require.NoError(t, err)
	var roots []hash.Uint256
	aers := map[hash.Uint256][]*state.AppExecResult{}
	for i, b := range append([]*block.Block{g}, blocks...) {
		l.hashes = append(l.hashes, b.Hash())
		if i == 1 {
			seed(d)
		}
		bd := d.GetPrivate()
		res, err := natives.ExecuteBlock(&seqLedger{l.hashes[:len(l.hashes)-1]}, bd, b)
		require.NoError(t, err)
		batch, err := mpt.MapToBatch(bd.Store.Changes([]byte{dao.STStorage}), 1)
		require.NoError(t, err)
		require.NoError(t, tr.PutBatch(batch))
		roots = append(roots, tr.StateRoot())
		require.NoError(t, tr.Flush(uint32(i)))
		require.NoError(t, native.StoreBlock(bd, b, res))
		_, err = bd.Persist()
		require.NoError(t, err)
		aers[b.Hash()] = []*state.AppExecResult{res[0], res[len(res)-1]}
		for j, tx := range b.Transactions {
			aers[tx.Hash()] = []*state.AppExecResult{res[j+1]}
		}
	}
	return roots, aers
}

func aerJSON(t *testing.T, aers []state.AppExecResult) string {
	b, err := json.Marshal(aers)
	require.NoError(t, err)
	return string(b)
}

// The pipeline (blocks checked ahead, a block executing while the previous
// one's trie is updated, records written concurrently) gives exactly what
// sequential execution gives: the same state root at every height and the
// same execution results, whether blocks come one by one (AddBlock) or as
// a stream (AddBlocks).
func TestPipelineEqualsSequential(t *testing.T) {
	gen := testchain.New(t)
	blocks, _ := genBlocks(gen, mustHeader(t, gen.BC, 0), 60)
	committee := gen.Account()

	const seed = 1_000_000_0000_0000
	roots, want := sequential(t, gen, blocks, func(d *dao.Simple) { core.SeedGAS(d, committee, seed) })
	halted, notes := 0, 0
	for _, b := range blocks {
		for _, tx := range b.Transactions {
			aer := want[tx.Hash()][0]
			require.Equal(t, "HALT", aer.VMState.String(), "block %d: %s", b.Index, aer.FaultException)
			halted++
			notes += len(aer.Events)
		}
	}
	require.Greater(t, halted, 200)
	require.Greater(t, notes, 50)
	for _, mode := range []string{"stream", "one by one", "stream, 1 verifier, lookahead 1"} {
		t.Run(mode, func(t *testing.T) {
			o := testchain.Options{}
			if mode == "stream, 1 verifier, lookahead 1" {
				o.Core = core.Options{Verifiers: 1, Lookahead: 1}
			}
			c := testchain.New(t, o)
			c.BC.SeedGASForTest(committee, seed)
			if mode == "one by one" {
				for _, b := range blocks {
					require.NoError(t, c.BC.AddBlock(b))
				}
			} else {
				ch := make(chan *block.Block, len(blocks))
				for _, b := range blocks {
					ch <- b
				}
				close(ch)
				require.NoError(t, c.BC.AddBlocks(context.Background(), ch))
			}
			require.EqualValues(t, len(blocks), c.BC.BlockHeight())
			for h, r := range roots {
				sr, err := c.BC.GetStateRoot(uint32(h))
				require.NoError(t, err)
				require.Equal(t, r, sr.RootHash, "height %d", h)
			}
			for _, b := range blocks {
				for _, hh := range append([]hash.Uint256{b.Hash()}, txHashes(b)...) {
					got, err := c.BC.GetAppExecResults(hh, 0xff)
					require.NoError(t, err)
					w := make([]state.AppExecResult, len(want[hh]))
					for i := range w {
						w[i] = *want[hh][i]
					}
					require.JSONEq(t, aerJSON(t, w), aerJSON(t, got), "block %d", b.Index)
				}
			}
		})
	}
}

func txHashes(b *block.Block) []hash.Uint256 {
	var hs []hash.Uint256
	for _, tx := range b.Transactions {
		hs = append(hs, tx.Hash())
	}
	return hs
}

func mustHeader(t testing.TB, bc *core.Blockchain, i uint32) *block.Header {
	h, err := bc.GetHeaderByIndex(i)
	require.NoError(t, err)
	return h
}

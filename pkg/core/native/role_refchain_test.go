package native_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// roleRefLedger is the interop.Ledger of a replayed chain.
type roleRefLedger struct{ blocks []*block.Block }

func (l *roleRefLedger) BlockHeight() uint32 { return uint32(len(l.blocks) - 1) }

func (l *roleRefLedger) GetHeaderHash(i uint32) hash.Uint256 {
	if int(i) >= len(l.blocks) {
		return hash.Uint256{}
	}
	return l.blocks[i].Hash()
}

// TestRefchainOracleDesignation replays the reference chain (neo-go 0.120.0,
// testdata/refchain) with native.ExecuteBlock up to the transaction that
// designates E as Oracle node and compares its application log with
// neo-go's: VM state, GAS, stack and the Designation notification (with the
// Echidna Old/New fields). Earlier transactions that need NEO or GAS fail
// while those natives are missing; they do not touch RoleManagement.
func TestRefchainOracleDesignation(t *testing.T) {
	root := filepath.Join("..", "..", "..", "testdata", "refchain")
	f, err := refchain.Load(root)
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(root, "protocol.yml"))
	require.NoError(t, err)
	cfgFile, err := config.LoadBytes("protocol.yml", raw)
	require.NoError(t, err)
	cfg, err := cfgFile.Blockchain()
	require.NoError(t, err)

	var target *refchain.TxInfo
	for i := range f.Scenario.Transactions {
		if tx := &f.Scenario.Transactions[i]; tx.Step == "candidates" && tx.Block > 0 && strings.Contains(tx.Description, "Oracle") {
			target = tx
		}
	}
	require.NotNil(t, target, "designation transaction not in the scenario")

	natives := native.NewContracts(&cfg)
	d := dao.NewSimple(storage.NewMemoryStore())
	l := &roleRefLedger{}
	var got *state.AppExecResult
	for h := 0; h <= int(target.Block); h++ {
		b, err := block.NewBlockFromBytes(f.Blocks[h])
		require.NoError(t, err)
		layer := d.GetPrivate()
		aers, err := natives.ExecuteBlock(l, layer, b)
		require.NoError(t, err, "block %d", h)
		require.NoError(t, native.StoreBlock(layer, b, aers))
		_, err = layer.Persist()
		require.NoError(t, err)
		l.blocks = append(l.blocks, b)
		for i, tx := range b.Transactions {
			if "0x"+tx.Hash().StringLE() == target.Hash {
				got = aers[i+1]
			}
		}
	}
	require.NotNil(t, got)

	var want struct {
		Executions []json.RawMessage `json:"executions"`
	}
	require.NoError(t, json.Unmarshal(f.AppLogs()[target.Hash], &want))
	require.Len(t, want.Executions, 1)
	gotJSON, err := json.Marshal(got.Execution)
	require.NoError(t, err)
	require.JSONEq(t, string(want.Executions[0]), string(gotJSON))

	// The designated key applies from the next block.
	r := natives.RoleManagement()
	keys, index, err := r.GetDesignatedByRole(d, noderoles.Oracle, target.Block+1)
	require.NoError(t, err)
	require.Equal(t, target.Block+1, index)
	require.Len(t, keys, 1)
	e := f.Scenario.Accounts
	var eKey string
	for _, a := range e {
		if a.Name == "E" {
			eKey = a.PublicKey
		}
	}
	require.Equal(t, eKey, keys[0].StringCompressed())
}

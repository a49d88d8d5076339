package core_test

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

// TestSaveInvocations: with ApplicationConfiguration.SaveInvocations the
// application log of a transaction lists its System.Contract.Call calls in
// order, in neo-go's JSON form, also when the transaction FAULTs; without
// it "invocations" is null.
func TestSaveInvocations(t *testing.T) {
	for _, on := range []bool{false, true} {
		app := ""
		if on {
			app = "  SaveInvocations: true\n"
		}
		c := testchain.New(t, testchain.Options{App: app})
		a := newKey(t, 1)
		c.BC.SeedGASForTest(a.PublicKey().ScriptHash(), 100_0000_0000)
		c.AddBlock()
		acc := a.PublicKey().ScriptHash()
		script, err := emit.Script(func(w *io.BinWriter) {
			emit.AppCall(w, nativenames.NeoHash, "balanceOf", callflag.ReadStates, acc.BytesBE())
			emit.AppCall(w, nativenames.LedgerHash, "currentIndex", callflag.ReadStates)
			emit.Opcodes(w, opcode.ABORT)
		})
		require.NoError(t, err)
		tx := c.Sign(c.TxBy(script, a), a)
		c.AddBlock(tx)
		aers, err := c.BC.GetAppExecResults(tx.Hash(), trigger.Application)
		require.NoError(t, err)
		require.Len(t, aers, 1)
		require.Equal(t, vmstate.Fault, aers[0].VMState)
		js, err := json.Marshal(aers[0].Execution)
		require.NoError(t, err)
		var got struct {
			Invocations json.RawMessage `json:"invocations"`
		}
		require.NoError(t, json.Unmarshal(js, &got))
		if !on {
			require.Nil(t, aers[0].Invocations)
			require.Equal(t, "null", string(got.Invocations))
			continue
		}
		require.Len(t, aers[0].Invocations, 2)
		want := `[{"hash":"0x` + nativenames.NeoHash.StringLE() + `","method":"balanceOf","arguments":{"type":"Array","value":[{"type":"ByteString","value":"` +
			base64.StdEncoding.EncodeToString(acc.BytesBE()) + `"}]},"argumentscount":1,"truncated":false},` +
			`{"hash":"0x` + nativenames.LedgerHash.StringLE() + `","method":"currentIndex","arguments":{"type":"Array","value":[]},"argumentscount":0,"truncated":false}]`
		require.JSONEq(t, want, string(got.Invocations))
	}
}

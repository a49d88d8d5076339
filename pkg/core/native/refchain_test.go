package native_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// TestRefchainContracts replays the reference chain's contract lifecycle
// (testdata/refchain, built by neo-go 0.120.0): A deploys RefChain, C
// deploys and destroys RefChainDoomed, B updates RefChain to version 2.
// The resulting contract state must equal neo-go's getcontractstate answer
// (hash, id, update counter, NEF and manifest as stored).
func TestRefchainContracts(t *testing.T) {
	dir := "../../../testdata/refchain/"
	read := func(name string) []byte {
		b, err := os.ReadFile(dir + name)
		require.NoError(t, err)
		return bytes.TrimSpace(b)
	}
	var scenario struct {
		Accounts []struct {
			Name       string       `json:"name"`
			ScriptHash hash.Uint160 `json:"scripthash"`
		} `json:"accounts"`
	}
	require.NoError(t, json.Unmarshal(read("scenario.json"), &scenario))
	acc := map[string]hash.Uint160{}
	for _, a := range scenario.Accounts {
		acc[a.Name] = a.ScriptHash
	}
	var recorded map[string]json.RawMessage = map[string]json.RawMessage{}
	var recs []struct {
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
	}
	require.NoError(t, json.Unmarshal(read("rpc/state.json"), &recs))
	for _, r := range recs {
		if r.Method != "getcontractstate" || len(r.Result) == 0 || r.Result[0] != '{' {
			continue
		}
		var cs state.Contract
		require.NoError(t, json.Unmarshal(r.Result, &cs))
		recorded[cs.Manifest.Name] = r.Result
	}
	require.Contains(t, recorded, "RefChain")

	c := chaintest.New(t)
	signer := func(name string) transaction.Signer {
		return transaction.Signer{Account: acc[name], Scopes: transaction.CalledByEntry}
	}
	deploy := func(name, file string) *state.Contract {
		aer := c.RunOK(chaintest.CallScript(nativenames.ManagementHash, "deploy",
			read("contracts/"+file+".nef"), read("contracts/"+file+".manifest.json"), "data"), signer(name))
		var cs state.Contract
		require.NoError(t, cs.FromStackItem(aer.Stack[0]))
		return &cs
	}
	refchain := deploy("A", "refchain")
	doomed := deploy("C", "refchain_doomed")
	require.Equal(t, "a6bea8681690baac1d0959b99dca30823d6bee8b", refchain.Hash.StringLE())
	require.EqualValues(t, 1, refchain.ID)
	require.EqualValues(t, 2, doomed.ID)
	c.RunOK(chaintest.CallScript(doomed.Hash, "destroy"), signer("C"))
	c.RunOK(chaintest.CallScript(refchain.Hash, "update", read("contracts/refchain_v2.nef"),
		string(read("contracts/refchain_v2.manifest.json"))), signer("B"))

	got, err := c.Natives.Management.GetContract(c.DAO, refchain.Hash)
	require.NoError(t, err)
	out, err := json.Marshal(got)
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, json.Compact(&want, recorded["RefChain"]))
	require.Equal(t, want.String(), string(out))
	// And through the stored bytes.
	stored, err := state.ContractFromBytes(c.DAO.GetStorageItem(nativenames.ManagementID, append([]byte{8}, refchain.Hash[:]...)))
	require.NoError(t, err)
	out, err = json.Marshal(stored)
	require.NoError(t, err)
	require.Equal(t, want.String(), string(out))
	_, err = c.Natives.Management.GetContract(c.DAO, doomed.Hash)
	require.Error(t, err)
}

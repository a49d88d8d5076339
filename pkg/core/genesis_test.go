package core_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/stretchr/testify/require"
)

func loadNetwork(t testing.TB, name string) config.Blockchain {
	c, err := config.LoadNetwork(name)
	require.NoError(t, err)
	cfg, err := c.Blockchain()
	require.NoError(t, err)
	return cfg
}

// The genesis blocks of MainNet and TestNet, built by Blockchain init from
// the embedded configurations, are the reference's, and the native
// contracts deployed there have the reference hashes.
func TestGenesisVectors(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/vectors/genesis.json")
	require.NoError(t, err)
	var g struct {
		Networks map[string]struct {
			Magic        uint32 `json:"network_magic"`
			GenesisHash  string `json:"genesis_hash"`
			GenesisBlock string `json:"genesis_block_hex"`
		} `json:"networks"`
	}
	require.NoError(t, json.Unmarshal(raw, &g))
	raw, err = os.ReadFile("../../testdata/vectors/contracts_addresses.json")
	require.NoError(t, err)
	var ca struct {
		Natives []struct {
			ID         int32  `json:"id"`
			Name       string `json:"name"`
			Hash       string `json:"hash"`
			ActiveFrom string `json:"active_from"`
		} `json:"native_contracts"`
	}
	require.NoError(t, json.Unmarshal(raw, &ca))
	require.Len(t, ca.Natives, 11)
	n := 0
	for name, want := range g.Networks {
		cfg := loadNetwork(t, name)
		require.EqualValues(t, want.Magic, cfg.Magic)
		bc, err := core.New(cfg, storage.NewMemoryStore(), core.Options{})
		require.NoError(t, err, name)
		require.Zero(t, bc.BlockHeight())
		require.Equal(t, want.GenesisHash, "0x"+bc.CurrentBlockHash().StringLE(), name)
		b, err := bc.GetBlockByIndex(0)
		require.NoError(t, err)
		require.Equal(t, want.GenesisBlock, hex.EncodeToString(b.Bytes()), name)
		for _, nc := range ca.Natives {
			if nc.ActiveFrom != "genesis" || bc.Natives().ByID(nc.ID) == nil {
				continue
			}
			cs := bc.GetContractStateByID(nc.ID)
			require.NotNil(t, cs, "%s %s", name, nc.Name)
			require.Equal(t, nc.Hash, "0x"+cs.Hash.StringLE(), "%s %s", name, nc.Name)
			require.Equal(t, nc.Name, cs.Manifest.Name)
		}
		require.NoError(t, bc.Close())
		n++
	}
	require.Equal(t, 2, n)
}

package native_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// genesisCSS holds neo-go 0.120.0's expected native contract states at
// genesis (pkg/core/native/native_test/management_test.go), by hardfork set.
func genesisCSS(t *testing.T) map[string]map[string]string {
	raw, err := os.ReadFile("testdata/genesis_css.json")
	require.NoError(t, err)
	var css map[string]map[string]string
	require.NoError(t, json.Unmarshal(raw, &css))
	// Later sets inherit the earlier ones' states (as the neo-go test does).
	order := []string{"default", "cockatrice", "echidna", "faun", "gorgon"}
	for i := 1; i < len(order); i++ {
		for k, v := range css[order[i-1]] {
			if _, ok := css[order[i]][k]; !ok {
				css[order[i]][k] = v
			}
		}
	}
	return css
}

func hfUpTo(last config.Hardfork, height uint32) map[string]uint32 {
	res := map[string]uint32{}
	for _, hf := range config.Hardforks() {
		if hf > last {
			break
		}
		res[hf.String()] = height
	}
	return res
}

func getContractScript(t *testing.T, name string) []byte {
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.ManagementHash, "getContract", callflag.ReadStates, nativenames.Hash(nativenames.ID(name)))
	})
	require.NoError(t, err)
	return script
}

func TestGenesisNativeStates(t *testing.T) {
	css := genesisCSS(t)
	cases := []struct {
		name string
		opts chaintest.Options
		set  string
	}{
		{"disabled hardforks", chaintest.Options{NoHardforks: true}, "default"},
		{"remotely enabled hardforks", chaintest.Options{Hardforks: hfUpTo(config.HFFaun, 100500)}, "default"},
		{"Aspidochelone", chaintest.Options{Hardforks: hfUpTo(config.HFAspidochelone, 0)}, "default"},
		{"Basilisk", chaintest.Options{Hardforks: hfUpTo(config.HFBasilisk, 0)}, "default"},
		{"Cockatrice", chaintest.Options{Hardforks: hfUpTo(config.HFCockatrice, 0)}, "cockatrice"},
		{"Domovoi", chaintest.Options{Hardforks: hfUpTo(config.HFDomovoi, 0)}, "cockatrice"},
		{"Echidna", chaintest.Options{Hardforks: hfUpTo(config.HFEchidna, 0)}, "echidna"},
		{"Faun", chaintest.Options{Hardforks: hfUpTo(config.HFFaun, 0)}, "faun"},
		{"Gorgon", chaintest.Options{Hardforks: hfUpTo(config.HFGorgon, 0)}, "gorgon"},
	}
	checked := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := chaintest.New(t, tc.opts)
			want := css[tc.set]
			for _, name := range nativenames.All {
				impl := c.Natives.ByID(nativenames.ID(name)) != nil
				exp, expected := want[name]
				// Through the VM: ContractManagement.getContract.
				aer := c.RunOK(getContractScript(t, name))
				require.Len(t, aer.Stack, 1)
				if !impl || !expected {
					require.Equal(t, stackitem.Null{}, aer.Stack[0], name)
					continue
				}
				var cs state.Contract
				require.NoError(t, cs.FromStackItem(aer.Stack[0]), name)
				got, err := json.Marshal(&cs)
				require.NoError(t, err)
				require.Equal(t, exp, string(got), "%s state mismatch", name)
				checked++
			}
		})
	}
	// Every implemented native is compared in every case that expects it:
	// at least Management, Ledger and Policy.
	require.GreaterOrEqual(t, checked, len(cases)*3)
}

func TestNativeMetadataAllHardforks(t *testing.T) {
	// Every implemented native builds a valid manifest for every hardfork.
	c := chaintest.New(t)
	for _, n := range c.Natives.List() {
		md := n.Metadata()
		for _, hf := range append([]config.Hardfork{config.HFDefault}, config.Hardforks()...) {
			if hf < md.ActiveIn {
				continue
			}
			m := md.HFSpecific(hf)
			require.NoError(t, m.Manifest.IsValid(md.Hash, true), "%s at %s", md.Name, hf)
			require.Equal(t, m.NEF.Checksum, m.NEF.CalculateChecksum())
		}
	}
	require.NotNil(t, c.Natives.ByID(nativenames.ManagementID).(*native.Management))
}

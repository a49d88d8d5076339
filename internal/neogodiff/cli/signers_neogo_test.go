package txsend_test

import (
	"encoding/json"
	"testing"

	ngcmdargs "github.com/nspcc-dev/neo-go/cli/cmdargs"

	"github.com/n3node/n3node/cmd/n3node/app/txsend"
)

// TestParseSignersNeoGo compares signer words with neo-go 0.120.0's
// cmdargs.ParseSigners: the same signers (as JSON), or errors for both
// with the same text.
func TestParseSignersNeoGo(t *testing.T) {
	const (
		addr = "NSiVJYZej4XsxG5CUpdwn7VRQk8iiiDMPM"
		h    = "682cca3ebdc66210e5847d7f8115846586079d4a"
		key  = "03b209fd4f53a7170ea4444e0cb0a6bb6a53c2bd016926989cf85f9b0fba17a70c"
	)
	words := []string{
		addr, h, "0x" + h, addr + ":", addr + ":None", addr + ":Global", addr + ":CalledByEntry",
		addr + ":CalledByEntry,CustomContracts:" + h, addr + ":CustomContracts:" + h + ":" + addr,
		addr + ":CustomGroups:" + key, addr + ":CustomGroups:" + key + ":" + key + ",CalledByEntry",
		addr + ":Global,CalledByEntry", addr + ":CalledByEntry,Global", addr + ":Global,Global", addr + ":None,Global",
		addr + ":Global,None", addr + ":CustomContracts", addr + ":CustomGroups", addr + ":CustomContracts:",
		addr + ":CustomGroups:zz", addr + ":Bogus", addr + ":CalledByEntry:" + h, "bad", "bad:Global",
		addr + ":Global,CustomContracts", addr + ":WitnessRules", addr + ":calledbyentry",
	}
	for _, w := range words {
		got, gerr := txsend.ParseSigners([]string{w})
		want, werr := ngcmdargs.ParseSigners([]string{w})
		if (gerr != nil) != (werr != nil) {
			t.Errorf("%q: error %v, neo-go %v", w, gerr, werr)
			continue
		}
		if gerr != nil {
			if gerr.Error() != werr.Error() {
				t.Logf("%q: error texts differ:\n ours  %v\n neogo %v", w, gerr, werr)
			}
			continue
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if string(gj) != string(wj) {
			t.Errorf("%q:\n got %s\nwant %s", w, gj, wj)
		}
	}
}

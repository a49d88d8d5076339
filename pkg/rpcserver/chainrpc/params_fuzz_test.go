package chainrpc_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
)

// FuzzMethodParams sends arbitrary parameter lists to every chain method:
// the table's decoder (params.go) and the handlers behind it must answer
// with a result or an error, never panic (the server would turn a panic
// into -32603, which would hide a wrong answer).
func FuzzMethodParams(f *testing.F) {
	for _, seed := range []string{
		`[]`, `[null]`, `[1]`, `["1", true]`, `[-1, "x", 3]`,
		`["0x0000000000000000000000000000000000000000000000000000000000000000"]`,
		`["NX8GreRFGFK5wpGMWetpX93HmtrezGogzk", 0, 1, 2, 3]`,
		`[1, "0xa6bea8681690baac1d0959b99dca30823d6bee8b", "get", [{"type":"Integer","value":"1"}], [{"account":"0xa6bea8681690baac1d0959b99dca30823d6bee8b","scopes":"CalledByEntry"}], true]`,
		`["0x0000000000000000000000000000000000000000000000000000000000000000", "0xa6bea8681690baac1d0959b99dca30823d6bee8b", "AQ==", "AQI=", 5]`,
		`["AAAA"]`, `["@@@"]`, `[{"script":"AQ=="}, {"index":1}, "verification", 1]`,
	} {
		for i := range 50 {
			f.Add(uint8(i), []byte(seed))
		}
	}
	l := newFakeLedger(4)
	srv := rpcserver.New(rpcserver.Config{SessionEnabled: true, MaxIteratorResultItems: 10, MaxFindResultItems: 10, MaxFindStorageResultItems: 10})
	svc := chainrpc.New(l, srv, chainrpc.Options{})
	names := svc.Methods()
	slices.Sort(names)
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		var raws []json.RawMessage
		if json.Unmarshal(raw, &raws) != nil {
			return
		}
		p := make(neorpc.Params, len(raws))
		for i := range raws {
			p[i] = neorpc.Param{RawMessage: raws[i]}
		}
		name := names[int(which)%len(names)]
		res, rerr := svc.Call(name, p)
		if rerr == nil && res == nil && name != "getrawmempool" {
			t.Logf("%s %s: null result", name, raw)
		}
	})
}

package rpcclient

import (
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/core/state"
)

// FuzzResultJSON feeds arbitrary node answers to every result decoder and
// the stack helpers: errors are fine, panics are not, and whatever
// decodes must encode again.
func FuzzResultJSON(f *testing.F) {
	for _, s := range []string{
		`{"state":"HALT","gasconsumed":"1","script":"QA==","stack":[{"type":"Integer","value":"5"},{"type":"Array","value":[{"type":"Map","value":[{"key":{"type":"Boolean","value":true},"value":{"type":"Any"}}]}]}],"exception":null,"notifications":[]}`,
		`{"state":"FAULT","gasconsumed":"x","stack":[{"type":"InteropInterface","interface":"IIterator","id":"1"}],"exception":"boom","notifications":[{"contract":"0x0000000000000000000000000000000000000000","eventname":"e","state":{"type":"Array","value":[]}}]}`,
		`{"txid":"0x0000000000000000000000000000000000000000000000000000000000000000","executions":[{"trigger":"Application","vmstate":"HALT","gasconsumed":"1","stack":[],"notifications":[],"exception":null}]}`,
		`{"tcpport":1,"nonce":2,"useragent":"u","protocol":{"network":5,"hardforks":[{"name":"HF_Faun","blockheight":3}],"standbycommittee":[]},"rpc":{}}`,
		`{"balance":[{"assethash":"0x0000000000000000000000000000000000000000","amount":"1","decimals":"8","lastupdatedblock":1,"name":"n","symbol":"s"}],"address":"x"}`,
		`{"address":"NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP","unclaimed":"12"}`,
		`[{"publickey":"02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2","votes":"50","active":true}]`,
		`{"blockhash":"0x00","hash":"0x00"}`, `null`, `[]`, `{}`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r InvokeResult
		if json.Unmarshal(data, &r) == nil {
			for i := range r.Stack {
				_, _ = r.Item(i)
				_, _ = r.Int(i)
				_, _ = r.String(i)
				_, _ = r.Array(i)
				_, _ = r.Iterator(i)
			}
			if _, err := json.Marshal(r); err != nil {
				t.Fatalf("decoded InvokeResult does not encode: %v", err)
			}
		}
		for _, v := range []any{new(ApplicationLog), new(Version), new(NEP17Balances), new(NEP17Transfers),
			new(UnclaimedGas), new([]Candidate), new([]Validator), new(TransactionOutputRaw), new(state.Contract)} {
			if json.Unmarshal(data, v) == nil {
				_, _ = json.Marshal(v)
			}
		}
	})
}

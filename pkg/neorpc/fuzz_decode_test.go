package neorpc_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/neorpc"
)

// FuzzDecodeBody: a request body of any bytes decodes or fails, never
// panics. (internal/neogodiff's FuzzDecodeBodyNeoGo compares the outcome
// with neo-go's.)
func FuzzDecodeBody(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"getblockcount","params":[],"id":1}`))
	f.Add([]byte(`[{"jsonrpc":"2.0","method":"m","params":["a",1,{"k":[]}],"id":"x"}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var in neorpc.Incoming
		_ = in.DecodeBody(body, nil)
	})
}

// FuzzStringToUint160: address decoding never panics (neo-go's does on
// short payloads; ours returns ErrAddressTooShort).
func FuzzStringToUint160(f *testing.F) {
	f.Add("NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP")
	f.Add("3yZe7d")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = neorpc.StringToUint160(s)
	})
}

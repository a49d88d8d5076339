package chainrpc_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
)

// FuzzFakeHeader: invokecontainedscript's header decoder never panics
// (internal/neogodiff's FuzzFakeHeader compares it with neo-go's).
func FuzzFakeHeader(f *testing.F) {
	f.Add([]byte(`{"hash":"0x00"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = chainrpc.DecodeFakeHeader(data)
	})
}

// FuzzDecodeInput: sendrawtransaction's decoder and the EOF rewording of
// its errors never panic on any bytes (0xbb first: as a block).
func FuzzDecodeInput(f *testing.F) {
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		isBlock := len(b) > 0 && b[0] == 0xbb
		if isBlock {
			b = b[1:]
		}
		_, err := chainrpc.DecodeTransaction(b)
		if err != nil {
			_ = chainrpc.NeoGoEOFText(err, b, isBlock)
		}
	})
}

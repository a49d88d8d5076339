package notary_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/services/notary"
)

// FuzzScriptParsers: the static script readers never panic on any script
// (internal/neogodiff's FuzzScriptParsers compares them with neo-go's).
func FuzzScriptParsers(f *testing.F) {
	f.Add([]byte{0x11, 0x0c, 0x21})
	f.Fuzz(func(t *testing.T, script []byte) {
		_, _, _ = notary.ParseMultiSig(script)
		_, _ = notary.ParseSignature(script)
		_, _, _ = notary.ParseAppCall(script)
		_, _ = notary.CountPushes(script)
	})
}

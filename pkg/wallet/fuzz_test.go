package wallet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzWalletFromBytes feeds untrusted wallet files to the decoder: it must
// return an error or a wallet whose re-encoding decodes to the same JSON.
func FuzzWalletFromBytes(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := NewWalletFromBytes(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(w)
		if err != nil {
			// Only a contract parameter type without a name can fail.
			return
		}
		w2, err := NewWalletFromBytes(out)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		out2, err := json.Marshal(w2)
		if err != nil || string(out2) != string(out) {
			t.Fatalf("unstable encoding:\n%s\n%s", out, out2)
		}
		for _, a := range w.Accounts {
			_ = a.ScriptHash()
			_ = a.GetVerificationScript()
		}
		_ = w.DefaultAccount()
		_ = w.GetChangeAddress()
	})
}

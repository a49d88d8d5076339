package context

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzParameterContext feeds untrusted context files to the decoder: it
// must return an error or a context whose encoding is stable, and building
// witnesses must not panic.
func FuzzParameterContext(f *testing.F) {
	if b, err := os.ReadFile("testdata/csharp_context.json"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c ParameterContext
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		_ = c.IsComplete()
		for _, h := range c.ScriptHashes() {
			_, _ = c.GetWitness(h)
		}
		out, err := json.Marshal(&c)
		if err != nil {
			return // e.g. a transaction field that cannot be re-encoded
		}
		var c2 ParameterContext
		if err := json.Unmarshal(out, &c2); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		out2, err := json.Marshal(&c2)
		if err != nil || string(out2) != string(out) {
			t.Fatalf("unstable encoding:\n%s\n%s", out, out2)
		}
	})
}

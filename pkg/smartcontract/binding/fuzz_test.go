package binding_test

import (
	"os"
	"testing"

	"github.com/n3node/n3node/pkg/smartcontract/binding"
)

// FuzzParseConfig: bindings configurations (user files) are read without
// panics.
func FuzzParseConfig(f *testing.F) {
	if raw, err := os.ReadFile("testdata/nep17.bindings.yml"); err == nil {
		f.Add(raw)
	}
	for _, s := range []string{"", "package: x\n", "hash: zz\n", "types:\n  a:\n    base: Nope\n", "overrides:\n  a: '[]*x.Y'\n", "callflags:\n  a: Bad\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = binding.ParseConfig(data)
	})
}

// FuzzParseOverride: any override string gives some override.
func FuzzParseOverride(f *testing.F) {
	for _, s := range []string{"", ".", "]", "*.", "[]a/b.C", "a.b/c", "map[string]x/y.Z", "]]].", "/./"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = binding.ParseOverride(s)
	})
}

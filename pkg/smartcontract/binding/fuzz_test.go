package binding_test

import (
	"io"
	"os"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/binding"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
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

// FuzzGenerateRPC: any configuration (user file) with any valid manifest
// gives an RPC binding or an error, never a panic.
func FuzzGenerateRPC(f *testing.F) {
	names := []string{"nep17", "structs", "notifyconv", "maps", "iterators", "namedtypes"}
	for _, n := range names {
		m, _ := os.ReadFile("testdata/rpc/" + n + ".manifest.json")
		c, _ := os.ReadFile("testdata/rpc/" + n + ".bindings.yml")
		f.Add(m, c)
	}
	f.Add([]byte(`{"name":"x","abi":{"methods":[{"name":"m","offset":0,"parameters":[{"name":"","type":"Map"}],"returntype":"Array","safe":true}],"events":[{"name":"","parameters":[{"name":"é","type":"Any"}]}]},"features":{},"groups":[],"permissions":[],"supportedstandards":["NEP-11","NEP-24"],"trusts":[],"extra":null}`),
		[]byte("types:\n  m:\n    base: Map\n    key: Array\n  m.:\n    base: Array\n    name: ''\n"))
	f.Fuzz(func(t *testing.T, rawManifest, rawConfig []byte) {
		m, err := manifest.FromJSON(rawManifest)
		if err != nil || m.IsValid(hash.Uint160{}, true) != nil {
			return
		}
		cfg, err := binding.ParseConfig(rawConfig)
		if err != nil {
			return
		}
		cfg.Manifest = m
		_ = binding.GenerateRPC(cfg, io.Discard)
	})
}

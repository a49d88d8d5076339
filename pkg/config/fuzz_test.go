package config

import (
	"errors"
	"testing"
)

// FuzzLoadBytes checks that loading never panics and that every error is
// an *Error naming the source.
func FuzzLoadBytes(f *testing.F) {
	// Small seeds keep the fuzzer's input minimization fast; the embedded
	// configs are covered by the other tests.
	b, err := EmbeddedConfig("unit_testnet.single")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("ApplicationConfiguration:\n  P2P:\n    Addresses: [\":1\"]\n    PingInterval: 5s\n  DBConfiguration:\n    Type: pebble\n"))
	f.Add([]byte("ProtocolConfiguration:\n  StandbyCommittee: [" + key1 + "]\n  ValidatorsCount: 1\n  Hardforks:\n    Basilisk: 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := LoadBytes("fuzz", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Source != "fuzz" {
				t.Fatalf("error %q (%T) is not a located *Error", err, err)
			}
			return
		}
		if _, err := cfg.Blockchain(); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("Blockchain error %v is not ErrInvalid", err)
		}
	})
}

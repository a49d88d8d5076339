package address_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
)

type vectors struct {
	Addresses []struct {
		Address    string `json:"address"`
		ScriptHash string `json:"script_hash"`
	} `json:"address_vectors"`
	Invalid []struct {
		Input string `json:"input"`
	} `json:"invalid_addresses"`
}

func load(t testing.TB) vectors {
	b, err := os.ReadFile("../../../testdata/vectors/contracts_addresses.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Addresses) == 0 || len(v.Invalid) == 0 {
		t.Fatal("no address vectors")
	}
	return v
}

func TestVectors(t *testing.T) {
	v := load(t)
	for _, a := range v.Addresses {
		u, err := hash.Uint160DecodeStringLE(a.ScriptHash)
		if err != nil {
			t.Fatal(err)
		}
		if got := address.FromUint160(u); got != a.Address {
			t.Errorf("%s: %s, want %s", a.ScriptHash, got, a.Address)
		}
		if back, err := address.ToUint160(a.Address); err != nil || back != u {
			t.Errorf("%s: %s %v", a.Address, back, err)
		}
	}
	for _, a := range v.Invalid {
		if _, err := address.ToUint160(a.Input); err == nil {
			t.Errorf("%q accepted", a.Input)
		}
	}
	// Another version byte round-trips only with that version.
	s := address.EncodeVersion(0x17, hash.Uint160{1})
	if _, err := address.ToUint160(s); err == nil {
		t.Error("wrong version accepted")
	}
	if u, err := address.DecodeVersion(0x17, s); err != nil || u != (hash.Uint160{1}) {
		t.Error("DecodeVersion")
	}
}

func FuzzToUint160(f *testing.F) {
	v := load(f)
	for _, a := range v.Addresses {
		f.Add(a.Address)
	}
	for _, a := range v.Invalid {
		f.Add(a.Input)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := address.ToUint160(s)
		if err != nil {
			return
		}
		if address.FromUint160(u) != s {
			t.Fatalf("%q decodes but does not re-encode to itself", s)
		}
	})
}

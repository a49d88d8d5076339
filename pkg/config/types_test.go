package config

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestFixed8(t *testing.T) {
	ok := map[string]Fixed8{
		"0": 0, "15": 15_00000000, "52000000": 52000000_00000000, "0.5": 50000000, "1.00000001": 100000001,
		"-2.25": -225000000, "007": 7_00000000, "92233720368": 92233720368_00000000,
	}
	for s, want := range ok {
		got, err := ParseFixed8(s)
		if err != nil || got != want {
			t.Errorf("ParseFixed8(%q) = %d, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "abc", "1.", ".5", "1.123456789", "1e3", "0x10", "92233720369", "1_000", "+1", "--1", "1.-5"} {
		if _, err := ParseFixed8(s); err == nil {
			t.Errorf("ParseFixed8(%q) accepted", s)
		}
	}
	for f, s := range map[Fixed8]string{0: "0", 15_00000000: "15", 50000000: "0.5", 100000001: "1.00000001", -225000000: "-2.25"} {
		if f.String() != s {
			t.Errorf("%d prints %q", f, f.String())
		}
	}
	var v struct {
		A Fixed8 `yaml:"A"`
		B Fixed8 `yaml:"B"`
	}
	if err := yaml.Unmarshal([]byte("A: 15\nB: \"0.25\"\n"), &v); err != nil || v.A != 15_00000000 || v.B != 25000000 {
		t.Errorf("yaml: %+v %v", v, err)
	}
	if err := yaml.Unmarshal([]byte("A: [1]\n"), &v); err == nil {
		t.Error("sequence accepted")
	}
	out, _ := yaml.Marshal(struct {
		A Fixed8 `yaml:"A"`
	}{25000000})
	if string(out) != "A: \"0.25\"\n" {
		t.Errorf("marshal %q", out)
	}
}

func TestPublicKey(t *testing.T) {
	k, err := ParsePublicKey(key1)
	if err != nil || k.String() != key1 || len(k.Bytes()) != 33 {
		t.Fatalf("%v %v", k, err)
	}
	// The uncompressed form of the P-256 generator compresses to 03/02 + X.
	const gx = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
	const gy = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"
	g, err := ParsePublicKey("04" + gx + gy)
	if err != nil || g.String() != "03"+gx {
		t.Errorf("uncompressed: %v %v", g, err)
	}
	for _, bad := range []string{"", "zz", "02", key1[:64], "05" + key1[2:], "04" + gx + gx, "02" + strings.Repeat("ff", 32), "00"} {
		if _, err := ParsePublicKey(bad); !errors.Is(err, ErrInvalidPublicKey) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestHashIndexYAML(t *testing.T) {
	hash := strings.Repeat("0a", 31) + "ff"
	var v struct {
		H HashIndex `yaml:"H"`
	}
	if err := yaml.Unmarshal([]byte("H:\n  42: 0x"+hash+"\n"), &v); err != nil || v.H.Index != 42 || v.H.Hash.StringLE() != hash {
		t.Fatalf("%+v %v", v, err)
	}
	out, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		H HashIndex `yaml:"H"`
	}
	if err := yaml.Unmarshal(out, &w); err != nil || w != v {
		t.Errorf("round trip %s: %+v %v", out, w, err)
	}
	if err := yaml.Unmarshal([]byte("H:\n  1: "+hash+"\n  2: "+hash+"\n"), &v); err == nil {
		t.Error("two entries accepted")
	}
	if err := yaml.Unmarshal([]byte("H: {}\n"), &v); err != nil || v.H != (HashIndex{}) {
		t.Errorf("empty: %+v %v", v, err)
	}
}

func TestNodeRole(t *testing.T) {
	for r, s := range map[NodeRole]string{RoleStateValidator: "StateValidator", RoleOracle: "Oracle", RoleNeoFSAlphabet: "NeoFSAlphabet", RoleP2PNotary: "P2PNotary"} {
		if r.String() != s {
			t.Errorf("%d: %s", r, r.String())
		}
		if p, ok := ParseNodeRole(s); !ok || p != r {
			t.Errorf("ParseNodeRole(%s)", s)
		}
	}
	if RoleStateValidator != 4 || RoleOracle != 8 || RoleNeoFSAlphabet != 16 || RoleP2PNotary != 32 {
		t.Error("values")
	}
	if _, ok := ParseNodeRole("last"); ok || NodeRole(1).String() != "Role(1)" {
		t.Error("unknown role")
	}
}

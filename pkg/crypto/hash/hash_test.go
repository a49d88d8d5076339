package hash

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"testing"
)

func TestDigests(t *testing.T) {
	in := []byte("abc")
	if got := Sha256(in).StringBE(); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("Sha256: %s", got)
	}
	if got := Hash256(in).StringBE(); got != "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358" {
		t.Errorf("Hash256: %s", got)
	}
	if got := Hash160(in).StringBE(); got != "bb1be98c142444d7a56aa3981c3942a978e4dc33" {
		t.Errorf("Hash160: %s", got)
	}
	if got := Checksum(in); got != [4]byte{0x4f, 0x8b, 0x42, 0xc2} {
		t.Errorf("Checksum: %x", got)
	}
}

func mustLE(t *testing.T, s string) Uint256 {
	t.Helper()
	u, err := Uint256DecodeStringLE(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestMerkleRoot(t *testing.T) {
	// neo-go privnet block with two transactions (testdata vector neogo_privnet_block_2tx).
	a := mustLE(t, "0x5a30127b16a628de6aa6823418d76214b97a0fc6db865024d3d2c6e939ce3433")
	b := mustLE(t, "0x25426643feed564cd3e57f346d6c68692f5622b3063da11c5572d99ee1a5b49a")
	if got := MerkleRoot([]Uint256{a, b}).StringLE(); got != "95c4d3ef673a732bf399459c7949d0f6e774ecf8c50f282bedad1f0b1c0de590" {
		t.Errorf("two leaves: %s", got)
	}
	var c Uint256
	for i := range c {
		c[i] = byte(i)
	}
	in := []Uint256{a, b, c}
	if got := MerkleRoot(in).StringLE(); got != "4a2fa99c659a6f39fe6033a4940537bca2b05e59c7c1cd4b312e8ac1e9aef3bd" {
		t.Errorf("three leaves (odd level duplicates the last): %s", got)
	}
	if in[0] != a || in[2] != c {
		t.Error("MerkleRoot modified its input")
	}
	if MerkleRoot(nil) != (Uint256{}) || MerkleRoot([]Uint256{c}) != c {
		t.Error("zero/one leaf rule")
	}
}

func TestUintStrings(t *testing.T) {
	const le = "0x5a30127b16a628de6aa6823418d76214b97a0fc6db865024d3d2c6e939ce3433"
	u := mustLE(t, le)
	if u.String() != le || "0x"+u.StringLE() != le {
		t.Fatalf("String: %s", u.String())
	}
	be, err := Uint256DecodeStringBE(u.StringBE())
	if err != nil || be != u {
		t.Fatal("BE round trip", err)
	}
	if u.Reverse().StringBE() != u.StringLE() {
		t.Fatal("Reverse")
	}
	raw, _ := Uint256DecodeBytesBE(u.BytesBE())
	if raw != u {
		t.Fatal("BytesBE round trip")
	}
	// neo-go's naming: BE is the serialized order (what a contract sees),
	// LE the reversed display order.
	if string(u.BytesBE()) != string(u[:]) || hex.EncodeToString(u.BytesLE()) != u.StringLE() {
		t.Fatal("BytesBE/BytesLE order")
	}
	if back, _ := Uint256DecodeBytesLE(u.BytesLE()); back != u {
		t.Fatal("BytesLE round trip")
	}
	h, err := Uint160DecodeStringLE("0xd2a4cff31913016155e38e474a2c06d08be276cf")
	if err != nil || h.StringLE() != "d2a4cff31913016155e38e474a2c06d08be276cf" || h[0] != 0xcf {
		t.Fatalf("Uint160: %v %s", err, h.StringLE())
	}
	for _, bad := range []string{"", "0x12", "zz30127b16a628de6aa6823418d76214b97a0fc6db865024d3d2c6e939ce3433"} {
		if _, err := Uint256DecodeStringLE(bad); !errors.Is(err, ErrHashFormat) {
			t.Errorf("%q: want ErrHashFormat, got %v", bad, err)
		}
	}
	if _, err := Uint160DecodeBytesBE(make([]byte, 19)); !errors.Is(err, ErrHashFormat) {
		t.Error("short Uint160 bytes accepted")
	}
}

func TestUintJSON(t *testing.T) {
	h, _ := Uint160DecodeStringLE("d2a4cff31913016155e38e474a2c06d08be276cf")
	b, err := json.Marshal(h)
	if err != nil || string(b) != `"0xd2a4cff31913016155e38e474a2c06d08be276cf"` {
		t.Fatalf("%s %v", b, err)
	}
	var back Uint160
	if err := json.Unmarshal(b, &back); err != nil || back != h {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`"d2a4cff31913016155e38e474a2c06d08be276cf"`), &back); err != nil || back != h {
		t.Fatal("no-prefix form", err)
	}
	if err := json.Unmarshal([]byte(`12`), &back); err == nil {
		t.Fatal("non-string accepted")
	}
	u := Hash256([]byte("x"))
	b, _ = json.Marshal(u)
	var u2 Uint256
	if err := json.Unmarshal(b, &u2); err != nil || u2 != u {
		t.Fatal(err)
	}
}

func TestCompare(t *testing.T) {
	a := Uint160{1}
	b := Uint160{2}
	if !a.Less(b) || b.Less(a) || a.Compare(a) != 0 || !a.Equals(a) || a.IsZero() || !(Uint160{}).IsZero() {
		t.Fatal("Uint160 ordering")
	}
	c := Uint256{1}
	d := Uint256{2}
	if !c.Less(d) || d.Compare(c) != 1 {
		t.Fatal("Uint256 ordering")
	}
}

func FuzzUint256DecodeStringLE(f *testing.F) {
	f.Add("0x5a30127b16a628de6aa6823418d76214b97a0fc6db865024d3d2c6e939ce3433")
	f.Add("xx")
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Uint256DecodeStringLE(s)
		if err == nil {
			v, err2 := Uint256DecodeStringLE(u.StringLE())
			if err2 != nil || v != u {
				t.Fatal("round trip")
			}
		}
	})
}

func BenchmarkUint256DecodeStringLE(b *testing.B) {
	const s = "5a30127b16a628de6aa6823418d76214b97a0fc6db865024d3d2c6e939ce3433"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Uint256DecodeStringLE(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUint256StringLE(b *testing.B) {
	u := Hash256([]byte("x"))
	b.ReportAllocs()
	for b.Loop() {
		_ = u.StringLE()
	}
}

func BenchmarkMerkleRoot1000(b *testing.B) {
	hs := make([]Uint256, 1000)
	for i := range hs {
		hs[i] = Sha256([]byte{byte(i), byte(i >> 8)})
	}
	b.ReportAllocs()
	for b.Loop() {
		MerkleRoot(hs)
	}
}

package netmode

import "testing"

func TestMagics(t *testing.T) {
	cases := []struct {
		m     Magic
		value uint32
		name  string
	}{
		{MainNet, 860833102, "mainnet"},
		{TestNet, 894710606, "testnet"},
		{PrivNet, 56753, "privnet"},
		{UnitTestNet, 42, "unit_testnet"},
		{MainNetNeoFS, 91414437, "mainnet.neofs"},
		{TestNetNeoFS, 735783775, "testnet.neofs"},
	}
	for _, c := range cases {
		if uint32(c.m) != c.value || c.m.String() != c.name {
			t.Errorf("%d %q, want %d %q", uint32(c.m), c.m.String(), c.value, c.name)
		}
		if m, ok := FromName(c.name); !ok || m != c.m {
			t.Errorf("FromName(%q) = %d, %v", c.name, m, ok)
		}
	}
	if s := Magic(0xabc).String(); s != "net 0xabc" {
		t.Errorf("unknown magic prints %q", s)
	}
	if _, ok := FromName("nope"); ok {
		t.Error("unknown name found")
	}
	// "NEO3" and "N3T5" as little-endian bytes.
	le := func(m Magic) string { return string([]byte{byte(m), byte(m >> 8), byte(m >> 16), byte(m >> 24)}) }
	if le(MainNet) != "NEO3" || le(TestNet) != "N3T5" {
		t.Errorf("%q %q", le(MainNet), le(TestNet))
	}
}

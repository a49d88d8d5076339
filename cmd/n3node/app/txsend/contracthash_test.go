package txsend

import "testing"

func TestContractHashNames(t *testing.T) {
	for in, want := range map[string]string{
		"neo": "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", "NeoToken": "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5",
		"GAS": "d2a4cff31913016155e38e474a2c06d08be276cf", "policy": "cc5e4edd9f5f8dba8bb65734541df7a1c081c67b",
		"management": "fffdc93764dbaddd97c48f252a53ea4643faa3fd", "std": "acce6fd80d44e1796aa0c2c625e9e4e0ce39efc0",
		"0xd2a4cff31913016155e38e474a2c06d08be276cf": "d2a4cff31913016155e38e474a2c06d08be276cf",
		"Treasury": "156326f25b1b5d839a4d326aeaa75383c9563ac1",
	} {
		h, err := ContractHash(in)
		if err != nil || h.StringLE() != want {
			t.Errorf("%q: %s %v, want %s", in, h.StringLE(), err, want)
		}
	}
	if _, err := ContractHash("nosuch"); err == nil {
		t.Error("unknown native name accepted")
	}
}

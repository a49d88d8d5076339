package nativenames

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The vectors of /work/shared/testdata/vectors/contracts_addresses.json
// (C# NativeContract ids and hashes).
func TestVectors(t *testing.T) {
	want := []struct {
		id   int32
		name string
		hash string
	}{
		{-1, "ContractManagement", "fffdc93764dbaddd97c48f252a53ea4643faa3fd"},
		{-2, "StdLib", "acce6fd80d44e1796aa0c2c625e9e4e0ce39efc0"},
		{-3, "CryptoLib", "726cb6e0cd8628a1350a611384688911ab75f51b"},
		{-4, "LedgerContract", "da65b600f7124ce6c79950c1772a36403104f2be"},
		{-5, "NeoToken", "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"},
		{-6, "GasToken", "d2a4cff31913016155e38e474a2c06d08be276cf"},
		{-7, "PolicyContract", "cc5e4edd9f5f8dba8bb65734541df7a1c081c67b"},
		{-8, "RoleManagement", "49cf4e5378ffcd4dec034fd98a174c5491e395e2"},
		{-9, "OracleContract", "fe924b7cfe89ddd271abaf7210a80a7e11178758"},
		{-10, "Notary", "c1e14f19c3e60d0b9244d06dd7ba9b113135ec3b"},
		{-11, "Treasury", "156326f25b1b5d839a4d326aeaa75383c9563ac1"},
	}
	require.Len(t, All, len(want))
	for _, w := range want {
		require.Equal(t, w.id, ID(w.name))
		require.Equal(t, w.name, Name(w.id))
		require.Equal(t, w.hash, Hash(w.id).StringLE(), w.name)
	}
	require.Equal(t, "", Name(0))
	require.Equal(t, "", Name(-12))
	require.Equal(t, int32(0), ID("nope"))
	require.Equal(t, "ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5", NeoHash.StringLE())
}

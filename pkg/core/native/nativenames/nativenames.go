// Package nativenames is the registry of the Neo N3 native contracts:
// names, ids and hashes, in one place that every package may import (it
// depends on nothing but hash computation).
//
// Ids are -1..-11 in the order C# NativeContract declares the contracts;
// a native contract's hash is the contract hash for sender zero, NEF
// checksum 0 and the contract's name.
package nativenames

import (
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Names of the native contracts.
const (
	Management  = "ContractManagement"
	StdLib      = "StdLib"
	CryptoLib   = "CryptoLib"
	Ledger      = "LedgerContract"
	Neo         = "NeoToken"
	Gas         = "GasToken"
	Policy      = "PolicyContract"
	Designation = "RoleManagement"
	Oracle      = "OracleContract"
	Notary      = "Notary"
	Treasury    = "Treasury"
)

// Ids of the native contracts.
const (
	ManagementID  int32 = -1
	StdLibID      int32 = -2
	CryptoLibID   int32 = -3
	LedgerID      int32 = -4
	NeoID         int32 = -5
	GasID         int32 = -6
	PolicyID      int32 = -7
	DesignationID int32 = -8
	OracleID      int32 = -9
	NotaryID      int32 = -10
	TreasuryID    int32 = -11
)

// All lists the names in id order (-1 first).
var All = []string{Management, StdLib, CryptoLib, Ledger, Neo, Gas, Policy, Designation, Oracle, Notary, Treasury}

// Hashes of the native contracts.
var (
	ManagementHash  = nativeHash(Management)
	StdLibHash      = nativeHash(StdLib)
	CryptoLibHash   = nativeHash(CryptoLib)
	LedgerHash      = nativeHash(Ledger)
	NeoHash         = nativeHash(Neo)
	GasHash         = nativeHash(Gas)
	PolicyHash      = nativeHash(Policy)
	DesignationHash = nativeHash(Designation)
	OracleHash      = nativeHash(Oracle)
	NotaryHash      = nativeHash(Notary)
	TreasuryHash    = nativeHash(Treasury)
)

func nativeHash(name string) hash.Uint160 {
	return smartcontract.GetContractHash(hash.Uint160{}, 0, name)
}

// ID returns the id of the native contract with the given name (0 if none).
func ID(name string) int32 {
	for i, n := range All {
		if n == name {
			return int32(-1 - i)
		}
	}
	return 0
}

// Name returns the name of the native contract with the given id ("" if
// none).
func Name(id int32) string {
	if id >= 0 || int(-id) > len(All) {
		return ""
	}
	return All[-id-1]
}

var hashes = func() []hash.Uint160 {
	res := make([]hash.Uint160, len(All))
	for i, n := range All {
		res[i] = nativeHash(n)
	}
	return res
}()

// Hash returns the hash of the native contract with the given id (the zero
// hash for an unknown id).
func Hash(id int32) hash.Uint160 {
	if id >= 0 || int(-id) > len(All) {
		return hash.Uint160{}
	}
	return hashes[-id-1]
}

// IsNative reports whether h is the hash of a native contract.
func IsNative(h hash.Uint160) bool {
	for i := range hashes {
		if hashes[i] == h {
			return true
		}
	}
	return false
}

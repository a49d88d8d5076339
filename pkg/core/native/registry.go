package native

import "github.com/n3node/n3node/pkg/core/native/nativenames"

// constructors makes the native contracts, in id order (-1 first). A nil
// entry is a native contract n3node does not implement yet; ids, names and
// hashes live in nativenames. To add a native contract, write its file and
// put its constructor here (see docs/native.md).
var constructors = []func(cs *Contracts) Contract{
	-nativenames.ManagementID - 1:  newManagement,
	-nativenames.StdLibID - 1:      newStdLib,
	-nativenames.CryptoLibID - 1:   newCryptoLib,
	-nativenames.LedgerID - 1:      newLedger,
	-nativenames.NeoID - 1:         newNEO,
	-nativenames.GasID - 1:         newGAS,
	-nativenames.PolicyID - 1:      newPolicy,
	-nativenames.DesignationID - 1: newRoleManagement,
	-nativenames.OracleID - 1:      newOracle,
	-nativenames.NotaryID - 1:      newNotary,
	-nativenames.TreasuryID - 1:    newTreasury,
}

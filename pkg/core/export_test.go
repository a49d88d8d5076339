package core

import (
	"math/big"

	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// SeedGASForTest sets an account's GAS balance in the committed layer
// (tests build transactions from accounts the genesis did not fund).
func (bc *Blockchain) SeedGASForTest(acc hash.Uint160, amount int64) { SeedGAS(bc.dao, acc, amount) }

// SeedGAS sets an account's GAS balance in d.
func SeedGAS(d *dao.Simple, acc hash.Uint160, amount int64) {
	var b state.NEP17Balance
	b.Balance.Set(big.NewInt(amount))
	d.PutStorageItem(nativenames.GasID, append([]byte{gasAccountPrefix}, acc[:]...), b.Bytes(nil))
}

// PersistNowForTest writes the committed layer to the disk store.
func (bc *Blockchain) PersistNowForTest() { _ = bc.Persist() }

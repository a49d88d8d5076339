package core

import (
	"github.com/n3node/n3node/pkg/core/transferlog"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// ForEachTransfer calls f for the NEP-17 (nep11 false) or NEP-11 (with
// token ids) transfers of acc recorded in blocks with timestamps up to
// newest, newest first, until f returns false or an error (see
// transferlog.ForEach; neo-go's getnep17transfers semantics).
func (bc *Blockchain) ForEachTransfer(acc hash.Uint160, nep11 bool, newest uint64, f func(*transferlog.Transfer) (bool, error)) error {
	return transferlog.ForEach(bc.dao.Store, acc, nep11, newest, f)
}

// GetTokenLastUpdated returns, per token contract id, the index of the block
// that last recorded a transfer of the token for acc (the lastupdatedblock
// of getnep17balances/getnep11balances).
func (bc *Blockchain) GetTokenLastUpdated(acc hash.Uint160) (map[int32]uint32, error) {
	return transferlog.GetLastUpdated(bc.dao.Store, acc)
}

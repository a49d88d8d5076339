package core

import (
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Queries the oracle and notary services make of the
// committed state. They read the chain's current DAO under no lock, like
// every other query: the values are those of the latest committed block
// or of the one being committed.

// GetOracleRequests returns the pending oracle requests by id.
func (bc *Blockchain) GetOracleRequests() (map[uint64]*state.OracleRequest, error) {
	return bc.natives.Oracle().GetRequests(bc.dao)
}

// GetOracleRequest returns a pending oracle request (an error if it was
// answered or never made).
func (bc *Blockchain) GetOracleRequest(id uint64) (*state.OracleRequest, error) {
	return bc.natives.Oracle().GetRequest(bc.dao, id)
}

// NextOracleRequestID is the id the next oracle request will get.
func (bc *Blockchain) NextOracleRequestID() uint64 { return bc.natives.Oracle().NextRequestID(bc.dao) }

// OracleResponseScript is the script of every oracle response
// transaction (a call of Oracle's finish).
func (bc *Blockchain) OracleResponseScript() []byte { return bc.natives.Oracle().ResponseScript() }

// GetNotaryDeposit returns acc's deposit in the Notary contract (nil if
// none).
func (bc *Blockchain) GetNotaryDeposit(acc hash.Uint160) (*state.Deposit, error) {
	return bc.natives.Notary().GetDepositFor(bc.dao, acc)
}

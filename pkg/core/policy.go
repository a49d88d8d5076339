package core

import (
	"math/big"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Policy values and the GAS balances the fee checks read.

// gasAccountPrefix is the storage prefix of NEP-17 native account states
// (C# FungibleToken Prefix_Account).
const gasAccountPrefix = 20

// gasBalance reads an account's GAS balance from the GasToken storage
// (0 if none or unreadable).
func gasBalance(d *dao.Simple, acc hash.Uint160) *big.Int {
	v := d.GetStorageItem(nativenames.GasID, append([]byte{gasAccountPrefix}, acc[:]...))
	if v == nil {
		return new(big.Int)
	}
	b, err := state.NEP17BalanceFromBytes(v)
	if err != nil {
		return new(big.Int)
	}
	return &b.Balance
}

// feePerByte is Policy's fee per byte in d.
func (bc *Blockchain) feePerByte(d *dao.Simple) int64 { return bc.natives.Policy.FeePerByte(d) }

// FeePerByte returns the current Policy fee per transaction byte (datoshi).
func (bc *Blockchain) FeePerByte() int64 { return bc.feePerByte(bc.dao) }

// GetStoragePrice returns the current storage price (datoshi per byte).
func (bc *Blockchain) GetStoragePrice() int64 { return bc.natives.StoragePrice(bc.dao, nil) }

// GetBaseExecFee returns the current execution fee factor in picoGAS per
// price unit (neo-go GetBaseExecFee).
func (bc *Blockchain) GetBaseExecFee() int64 {
	return int64(bc.natives.ExecFeeFactor(bc.dao, nil))
}

// GetMaxVerificationGAS returns the verification GAS limit of a witness.
func (bc *Blockchain) GetMaxVerificationGAS() int64 {
	return bc.natives.Policy.MaxVerificationGas(bc.dao)
}

// IsBlocked reports whether Policy blocks the account.
func (bc *Blockchain) IsBlocked(h hash.Uint160) bool { return bc.natives.Policy.IsBlocked(bc.dao, h) }

// GetAttributeFee returns Policy's fee of an attribute type (datoshi).
func (bc *Blockchain) GetAttributeFee(t transaction.AttrType) int64 {
	return bc.natives.Policy.AttributeFee(bc.dao, t)
}

// maxVUBIncrement is neo-go's GetMaxValidUntilBlockIncrement at height in d:
// Policy's value once HF_Echidna is enabled at height, the configuration's
// before.
func (bc *Blockchain) maxVUBIncrement(d *dao.Simple, height uint32) uint32 {
	if bc.cfg.IsHardforkEnabled(config.HFEchidna, height) {
		return bc.natives.Policy.MaxValidUntilBlockIncrement(d)
	}
	return bc.cfg.MaxValidUntilBlockIncrement
}

// maxTraceableBlocks is neo-go's GetMaxTraceableBlocks at height in d.
func (bc *Blockchain) maxTraceableBlocks(d *dao.Simple, height uint32) uint32 {
	if bc.cfg.IsHardforkEnabled(config.HFEchidna, height) {
		if height == 0 {
			if bc.cfg.Genesis.MaxTraceableBlocks != 0 {
				return bc.cfg.Genesis.MaxTraceableBlocks
			}
			return bc.cfg.MaxTraceableBlocks
		}
		return bc.natives.Policy.MaxTraceableBlocks(d)
	}
	return bc.cfg.MaxTraceableBlocks
}

// GetMaxValidUntilBlockIncrement returns how far ahead of the current
// height a transaction's ValidUntilBlock may be.
func (bc *Blockchain) GetMaxValidUntilBlockIncrement() uint32 {
	return bc.maxVUBIncrement(bc.dao, bc.BlockHeight())
}

// GetMaxTraceableBlocks returns how many recent blocks contracts can see.
func (bc *Blockchain) GetMaxTraceableBlocks() uint32 {
	return bc.maxTraceableBlocks(bc.dao, bc.BlockHeight())
}

// GetMillisecondsPerBlock returns the block interval consensus works with.
func (bc *Blockchain) GetMillisecondsPerBlock() uint32 {
	if bc.cfg.IsHardforkEnabled(config.HFEchidna, bc.BlockHeight()) {
		return bc.natives.Policy.MillisecondsPerBlock(bc.dao)
	}
	return uint32(bc.cfg.TimePerBlock.Milliseconds())
}

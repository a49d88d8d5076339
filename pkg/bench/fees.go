package bench

import (
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Fee figures, in datoshi (1e-8 GAS).
const (
	// GASFactor is one GAS in datoshi.
	GASFactor = 100_000_000

	// DefaultSystemFee and DefaultNetworkFee are the fixed fees of every
	// workload transaction, as neo-bench sets them (0.15 and 0.015 GAS).
	DefaultSystemFee  = 15_000_000
	DefaultNetworkFee = 1_500_000
	// DefaultValidUntilBlock is neo-bench's fixed ValidUntilBlock: the
	// workload is valid on a fresh chain below this height.
	DefaultValidUntilBlock = 1200

	// DefaultFeePerByte and DefaultExecFeeFactor are the Policy contract's
	// initial values (C# PolicyContract.DefaultFeePerByte and
	// DefaultExecFeeFactor); preparation reads the live ones.
	DefaultFeePerByte    = 1000
	DefaultExecFeeFactor = 30

	// prepSystemFee is the system fee of a funding transfer (neo-bench's
	// 0.11 GAS; a NEO transfer with GAS distribution costs far less).
	prepSystemFee = 11_000_000
)

// RequiredNetworkFee is the smallest network fee a node accepts for a
// transaction whose witnesses are all standard: size × feePerByte plus
// execFeeFactor × the verification cost of each witness (C#
// Wallet.CalculateNetworkFee for signature and multi-signature accounts).
// It returns -1 if a witness is not a standard contract.
func RequiredNetworkFee(tx *transaction.Transaction, feePerByte, execFeeFactor int64) int64 {
	total := int64(tx.Size()) * feePerByte
	for _, w := range tx.Witnesses {
		switch {
		case smartcontract.IsSignatureContract(w.VerificationScript):
			total += execFeeFactor * fee.SignatureContractCost()
		case smartcontract.IsMultiSigContract(w.VerificationScript):
			m, n, _ := smartcontract.ParseMultiSigContractMN(w.VerificationScript)
			total += execFeeFactor * fee.MultiSignatureContractCost(m, n)
		default:
			return -1
		}
	}
	return total
}

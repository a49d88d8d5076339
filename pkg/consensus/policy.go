package consensus

import (
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// blockLimits are the limits a proposal must respect.
type blockLimits struct {
	maxTransactions int   // MaxTransactionsPerBlock
	maxSize         int   // MaxBlockSize
	maxSystemFee    int64 // MaxBlockSystemFee
	witnessSize     int   // encoded size of the block witness the validators will sign
	headerSize      int   // unsigned header size (block.UnsignedSize of the network)
}

// witnessSize returns the encoded size of an m-of-n block witness over
// script: m signature pushes (PUSHDATA1 64 <sig>) and the script.
func witnessSize(m int, script []byte) int {
	return nio.VarBytesSize(m*smartcontract.SignatureInvocationSize) + nio.VarBytesSize(len(script))
}

// selectTransactions returns the longest prefix of txs (best first) that
// fits a block: at most maxTransactions, and the block, with the witness
// the validators will sign, no larger than maxSize and with a total
// system fee no larger than maxSystemFee (neo-go Blockchain
// ApplyPolicyToTxSet, C# ConsensusContext.EnsureMaxBlockLimitation).
func selectTransactions(txs []*transaction.Transaction, l blockLimits) []*transaction.Transaction {
	if l.maxTransactions > 0 && len(txs) > l.maxTransactions {
		txs = txs[:l.maxTransactions]
	}
	size := max(l.headerSize, block.UnsignedHeaderSize) + 1 + l.witnessSize + nio.VarUintSize(uint64(len(txs)))
	var fee int64
	for i, tx := range txs {
		size += tx.Size()
		fee += tx.SystemFee
		if size > l.maxSize || fee > l.maxSystemFee {
			return txs[:i]
		}
	}
	return txs
}

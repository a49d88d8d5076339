package ledgerops

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/native/ledger"
	"github.com/nspcc-dev/neo-go/pkg/interop/runtime"
)

func Block(i int) int {
	b := ledger.GetBlock(i)
	if b == nil {
		return -1
	}
	return b.Index + b.Timestamp + len(b.Hash) + b.TransactionsLength
}

func Tx(h interop.Hash256) int {
	tx := ledger.GetTransaction(h)
	return tx.SysFee + tx.NetFee + len(tx.Sender) + ledger.GetTransactionHeight(h)
}

func Container() int {
	tx := runtime.GetScriptContainer()
	return tx.ValidUntilBlock + len(ledger.GetTransactionSigners(tx.Hash))
}

func Hash() interop.Hash256 {
	return ledger.CurrentHash()
}

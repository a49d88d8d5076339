package core_test

import (
	"fmt"
	"math/big"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// storeContract has put/get/del over its storage and xfer, which emits a
// NEP-17-shaped Transfer notification.
func storeContract() *chaintest.ContractBuilder {
	p := func(n string, t smartcontract.ParamType) manifest.Parameter { return manifest.NewParameter(n, t) }
	b := chaintest.NewContractBuilder("store")
	b.Method("put", []manifest.Parameter{p("k", smartcontract.ByteArrayType), p("v", smartcontract.ByteArrayType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG1, opcode.LDARG0)
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStoragePut)
	})
	b.SafeMethod("get", []manifest.Parameter{p("k", smartcontract.ByteArrayType)}, smartcontract.AnyType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG0)
		emit.Syscall(w, interop.SystemStorageGetReadOnlyContext)
		emit.Syscall(w, interop.SystemStorageGet)
	})
	b.Method("del", []manifest.Parameter{p("k", smartcontract.ByteArrayType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG0)
		emit.Syscall(w, interop.SystemStorageGetContext)
		emit.Syscall(w, interop.SystemStorageDelete)
	})
	b.Method("xfer", []manifest.Parameter{p("from", smartcontract.Hash160Type), p("to", smartcontract.Hash160Type), p("amount", smartcontract.IntegerType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG2, opcode.LDARG1, opcode.LDARG0, opcode.PUSH3, opcode.PACK)
		emit.String(w, "Transfer")
		emit.Syscall(w, interop.SystemRuntimeNotify)
	})
	b.Event("Transfer", p("from", smartcontract.Hash160Type), p("to", smartcontract.Hash160Type), p("amount", smartcontract.IntegerType))
	return b
}

// genBlocks builds n signed blocks after prev (chain c's configuration and
// key) that deploy storeContract in the first block and then, in every
// block, write and delete its storage, read what the previous block wrote,
// read the Ledger (the previous block and transaction), emit transfers, and
// every 10 blocks change Policy's fee per byte. Every transaction is sent
// by the committee account. It returns the blocks and the contract hash.
func genBlocks(c *testchain.Chain, prev *block.Header, n int) ([]*block.Block, hash.Uint160) {
	f, m := storeContract().Build()
	committee := c.Account()
	contract := smartcontract.GetContractHash(committee, f.Checksum, "store")
	mk := func(index uint32, script []byte, sysFee ...int64) *transaction.Transaction {
		fee := int64(1_0000_0000)
		if len(sysFee) > 0 {
			fee = sysFee[0]
		}
		tx := transaction.New(script, c.NextNonce(), fee, 1000_0000, index+100)
		tx.Signers = []transaction.Signer{{Account: committee, Scopes: transaction.CalledByEntry}}
		return c.SignCommittee(tx)
	}
	var (
		blocks []*block.Block
		lastTx hash.Uint256
	)
	a1, a2 := hash.Uint160{1}, hash.Uint160{2}
	for i := range n {
		index := prev.Index + 1
		var txs []*transaction.Transaction
		if i == 0 {
			txs = append(txs, mk(index, chaintest.DeployScript(f, m), 50_0000_0000))
		} else {
			k := []byte(fmt.Sprintf("k%d", index%7))
			txs = append(txs,
				mk(index, chaintest.CallScript(contract, "put", k, []byte(fmt.Sprintf("v%d", index)))),
				mk(index, chaintest.CallScript(contract, "get", []byte(fmt.Sprintf("k%d", (index-1)%7)))),
				mk(index, chaintest.Script(func(w *nio.BinWriter) {
					emit.AppCall(w, nativenames.LedgerHash, "currentIndex", callflag.ReadStates)
					emit.AppCall(w, nativenames.LedgerHash, "currentHash", callflag.ReadStates)
					emit.AppCall(w, nativenames.LedgerHash, "getTransactionHeight", callflag.ReadStates, lastTx.BytesBE())
					emit.Opcodes(w, opcode.PUSH3, opcode.PACK)
				})),
				mk(index, chaintest.CallScript(contract, "xfer", a1, a2, big.NewInt(int64(index)))),
			)
			if index%5 == 0 {
				txs = append(txs, mk(index, chaintest.CallScript(contract, "del", []byte(fmt.Sprintf("k%d", (index+3)%7)))))
			}
			if index%10 == 0 {
				txs = append(txs, mk(index, chaintest.CallScript(nativenames.PolicyHash, "setFeePerByte", int64(1000+index))))
			}
		}
		lastTx = txs[0].Hash()
		b := c.BlockAfter(prev, txs...)
		blocks = append(blocks, b)
		prev = &b.Header
	}
	return blocks, contract
}

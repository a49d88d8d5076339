package native_test

import (
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

func ledgerCall(method string, args ...any) []byte {
	return chaintest.CallScript(nativenames.LedgerHash, method, args...)
}

func TestLedger(t *testing.T) {
	c := chaintest.New(t)
	okTx := c.NewTx([]byte{byte(opcode.PUSH1)})
	failTx := c.NewTx([]byte{byte(opcode.ABORT)})
	aers := c.AddBlock(okTx, failTx) // block 1
	require.Equal(t, vmstate.Halt, aers[0].VMState)
	require.Equal(t, vmstate.Fault, aers[1].VMState)
	blk := c.Blocks[1]

	// currentIndex/currentHash in block 2 see block 1.
	aer := c.RunOK(append(ledgerCall("currentIndex"), ledgerCall("currentHash")...))
	require.Equal(t, stackitem.NewInt(1), aer.Stack[0])
	h := blk.Hash()
	require.Equal(t, h[:], getStackBytes(t, aer.Stack[1]))

	// getBlock by index and by hash: the trimmed block form.
	want := state.BlockToStackItem(&blk.Header, 2)
	for _, arg := range []any{1, blk.Hash()} {
		aer = c.RunOK(ledgerCall("getBlock", arg))
		require.True(t, want.Equals(aer.Stack[0]) || equalItems(t, want, aer.Stack[0]), "%v", arg)
	}
	aer = c.RunOK(ledgerCall("getBlock", 1000))
	require.Equal(t, stackitem.Null{}, aer.Stack[0])
	aer = c.RunOK(ledgerCall("getBlock", hash.Uint256{31: 0x7f}))
	require.Equal(t, stackitem.Null{}, aer.Stack[0])
	// neo-go reads any item that converts to an integer fitting uint64 as
	// an index, even 32 bytes: this "hash" is block 1.
	aer = c.RunOK(ledgerCall("getBlock", hash.Uint256{1}))
	require.True(t, equalItems(t, want, aer.Stack[0]))
	require.Equal(t, vmstate.Fault, c.Run(ledgerCall("getBlock", []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})).VMState)

	// Transactions.
	aer = c.RunOK(ledgerCall("getTransaction", okTx.Hash()))
	require.True(t, equalItems(t, state.TransactionToStackItem(okTx), aer.Stack[0]))
	aer = c.RunOK(ledgerCall("getTransactionHeight", okTx.Hash()))
	require.Equal(t, stackitem.NewInt(1), aer.Stack[0])
	aer = c.RunOK(ledgerCall("getTransactionHeight", hash.Uint256{5}))
	require.Equal(t, stackitem.NewInt(-1), aer.Stack[0])
	aer = c.RunOK(ledgerCall("getTransactionFromBlock", 1, 1))
	require.True(t, equalItems(t, state.TransactionToStackItem(failTx), aer.Stack[0]))
	require.Equal(t, vmstate.Fault, c.Run(ledgerCall("getTransactionFromBlock", 1, 2)).VMState)
	aer = c.RunOK(ledgerCall("getTransactionSigners", okTx.Hash()))
	require.True(t, equalItems(t, state.SignersToStackItem(okTx.Signers), aer.Stack[0]))
	aer = c.RunOK(append(ledgerCall("getTransactionVMState", okTx.Hash()), ledgerCall("getTransactionVMState", failTx.Hash())...))
	require.Equal(t, stackitem.NewInt(int64(vmstate.Halt)), aer.Stack[0])
	require.Equal(t, stackitem.NewInt(int64(vmstate.Fault)), aer.Stack[1])

	// The transaction being executed is not visible (its block is not
	// persisted yet).
	self := c.NewTx(nil)
	self.Script = ledgerCall("getTransactionHeight", hash.Uint256{})
	aer = c.RunOK(ledgerCall("getTransactionHeight", c.NewTx([]byte{1}).Hash()))
	require.Equal(t, stackitem.NewInt(-1), aer.Stack[0])

	// MaxTraceableBlocks (Policy from Echidna): old blocks disappear.
	for range 3 {
		c.AddBlock()
	}
	c.RunOK(chaintest.CallScript(nativenames.PolicyHash, "setMaxValidUntilBlockIncrement", 1))
	c.RunOK(chaintest.CallScript(nativenames.PolicyHash, "setMaxTraceableBlocks", 2))
	aer = c.RunOK(append(ledgerCall("getBlock", 1), ledgerCall("getTransactionHeight", okTx.Hash())...))
	require.Equal(t, stackitem.Null{}, aer.Stack[0])
	require.Equal(t, stackitem.NewInt(-1), aer.Stack[1])
	aer = c.RunOK(ledgerCall("getTransactionVMState", okTx.Hash()))
	require.Equal(t, stackitem.NewInt(int64(vmstate.None)), aer.Stack[0])
	_ = transaction.None
}

func equalItems(t *testing.T, a, b stackitem.Item) bool {
	sa, err := stackitem.Serialize(a)
	require.NoError(t, err)
	sb, err := stackitem.Serialize(b)
	require.NoError(t, err)
	return string(sa) == string(sb)
}

package native_test

import (
	"math/big"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

// holderReward is the GAS for holding n NEO for blocks blocks at 5 GAS per
// block (10% of the generated GAS in proportion to the total supply).
func holderReward(n, blocks int64) int64 {
	return n * blocks * native.DefaultGASPerBlock * 10 / 100 / native.NEOTotalSupply
}

func TestNEO_Transfer(t *testing.T) {
	c := newTokenChain(t)
	a, b := testKey(t, "a").ScriptHash(), testKey(t, "b").ScriptHash()
	c.fund(0, 1000*native.GASFactor, a, b)
	as := []transaction.Signer{signer(a)}

	aer := c.call([]transaction.Signer{c.bftSigner()}, neoHash, "transfer", c.bft, a, 1000, nil)
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	// Transfer, then the sender's GAS claim (the receiver had no NEO).
	require.Len(t, aer.Events, 2)
	requireEvent(t, aer, 0, neoHash, "Transfer", hashItem(c.bft), hashItem(a), intItem(1000))
	_, name, _ := event(t, aer, 1)
	require.Equal(t, "Transfer", name)
	received := c.BlockHeight()
	requireItem(t, stackitem.NewStruct([]stackitem.Item{intItem(1000), intItem(int64(received)), stackitem.Null{}, intItem(0)}),
		c.read(neoHash, "getAccountState", a))

	t.Run("insufficient", func(t *testing.T) {
		aer := c.call(as, neoHash, "transfer", a, b, 1001, nil)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
		require.Empty(t, aer.Events)
		_, h, err := c.Natives.NEO.BalanceOf(c.DAO, a)
		require.NoError(t, err)
		require.Equal(t, received, h) // no claim
	})
	t.Run("negative", func(t *testing.T) {
		c.fault("negative amount", as, neoHash, "transfer", a, b, -1, nil)
	})
	t.Run("no witness", func(t *testing.T) {
		aer := c.call([]transaction.Signer{signer(b)}, neoHash, "transfer", a, b, 1, nil)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
	})
	t.Run("roundtrip claims", func(t *testing.T) {
		gasBefore := c.gasBalance(a)
		_, h0, _ := c.Natives.NEO.BalanceOf(c.DAO, a)
		aer := c.call(as, neoHash, "transfer", a, a, 1000, nil)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		require.Len(t, aer.Events, 2)
		reward := holderReward(1000, int64(c.BlockHeight()-h0))
		requireEvent(t, aer, 0, neoHash, "Transfer", hashItem(a), hashItem(a), intItem(1000))
		requireEvent(t, aer, 1, gasHash, "Transfer", stackitem.Null{}, hashItem(a), intItem(reward))
		require.Equal(t, new(big.Int).Add(gasBefore, big.NewInt(reward-100_0000_0000)), c.gasBalance(a))
		bal, h, _ := c.Natives.NEO.BalanceOf(c.DAO, a)
		require.Equal(t, big.NewInt(1000), bal)
		require.Equal(t, c.BlockHeight(), h)
		// More than the balance to self: false.
		aer = c.call(as, neoHash, "transfer", a, a, 1001, nil)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
		require.Empty(t, aer.Events)
	})
	t.Run("zero with zero balance", func(t *testing.T) {
		for _, to := range []hash.Uint160{b, testKey(t, "z").ScriptHash()} {
			aer := c.call([]transaction.Signer{signer(b)}, neoHash, "transfer", b, to, 0, nil)
			require.Equal(t, stackitem.Bool(true), aer.Stack[0])
			require.Len(t, aer.Events, 1) // no claim
			require.Nil(t, c.DAO.GetStorageItem(nativenames.NeoID, append([]byte{20}, b[:]...)))
		}
	})
	t.Run("zero with balance claims", func(t *testing.T) {
		for _, to := range []hash.Uint160{a, testKey(t, "z").ScriptHash()} {
			_, h0, _ := c.Natives.NEO.BalanceOf(c.DAO, a)
			aer := c.call(as, neoHash, "transfer", a, to, 0, nil)
			require.Equal(t, stackitem.Bool(true), aer.Stack[0])
			require.Len(t, aer.Events, 2)
			requireEvent(t, aer, 1, gasHash, "Transfer", stackitem.Null{}, hashItem(a), intItem(holderReward(1000, int64(c.BlockHeight()-h0))))
			_, h, _ := c.Natives.NEO.BalanceOf(c.DAO, a)
			require.Equal(t, c.BlockHeight(), h)
		}
	})
	t.Run("nonzero with zero balance", func(t *testing.T) {
		aer := c.call([]transaction.Signer{signer(b)}, neoHash, "transfer", b, b, 5, nil)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
		require.Empty(t, aer.Events)
	})
	t.Run("one claim per block", func(t *testing.T) {
		tx1 := c.NewTx(appCall(t, neoHash, "transfer", a, b, 1, nil), as...)
		tx2 := c.NewTx(appCall(t, neoHash, "transfer", a, b, 1, nil), as...)
		aers := c.AddBlock(tx1, tx2)
		require.Len(t, aers[0].Events, 2) // transfer + a's claim (b had nothing)
		require.Len(t, aers[1].Events, 1) // both already claimed in this block
	})
	t.Run("whole balance deletes the account", func(t *testing.T) {
		bal := c.neoBalance(b)
		aer := c.call([]transaction.Signer{signer(b)}, neoHash, "transfer", b, a, bal, nil)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		require.Nil(t, c.DAO.GetStorageItem(nativenames.NeoID, append([]byte{20}, b[:]...)))
	})
}

// TestNEO_TransferToContract follows neo-go's TestNEO_TransferOnPayment: the
// contract gets onNEP17Payment for the NEO, then the GAS claims follow, and
// the contract's own claim calls onNEP17Payment (from null) again.
func TestNEO_TransferToContract(t *testing.T) {
	c := newTokenChain(t)
	rc := c.deployRefChain(c.bft)
	s := []transaction.Signer{c.bftSigner()}
	aer := c.call(s, neoHash, "transfer", c.bft, rc, 2, nil)
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	require.Len(t, aer.Events, 3) // transfer, Payment, GAS claim of the sender
	requireEvent(t, aer, 0, neoHash, "Transfer", hashItem(c.bft), hashItem(rc), intItem(2))
	requireEvent(t, aer, 1, rc, "Payment", hashItem(c.bft), intItem(2))
	_, name, items := event(t, aer, 2)
	require.Equal(t, "Transfer", name)
	requireItem(t, hashItem(c.bft), items[1])

	aer = c.call(s, neoHash, "transfer", c.bft, rc, 2, nil)
	require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
	require.Len(t, aer.Events, 5)
	requireEvent(t, aer, 1, rc, "Payment", hashItem(c.bft), intItem(2))
	requireEvent(t, aer, 3, gasHash, "Transfer", stackitem.Null{}, hashItem(rc), intItem(holderReward(2, 1)))
	requireEvent(t, aer, 4, rc, "Payment", stackitem.Null{}, intItem(holderReward(2, 1)))
}

func TestNEO_UnclaimedGas(t *testing.T) {
	c := newTokenChain(t)
	acc := testKey(t, "acc").ScriptHash()
	// An account without NEO has nothing, whatever end is (neo-go).
	require.Equal(t, big.NewInt(0), c.readInt(neoHash, "unclaimedGas", hash.Uint160{}, 1))
	c.fund(100, 1000*native.GASFactor, acc)
	for range 9 {
		c.AddBlock()
	}
	next := c.BlockHeight() + 1
	// 100 NEO for 10 blocks (neo-go TestNEO_UnclaimedGas).
	require.Equal(t, big.NewInt(int64(100*10/100*5*10)), c.readInt(neoHash, "unclaimedGas", acc, next))
	aer, _ := c.TestInvoke(appCall(t, neoHash, "unclaimedGas", acc, next-1), 100_0000_0000, signer(acc))
	require.Equal(t, vmstate.Fault, aer.VMState)
	require.Contains(t, aer.FaultException, "can't calculate bonus of height unequal (BlockHeight + 1)")
}

// TestNEO_CalculateBonus follows neo-go's TestNEO_CalculateBonus: 5 blocks
// at 5 GAS and 5 at 1 GAS per block.
func TestNEO_CalculateBonus(t *testing.T) {
	c := newTokenChain(t)
	acc := testKey(t, "acc").ScriptHash()
	as := []transaction.Signer{signer(acc)}
	c.fund(0, 1000*native.GASFactor, acc)
	for range 10 {
		c.AddBlock()
	}
	// No NEO, no GAS.
	before := c.gasBalance(acc)
	c.RunOK(appCall(t, neoHash, "transfer", acc, acc, 0, nil), as...)
	require.Equal(t, new(big.Int).Sub(before, big.NewInt(100_0000_0000)), c.gasBalance(acc))

	before = c.gasBalance(acc)
	c.RunOK(appCall(t, neoHash, "transfer", c.bft, acc, 100, nil), c.bftSigner())
	for range 3 {
		c.AddBlock()
	}
	c.RunOK(appCall(t, neoHash, "setGasPerBlock", 1*native.GASFactor), c.CommitteeSigner())
	for range 5 {
		c.AddBlock()
	}
	c.RunOK(appCall(t, neoHash, "transfer", acc, acc, 100, nil), as...)
	firstPart := int64(100 * 10 / 100 * 5 * 10 / 2)
	secondPart := int64(100 * 10 / 100 * 1 * 10 / 2)
	require.Equal(t, new(big.Int).Add(before, big.NewInt(firstPart+secondPart-100_0000_0000)), c.gasBalance(acc))
}

// TestNEO_RecursiveGASMint follows neo-go's TestNEO_RecursiveGASMint
// (neo-go #2181): a contract forwards the NEO it receives from its
// onNEP17Payment; the nested transfer claims nothing more for the contract
// (its balance height is the block's already), and the GAS claims of the
// outer transfer come after the nested one, the contract's own calling its
// onNEP17Payment from GAS.
func TestNEO_RecursiveGASMint(t *testing.T) {
	c := newTokenChain(t)
	owner := testKey(t, "owner").ScriptHash()
	b := chaintest.NewContractBuilder("Forwarder")
	b.Method("onNEP17Payment", []manifest.Parameter{chaintest.Param("from", smartcontract.Hash160Type),
		chaintest.Param("amount", smartcontract.IntegerType), chaintest.Param("data", smartcontract.AnyType)},
		smartcontract.VoidType, func(w *nio.BinWriter) {
			// NEO.transfer(self, owner, NEO.balanceOf(self), null) if data
			// is "fwd".
			body := script(t, func(w *nio.BinWriter) {
				emit.Syscall(w, interop.SystemRuntimeGetExecutingScriptHash)
				emit.Opcodes(w, opcode.PUSH1, opcode.PACK)
				emit.Int(w, int64(callflag.All))
				emit.String(w, "balanceOf")
				emit.Bytes(w, neoHash[:])
				emit.Syscall(w, interop.SystemContractCall)
				emit.Opcodes(w, opcode.PUSHNULL, opcode.SWAP)
				emit.Bytes(w, owner[:])
				emit.Syscall(w, interop.SystemRuntimeGetExecutingScriptHash)
				emit.Opcodes(w, opcode.PUSH4, opcode.PACK)
				emit.Int(w, int64(callflag.All))
				emit.String(w, "transfer")
				emit.Bytes(w, neoHash[:])
				emit.Syscall(w, interop.SystemContractCall)
				emit.Opcodes(w, opcode.ASSERT)
			})
			emit.Opcodes(w, opcode.LDARG2)
			emit.Bytes(w, []byte("fwd"))
			emit.Opcodes(w, opcode.EQUAL)
			emit.Jmp(w, opcode.JMPIFNOTL, int32(5+len(body)))
			w.WriteBytes(body)
		})
	f, m := b.Build()
	fw := c.Deploy(f, m).Hash

	c.RunOK(appCall(t, neoHash, "transfer", c.bft, fw, 10, nil), c.bftSigner())
	held := c.BlockHeight()
	for range 5 {
		c.AddBlock()
	}
	_, bftHeight, _ := c.Natives.NEO.BalanceOf(c.DAO, c.bft)
	bftNEO := c.neoBalance(c.bft)
	aer := c.RunOK(appCall(t, neoHash, "transfer", c.bft, fw, 1, []byte("fwd")), c.bftSigner())
	blocks := int64(c.BlockHeight() - held)
	require.Len(t, aer.Events, 4)
	requireEvent(t, aer, 0, neoHash, "Transfer", hashItem(c.bft), hashItem(fw), intItem(1))
	requireEvent(t, aer, 1, neoHash, "Transfer", hashItem(fw), hashItem(owner), intItem(11))
	requireEvent(t, aer, 2, gasHash, "Transfer", stackitem.Null{}, hashItem(c.bft),
		bigItem(big.NewInt(holderReward(bftNEO.Int64(), int64(c.BlockHeight()-bftHeight)))))
	requireEvent(t, aer, 3, gasHash, "Transfer", stackitem.Null{}, hashItem(fw), intItem(holderReward(10, blocks)))
	require.Equal(t, big.NewInt(0), c.neoBalance(fw))
	require.Equal(t, big.NewInt(11), c.neoBalance(owner))
}

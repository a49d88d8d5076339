package native_test

import (
	"math/big"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

const initialGAS = 52_000_000 * native.GASFactor

func TestGAS_Genesis(t *testing.T) {
	c := newTokenChain(t)
	member := chaintest.CommitteeKey.PublicKey().ScriptHash()
	// 52M GAS to the validators, 0.5 GAS committee reward of the genesis.
	require.Equal(t, big.NewInt(initialGAS), c.gasBalance(c.bft))
	require.Equal(t, big.NewInt(5000_0000), c.gasBalance(member))
	require.Equal(t, big.NewInt(initialGAS+5000_0000), c.readInt(gasHash, "totalSupply"))
	require.Equal(t, stackitem.NewByteString([]byte("GAS")), c.read(gasHash, "symbol"))
	require.Equal(t, big.NewInt(8), c.readInt(gasHash, "decimals"))
	// Genesis OnPersist: NEO's then GAS's initial mint, each before its
	// Deploy notification; PostPersist: the committee reward.
	op := c.GenesisResults[0]
	var mints []string
	for _, e := range op.Events {
		if e.Name == "Transfer" {
			mints = append(mints, e.ScriptHash.StringLE())
			require.Equal(t, stackitem.Null{}, e.Item.Items()[0])
			require.Equal(t, hashItem(c.bft), e.Item.Items()[1])
		}
	}
	require.Equal(t, []string{neoHash.StringLE(), gasHash.StringLE()}, mints)
	pp := c.GenesisResults[1]
	require.Len(t, pp.Events, 1)
	requireEvent(t, pp, 0, gasHash, "Transfer", stackitem.Null{}, hashItem(member), intItem(5000_0000))
}

func TestGAS_Transfer(t *testing.T) {
	c := newTokenChain(t)
	a, b := testKey(t, "a").ScriptHash(), testKey(t, "b").ScriptHash()
	aer := c.RunOK(appCall(t, gasHash, "transfer", c.bft, a, 1000*native.GASFactor, nil), c.bftSigner())
	require.Equal(t, stackitem.Bool(true), aer.Stack[0])
	require.Len(t, aer.Events, 1)
	requireEvent(t, aer, 0, gasHash, "Transfer", hashItem(c.bft), hashItem(a), intItem(1000*native.GASFactor))
	require.Equal(t, big.NewInt(1000*native.GASFactor), c.gasBalance(a))
	require.Equal(t, big.NewInt(1000*native.GASFactor), c.readInt(gasHash, "balanceOf", a))
	require.Equal(t, big.NewInt(0), c.readInt(gasHash, "balanceOf", b))

	t.Run("no witness", func(t *testing.T) {
		aer := c.call(nil, gasHash, "transfer", a, b, 1, nil) // signed by the committee only
		require.Equal(t, vmstate.Halt, aer.VMState)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
		require.Empty(t, aer.Events)
	})
	t.Run("insufficient funds", func(t *testing.T) {
		bal := c.gasBalance(a)
		aer := c.call([]transaction.Signer{signer(a)}, gasHash, "transfer", a, b, new(big.Int).Add(bal, big.NewInt(1)), nil)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
		require.Empty(t, aer.Events)
		// The fee was paid, nothing else changed.
		require.Equal(t, new(big.Int).Sub(bal, big.NewInt(chaintest.DefaultSystemFee)), c.gasBalance(a))
	})
	t.Run("negative", func(t *testing.T) {
		c.fault("negative amount", []transaction.Signer{signer(a)}, gasHash, "transfer", a, b, -1, nil)
	})
	t.Run("bad account", func(t *testing.T) {
		c.fault("", []transaction.Signer{signer(a)}, gasHash, "transfer", a, make([]byte, 19), 1, nil)
	})
	t.Run("to self", func(t *testing.T) {
		bal := c.gasBalance(a)
		bal.Sub(bal, big.NewInt(chaintest.DefaultSystemFee)) // paid before the script runs
		aer := c.call([]transaction.Signer{signer(a)}, gasHash, "transfer", a, a, bal, nil)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		requireEvent(t, aer, 0, gasHash, "Transfer", hashItem(a), hashItem(a), bigItem(bal))
		// More than the balance (after the fee) fails.
		aer = c.call([]transaction.Signer{signer(a)}, gasHash, "transfer", a, a, bal, nil)
		require.Equal(t, stackitem.Bool(false), aer.Stack[0])
	})
	t.Run("zero without balance", func(t *testing.T) {
		empty := testKey(t, "empty").ScriptHash()
		aer := c.call([]transaction.Signer{c.bftSigner(), signer(empty)}, gasHash, "transfer", empty, b, 0, nil)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		requireEvent(t, aer, 0, gasHash, "Transfer", hashItem(empty), hashItem(b), intItem(0))
		require.Nil(t, c.DAO.GetStorageItem(nativenames.GasID, append([]byte{20}, empty[:]...)))
		require.Nil(t, c.DAO.GetStorageItem(nativenames.GasID, append([]byte{20}, b[:]...)))
	})
	t.Run("whole balance deletes the account", func(t *testing.T) {
		bal := c.gasBalance(a)
		bal.Sub(bal, big.NewInt(chaintest.DefaultSystemFee))
		aer := c.call([]transaction.Signer{signer(a)}, gasHash, "transfer", a, b, bal, nil)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		require.Nil(t, c.DAO.GetStorageItem(nativenames.GasID, append([]byte{20}, a[:]...)))
		require.Equal(t, bal, c.gasBalance(b))
	})
	t.Run("to a contract without onNEP17Payment", func(t *testing.T) {
		c.fault("onNEP17Payment", []transaction.Signer{c.bftSigner()}, gasHash, "transfer", c.bft, nativenames.PolicyHash, 1, nil)
	})
	t.Run("to a contract", func(t *testing.T) {
		rc := c.deployRefChain(c.bft)
		aer := c.call([]transaction.Signer{c.bftSigner()}, gasHash, "transfer", c.bft, rc, 5, []byte("data"))
		require.Equal(t, vmstate.Halt, aer.VMState, aer.FaultException)
		require.Equal(t, stackitem.Bool(true), aer.Stack[0])
		require.Len(t, aer.Events, 2)
		requireEvent(t, aer, 0, gasHash, "Transfer", hashItem(c.bft), hashItem(rc), intItem(5))
		requireEvent(t, aer, 1, rc, "Payment", hashItem(c.bft), intItem(5))
	})
}

func TestGAS_Fees(t *testing.T) {
	c := newTokenChain(t)
	primary := chaintest.CommitteeKey.PublicKey().ScriptHash()
	bftBefore, primaryBefore := c.gasBalance(c.bft), c.gasBalance(primary)
	supplyBefore := c.Natives.GAS.TotalSupply(c.DAO)
	tx1 := c.NewTx([]byte{0x11}, c.bftSigner()) // PUSH1
	tx1.SystemFee, tx1.NetworkFee = 3_0000_0000, 1234_5678
	tx2 := c.NewTx([]byte{0x11}, c.bftSigner())
	tx2.SystemFee, tx2.NetworkFee = 1, 2
	aers := c.AddBlockFull(tx1, tx2)
	op := aers[0]
	require.Len(t, op.Events, 3)
	requireEvent(t, op, 0, gasHash, "Transfer", hashItem(c.bft), stackitem.Null{}, intItem(3_0000_0000+1234_5678))
	requireEvent(t, op, 1, gasHash, "Transfer", hashItem(c.bft), stackitem.Null{}, intItem(3))
	requireEvent(t, op, 2, gasHash, "Transfer", stackitem.Null{}, hashItem(primary), intItem(1234_5678+2))
	burnt := int64(3_0000_0000 + 1234_5678 + 3)
	require.Equal(t, new(big.Int).Sub(bftBefore, big.NewInt(burnt)), c.gasBalance(c.bft))
	// The primary is also the committee member rewarded in PostPersist.
	require.Equal(t, new(big.Int).Add(primaryBefore, big.NewInt(1234_5678+2+5000_0000)), c.gasBalance(primary))
	require.Equal(t, new(big.Int).Add(supplyBefore, big.NewInt(-burnt+1234_5678+2+5000_0000)), c.Natives.GAS.TotalSupply(c.DAO))

	t.Run("no transactions, no events", func(t *testing.T) {
		aers := c.AddBlockFull()
		require.Empty(t, aers[0].Events)
	})
	t.Run("free transactions burn nothing", func(t *testing.T) {
		poor := testKey(t, "poor").ScriptHash()
		tx := c.NewTx([]byte{0x11}, signer(poor))
		tx.SystemFee, tx.NetworkFee = 0, 0
		d := c.DAO.GetPrivate()
		aers, err := c.Natives.ExecuteBlock(c, d, c.NextBlock(tx))
		require.NoError(t, err)
		require.Empty(t, aers[0].Events)
		for k := range d.Store.Changes([]byte{0x70}) {
			require.NotContains(t, k, string(poor[:]))
		}
	})
	t.Run("sender cannot pay", func(t *testing.T) {
		poor := testKey(t, "poor").ScriptHash()
		tx := c.NewTx([]byte{0x11}, signer(poor))
		_, err := c.Natives.ExecuteBlock(c, c.DAO.GetPrivate(), c.NextBlock(tx))
		require.ErrorContains(t, err, "insufficient funds")
	})
}

func TestGAS_NotaryAssistedFee(t *testing.T) {
	for _, echidna := range []bool{false, true} {
		opts := chaintest.Options{NoHardforks: true}
		if echidna {
			opts = chaintest.Options{Hardforks: hfUpTo(config.HFEchidna, 0)}
		}
		c := newTokenChain(t, opts)
		primary := chaintest.CommitteeKey.PublicKey().ScriptHash()
		tx := c.NewTx([]byte{0x11}, c.bftSigner())
		tx.SystemFee, tx.NetworkFee = 1, 1_0000_0000
		tx.Attributes = []transaction.Attribute{{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 2}}}
		aers := c.AddBlockFull(tx)
		// From HF_Echidna the attribute costs 0.1 GAS per key (plus one) and
		// that part of the network fee is left to the Notary contract.
		want := int64(1_0000_0000)
		if echidna {
			want -= 3 * 1000_0000
		}
		requireEvent(t, aers[0], 1, gasHash, "Transfer", stackitem.Null{}, hashItem(primary), intItem(want))
	}
}

func TestGAS_PrimaryOfManyValidators(t *testing.T) {
	c := newTokenChain(t, multiNodeOptions(t, nil))
	vals := c.Natives.NEO.NextBlockValidators(c.DAO)
	require.Len(t, vals, 4)
	for i := range vals {
		tx := c.NewTx([]byte{0x11}, c.bftSigner())
		tx.NetworkFee = int64(100 + i)
		blk := c.NextBlock(tx)
		blk.PrimaryIndex = uint8(i)
		d := c.DAO.GetPrivate()
		aers, err := c.Natives.ExecuteBlock(c, d, blk)
		require.NoError(t, err)
		requireEvent(t, aers[0], 1, gasHash, "Transfer", stackitem.Null{}, hashItem(vals[i].ScriptHash()), intItem(int64(100+i)))
	}
	blk := c.NextBlock(c.NewTx([]byte{0x11}, c.bftSigner()))
	blk.PrimaryIndex = 4
	_, err := c.Natives.ExecuteBlock(c, c.DAO.GetPrivate(), blk)
	require.Error(t, err)
}

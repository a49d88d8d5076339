package native_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

var notaryHash = nativenames.NotaryHash

// notaryFeePerKey is the NotaryAssisted attribute fee Policy sets at
// Echidna (0.1 GAS).
const notaryFeePerKey = 1000_0000

func TestNotaryMethods(t *testing.T) {
	c := chaintest.New(t)
	d := config.HFDefault
	checkMethodSpecs(t, c.Natives.ByID(nativenames.NotaryID), []methodSpec{
		{"onNEP17Payment", 3, 1 << 15, callflag.States, d, d},
		{"lockDepositUntil", 2, 1 << 15, callflag.States, d, d},
		{"withdraw", 2, 1 << 15, callflag.All, d, d},
		{"balanceOf", 1, 1 << 15, callflag.ReadStates, d, d},
		{"expirationOf", 1, 1 << 15, callflag.ReadStates, d, d},
		{"verify", 1, 1 << 15, callflag.ReadStates, d, d},
		{"getMaxNotValidBeforeDelta", 0, 1 << 15, callflag.ReadStates, d, d},
		{"setMaxNotValidBeforeDelta", 1, 1 << 15, callflag.States, d, d},
	})
	md := c.Natives.ByID(nativenames.NotaryID).Metadata()
	require.Equal(t, config.HFEchidna, md.ActiveIn)
	require.Equal(t, []string{"NEP-27"}, md.HFSpecific(config.HFEchidna).Manifest.SupportedStandards)
	require.Equal(t, []string{"NEP-27", "NEP-30"}, md.HFSpecific(config.HFFaun).Manifest.SupportedStandards)

	// Not deployed before Echidna.
	pre := hfChain(t, config.HFDomovoi)
	mustFault(t, pre, notaryHash, "getMaxNotValidBeforeDelta")
	require.EqualValues(t, native.DefaultMaxNotValidBeforeDelta,
		itemInt(t, mustInvoke(t, hfChain(t, config.HFEchidna), notaryHash, "getMaxNotValidBeforeDelta")).Int64())
}

// TestNotaryMaxNotValidBeforeDelta follows neo-go
// TestNotary_MaxNotValidBeforeDelta: bounds are ValidatorsCount and
// MaxValidUntilBlockIncrement / 2.
func TestNotaryMaxNotValidBeforeDelta(t *testing.T) {
	c := chaintest.New(t)
	get := func() int64 { return itemInt(t, mustInvoke(t, c, notaryHash, "getMaxNotValidBeforeDelta")).Int64() }
	require.EqualValues(t, 140, get())
	for _, bad := range []any{0, 86400/2 + 1, -1, int64(1) << 32} {
		mustFault(t, c, notaryHash, "setMaxNotValidBeforeDelta", bad)
	}
	stranger := []transaction.Signer{chaintest.AccountSigner(seedKey(t, "stranger"))}
	_, fault := invokeSigned(t, c, stranger, notaryHash, "setMaxNotValidBeforeDelta", 100)
	require.Contains(t, fault, "committee")
	for _, v := range []int64{1, 86400 / 2, 150} {
		c.RunOK(callScript(t, notaryHash, "setMaxNotValidBeforeDelta", v))
		require.Equal(t, v, get())
	}
	require.EqualValues(t, 150, c.Natives.Notary().MaxNotValidBeforeDelta(c.DAO))
	require.NoError(t, c.Natives.InitializeCache(c.DAO, c.BlockHeight()))
	require.EqualValues(t, 150, c.Natives.Notary().MaxNotValidBeforeDelta(c.DAO))
	// A FAULTed change does not stick.
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, notaryHash, "setMaxNotValidBeforeDelta", callflag.All, 160)
		emit.Opcodes(w, opcode.ABORT)
	})
	require.NoError(t, err)
	require.Equal(t, vmstate.Fault, c.Run(script).VMState)
	require.EqualValues(t, 150, get())
}

func TestNotaryNoDeposit(t *testing.T) {
	c := chaintest.New(t)
	acc := c.CommitteeAddress()
	require.EqualValues(t, 0, itemInt(t, mustInvoke(t, c, notaryHash, "balanceOf", acc)).Int64())
	require.EqualValues(t, 0, itemInt(t, mustInvoke(t, c, notaryHash, "expirationOf", acc)).Int64())
	require.False(t, itemBool(t, mustInvoke(t, c, notaryHash, "lockDepositUntil", acc, 100)))
	require.False(t, itemBool(t, mustInvoke(t, c, notaryHash, "withdraw", acc, acc)))
	require.False(t, itemBool(t, mustInvoke(t, c, notaryHash, "withdraw", acc, nil)))
	// onNEP17Payment only from GAS.
	_, fault := invoke(t, c, notaryHash, "onNEP17Payment", acc, 1, []any{nil, 100})
	require.Contains(t, fault, "only GAS")
	for _, args := range [][]any{{[]byte{1}}, {nil}, {make([]byte, 21)}} {
		mustFault(t, c, notaryHash, "balanceOf", args...)
		mustFault(t, c, notaryHash, "expirationOf", args...)
	}
}

func gasBalance(t testing.TB, c *chaintest.Chain, acc hash.Uint160) int64 {
	t.Helper()
	return itemInt(t, mustInvoke(t, c, nativenames.GasHash, "balanceOf", acc)).Int64()
}

func depositScript(t testing.TB, from hash.Uint160, amount int64, to any, till int64) []byte {
	return callScript(t, nativenames.GasHash, "transfer", from, notaryHash, amount, []any{to, till})
}

// TestNotaryPipeline follows neo-go TestNotary_Pipeline.
func TestNotaryPipeline(t *testing.T) {
	c := chaintest.New(t)
	requireGAS(t, c)
	multisig := c.CommitteeAddress()
	const lock = 100
	fee := int64(notaryFeePerKey)
	require.EqualValues(t, 0, gasBalance(t, c, notaryHash))
	expiration := func(acc hash.Uint160) int64 {
		return itemInt(t, mustInvoke(t, c, notaryHash, "expirationOf", acc)).Int64()
	}
	balance := func(acc hash.Uint160) int64 {
		return itemInt(t, mustInvoke(t, c, notaryHash, "balanceOf", acc)).Int64()
	}
	failWith := func(script []byte, msg string) {
		t.Helper()
		aer := c.Run(script)
		require.Equal(t, vmstate.Fault, aer.VMState)
		require.Contains(t, aer.FaultException, msg)
	}
	// Bad token, small first deposit, bad data, outdated till.
	failWith(callScript(t, nativenames.NeoHash, "transfer", multisig, notaryHash, 1, []any{nil, lock}), "only GAS")
	failWith(depositScript(t, multisig, 2*fee-1, nil, lock), "first deposit")
	failWith(callScript(t, nativenames.GasHash, "transfer", multisig, notaryHash, 2*fee, []any{nil}), "`data`")
	failWith(callScript(t, nativenames.GasHash, "transfer", multisig, notaryHash, 2*fee, stackitem.NewStruct([]stackitem.Item{stackitem.Null{}, stackitem.NewInt(lock)})), "`data`")
	failWith(depositScript(t, multisig, 2*fee, nil, 0), "`till`")
	failWith(depositScript(t, multisig, 2*fee, make([]byte, 21), lock), "")

	// Good: the sender's deposit.
	c.RunOK(depositScript(t, multisig, 2*fee, nil, lock))
	require.Equal(t, 2*fee, gasBalance(t, c, notaryHash))
	require.EqualValues(t, lock, expiration(multisig))
	require.Equal(t, 2*fee, balance(multisig))
	// A second one with an explicit owner moves till.
	c.RunOK(depositScript(t, multisig, fee, multisig, lock+1))
	require.Equal(t, 3*fee, balance(multisig))
	require.EqualValues(t, lock+1, expiration(multisig))
	// Empty payments: till may not go down or below the height, may go up.
	failWith(depositScript(t, multisig, 0, multisig, lock), "previous value")
	failWith(depositScript(t, multisig, 0, multisig, 1), "chain's height")
	c.RunOK(depositScript(t, multisig, 0, multisig, lock+2))
	require.EqualValues(t, lock+2, expiration(multisig))
	require.Equal(t, 3*fee, gasBalance(t, c, notaryHash))

	// lockDepositUntil: witness, lower till, outdated till, good.
	stranger := seedKey(t, "notary stranger")
	it, _ := invokeSigned(t, c, []transaction.Signer{chaintest.AccountSigner(stranger)}, notaryHash, "lockDepositUntil", multisig, lock+3)
	require.False(t, itemBool(t, it))
	require.False(t, itemBool(t, c.RunOK(callScript(t, notaryHash, "lockDepositUntil", multisig, lock+1)).Stack[0]))
	require.False(t, itemBool(t, c.RunOK(callScript(t, notaryHash, "lockDepositUntil", multisig, 1)).Stack[0]))
	mustFault(t, c, notaryHash, "lockDepositUntil", multisig, -1)
	require.True(t, itemBool(t, c.RunOK(callScript(t, notaryHash, "lockDepositUntil", multisig, lock+3)).Stack[0]))
	require.EqualValues(t, lock+3, expiration(multisig))

	// withdraw: witness, locked, then unlocked to another account.
	acc := chaintest.StandardAccount(stranger.PublicKey())
	it, _ = invokeSigned(t, c, []transaction.Signer{chaintest.AccountSigner(stranger)}, notaryHash, "withdraw", multisig, acc)
	require.False(t, itemBool(t, it))
	require.False(t, itemBool(t, c.RunOK(callScript(t, notaryHash, "withdraw", multisig, multisig)).Stack[0]))
	for c.BlockHeight() < lock+3 {
		c.AddBlock()
	}
	aer := c.RunOK(callScript(t, notaryHash, "withdraw", multisig, acc))
	require.True(t, itemBool(t, aer.Stack[0]))
	require.EqualValues(t, 0, balance(multisig))
	require.EqualValues(t, 0, gasBalance(t, c, notaryHash))
	require.Equal(t, 3*fee, gasBalance(t, c, acc))
	require.False(t, itemBool(t, c.RunOK(callScript(t, notaryHash, "withdraw", multisig, acc)).Stack[0]))

	// A first deposit for another account gets the default lock whatever
	// till says; a second one keeps it.
	c.RunOK(depositScript(t, multisig, 2*fee, acc, math.MaxUint32-1))
	want := int64(c.BlockHeight()) - 1 + native.DefaultDepositDeltaTill
	require.Equal(t, want, expiration(acc))
	c.RunOK(depositScript(t, multisig, fee, acc, math.MaxUint32-1))
	require.Equal(t, want, expiration(acc))
	require.Equal(t, 3*fee, balance(acc))
	// The owner may set it.
	c.RunOK(depositScript(t, acc, 0, acc, want+10), chaintest.AccountSigner(stranger))
	require.Equal(t, want+10, expiration(acc))
}

// notaryTx is a notary-assisted transaction sent by the Notary contract for
// payer, as neo-go TestNotary_NotaryNodesReward makes it.
func notaryTx(c *chaintest.Chain, payer hash.Uint160, nKeys uint8) *transaction.Transaction {
	tx := c.NewTx([]byte{byte(opcode.PUSH1)},
		transaction.Signer{Account: notaryHash, Scopes: transaction.None},
		transaction.Signer{Account: payer, Scopes: transaction.None})
	tx.SystemFee = 100_0000
	tx.NetworkFee = (2 + int64(nKeys)) * notaryFeePerKey
	tx.Attributes = []transaction.Attribute{{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: nKeys}}}
	return tx
}

// TestNotaryNodesReward follows neo-go TestNotary_NotaryNodesReward: the
// deposit pays the fees, every notary node gets (nKeys+1)*fee/n.
func TestNotaryNodesReward(t *testing.T) {
	for _, tc := range []struct{ nKeys, nodes int }{{0, 1}, {0, 2}, {1, 1}, {1, 2}, {1, 3}, {5, 1}, {5, 2}, {5, 6}, {5, 7}} {
		for _, spendAll := range []bool{true, false} {
			c := chaintest.New(t)
			requireGAS(t, c)
			multisig := c.CommitteeAddress()
			nodes := make([]*keys.PublicKey, tc.nodes)
			for i := range nodes {
				nodes[i] = seedKey(t, "notary node "+string(rune('a'+i))).PublicKey()
			}
			c.RunOK(callScript(t, roleHash, "designateAsRole", int64(noderoles.P2PNotary), pubsArg(nodes)))
			deposit := int64(100_0000 + (2+tc.nKeys)*notaryFeePerKey)
			if !spendAll {
				deposit += 1_0000
			}
			c.RunOK(depositScript(t, multisig, deposit, multisig, int64(c.BlockHeight())+2))
			tx := notaryTx(c, multisig, uint8(tc.nKeys))
			aers := c.AddBlockFull(tx)
			require.Equal(t, vmstate.Halt, aers[1].VMState, aers[1].FaultException)
			left := deposit - tx.SystemFee - tx.NetworkFee
			require.Equal(t, left, gasBalance(t, c, notaryHash), "%+v", tc)
			require.Equal(t, left, itemInt(t, mustInvoke(t, c, notaryHash, "balanceOf", multisig)).Int64())
			for _, k := range nodes {
				require.Equal(t, int64(notaryFeePerKey*(tc.nKeys+1)/tc.nodes), gasBalance(t, c, k.ScriptHash()), "%+v", tc)
			}
		}
	}
}

// TestNotaryVerify checks the Notary witness through witness
// verification: a notary node's signature over the transaction, the
// Notary signer's scope, the deposit of a transaction sent by Notary.
func TestNotaryVerify(t *testing.T) {
	c := chaintest.New(t)
	node := seedKey(t, "notary verify node")
	payer := c.CommitteeAddress()
	sign := func(k *keys.PrivateKey, tx *transaction.Transaction) []byte {
		data := tx.SignData(uint32(c.Cfg.Magic))
		return k.Sign(data[:])
	}
	verify := func(tx *transaction.Transaction, sig []byte) bool {
		w := &transaction.Witness{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), byte(len(sig))}, sig...), VerificationScript: []byte{}}
		_, err := c.Natives.VerifyWitness(c, c.DAO, nil, tx, notaryHash, w, 1_0000_0000)
		return err == nil
	}
	tx := notaryTx(c, payer, 1)
	// No notary nodes yet.
	require.False(t, verify(tx, sign(node, tx)))
	c.RunOK(callScript(t, roleHash, "designateAsRole", int64(noderoles.P2PNotary), pubsArg([]*keys.PublicKey{node.PublicKey()})))
	c.AddBlock()
	// Sent by Notary: the payer's deposit must cover the fees.
	tx = notaryTx(c, payer, 1)
	require.False(t, verify(tx, sign(node, tx)))

	// Notary as an ordinary co-signer (not the sender).
	tx = notaryTx(c, payer, 1)
	tx.Signers[0], tx.Signers[1] = tx.Signers[1], tx.Signers[0]
	require.True(t, verify(tx, sign(node, tx)))
	require.False(t, verify(tx, sign(seedKey(t, "not a notary"), tx)))
	require.False(t, verify(tx, []byte{1, 2, 3}))
	// The Notary signer must have no scope.
	tx.Signers[1].Scopes = transaction.CalledByEntry
	require.False(t, verify(tx, sign(node, tx)))
	// Without the NotaryAssisted attribute.
	tx = notaryTx(c, payer, 1)
	tx.Signers[0], tx.Signers[1] = tx.Signers[1], tx.Signers[0]
	tx.Attributes = nil
	require.False(t, verify(tx, sign(node, tx)))

	if c.Natives.ByID(nativenames.GasID) == nil {
		return
	}
	c.RunOK(depositScript(t, payer, 2*notaryFeePerKey+100_0000, nil, int64(c.BlockHeight())+10))
	tx = notaryTx(c, payer, 0)
	require.True(t, verify(tx, sign(node, tx)))
	tx = notaryTx(c, payer, 1) // fees above the deposit
	require.False(t, verify(tx, sign(node, tx)))
	tx = notaryTx(c, payer, 0)
	tx.Signers = append(tx.Signers, transaction.Signer{Account: hash.Uint160{1}})
	require.False(t, verify(tx, sign(node, tx)))
}

// TestNotaryOnPersistNoDeposit: a notary transaction whose payer has no
// deposit leaves the deposits alone (neo-go 0.120.0 and C#; neo-go 0.121.0
// fails the block).
func TestNotaryOnPersistNoDeposit(t *testing.T) {
	c := chaintest.New(t)
	requireGAS(t, c)
	// The Notary contract needs GAS to pay the fees: a deposit of another
	// account.
	other := chaintest.StandardAccount(seedKey(t, "other").PublicKey())
	c.RunOK(depositScript(t, c.CommitteeAddress(), 10*notaryFeePerKey, other, 1000))
	tx := notaryTx(c, c.CommitteeAddress(), 0)
	aers := c.AddBlockFull(tx)
	require.Equal(t, vmstate.Halt, aers[1].VMState)
	require.EqualValues(t, 10*notaryFeePerKey, itemInt(t, mustInvoke(t, c, notaryHash, "balanceOf", other)).Int64())
	require.EqualValues(t, 0, itemInt(t, mustInvoke(t, c, notaryHash, "balanceOf", c.CommitteeAddress())).Int64())
}

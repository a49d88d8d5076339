package core_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

var simpleScript = []byte{byte(opcode.PUSH1)}

// committeeTx makes a transaction signed by the committee (the validator's
// 1-of-1 multisig account); the system fee is 1 GAS unless given.
func committeeTx(c *testchain.Chain, script []byte, sysFee ...int64) *transaction.Transaction {
	fee := int64(1_0000_0000)
	if len(sysFee) > 0 {
		fee = sysFee[0]
	}
	return c.SignCommittee(c.NewTx(script, fee, 1000_0000, transaction.Signer{Account: c.Account(), Scopes: transaction.CalledByEntry}))
}

func TestVerifyTxCategories(t *testing.T) {
	c := testchain.New(t)
	a, b := newKey(t, 1), newKey(t, 2)
	c.BC.SeedGASForTest(a.PublicKey().ScriptHash(), 100_0000_0000)
	c.BC.SeedGASForTest(c.Account(), 100_0000_0000)
	c.AddBlock()

	ok := c.Sign(c.TxBy(simpleScript, a), a)
	require.NoError(t, c.BC.VerifyTx(ok))

	for _, tc := range []struct {
		name string
		tx   func() *transaction.Transaction
		err  error
	}{
		{"invalid script", func() *transaction.Transaction {
			return c.Sign(c.TxBy([]byte{0xff}, a), a)
		}, core.ErrInvalidScript},
		{"expired", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.ValidUntilBlock = c.BC.BlockHeight()
			return c.Sign(tx, a)
		}, core.ErrTxExpired},
		{"not yet valid", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.ValidUntilBlock = c.BC.BlockHeight() + c.BC.GetMaxValidUntilBlockIncrement() + 1
			return c.Sign(tx, a)
		}, core.ErrTxNotYetValid},
		{"system fee above MaxBlockSystemFee", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.SystemFee = c.Cfg.MaxBlockSystemFee + 1
			return c.Sign(tx, a)
		}, core.ErrPolicy},
		{"too big", func() *transaction.Transaction {
			script := make([]byte, transaction.MaxTransactionSize)
			for i := range script {
				script[i] = byte(opcode.NOP)
			}
			return c.Sign(c.TxBy(script, a), a)
		}, core.ErrTxTooBig},
		{"small network fee", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.NetworkFee = 1000
			return c.Sign(tx, a)
		}, core.ErrTxSmallNetworkFee},
		{"network fee too small for the witness", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.NetworkFee = 200 * c.BC.FeePerByte() // size only
			return c.Sign(tx, a)
		}, core.ErrVerificationFailed},
		{"bad signature", func() *transaction.Transaction {
			tx := c.Sign(c.TxBy(simpleScript, a), a)
			tx.Witnesses[0].InvocationScript = testchain.PushData(b.Sign([]byte("other")))
			return tx
		}, core.ErrInvalidSignature},
		{"witness of another account", func() *transaction.Transaction {
			return c.Sign(c.TxBy(simpleScript, a), b)
		}, core.ErrWitnessHashMismatch},
		{"insufficient funds", func() *transaction.Transaction {
			return c.Sign(c.TxBy(simpleScript, b), b)
		}, core.ErrInsufficientFunds},
		{"high priority not from committee", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.Attributes = []transaction.Attribute{{Type: transaction.HighPriority}}
			return c.Sign(tx, a)
		}, core.ErrInvalidAttribute},
		{"not valid before", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.Attributes = []transaction.Attribute{{Type: transaction.NotValidBeforeT, Value: &transaction.NotValidBefore{Height: c.BC.BlockHeight() + 1}}}
			return c.Sign(tx, a)
		}, core.ErrInvalidAttribute},
		{"notary assisted without notary", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.Attributes = []transaction.Attribute{{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 1}}}
			tx.NetworkFee = 10_0000_0000
			return c.Sign(tx, a)
		}, core.ErrInvalidAttribute},
		{"oracle response outside oracle rules", func() *transaction.Transaction {
			tx := c.TxBy(simpleScript, a)
			tx.Attributes = []transaction.Attribute{{Type: transaction.OracleResponseT, Value: &transaction.OracleResponse{ID: 1, Code: transaction.Success, Result: []byte{}}}}
			tx.NetworkFee = 10_0000_0000
			return c.Sign(tx, a)
		}, core.ErrInvalidAttribute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.BC.VerifyTx(tc.tx())
			require.ErrorIs(t, err, tc.err)
		})
	}

	// High priority from the committee is fine.
	tx := c.TxBy(simpleScript)
	tx.Signers = []transaction.Signer{{Account: c.Account(), Scopes: transaction.CalledByEntry}}
	tx.Attributes = []transaction.Attribute{{Type: transaction.HighPriority}}
	require.NoError(t, c.BC.VerifyTx(c.SignCommittee(tx)))

	// On-chain: already exists; Conflicts; pool errors.
	onChain := c.Sign(c.TxBy(simpleScript, a), a)
	conflicting := c.Sign(c.TxBy(simpleScript, a), a)
	withConflict := c.TxBy(simpleScript, a)
	withConflict.Attributes = []transaction.Attribute{{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: conflicting.Hash()}}}
	c.Sign(withConflict, a)
	c.AddBlock(onChain, withConflict)
	require.ErrorIs(t, c.BC.VerifyTx(onChain), core.ErrAlreadyExists)
	require.ErrorIs(t, c.BC.VerifyTx(conflicting), core.ErrHasConflicts)
	refers := c.TxBy(simpleScript, a)
	refers.Attributes = []transaction.Attribute{{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: onChain.Hash()}}}
	require.ErrorIs(t, c.BC.VerifyTx(c.Sign(refers, a)), core.ErrInvalidAttribute)
	dup := c.TxBy(simpleScript, a)
	h := hash.Uint256{1}
	dup.Attributes = []transaction.Attribute{
		{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: h}},
		{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: h}},
	}
	dup.NetworkFee = 10_0000_0000
	require.ErrorIs(t, c.BC.VerifyTx(c.Sign(dup, a)), core.ErrInvalidAttribute)

	p1 := c.Sign(c.TxBy(simpleScript, a), a)
	require.NoError(t, c.BC.PoolTx(p1))
	require.ErrorIs(t, c.BC.PoolTx(p1), core.ErrAlreadyInPool)
	require.True(t, c.BC.HasTransaction(p1.Hash()))
	big := c.TxBy(simpleScript, a)
	big.SystemFee = c.BC.GetUtilityTokenBalance(a.PublicKey().ScriptHash()).Int64() - big.NetworkFee
	require.ErrorIs(t, c.BC.PoolTx(c.Sign(big, a)), core.ErrMemPoolConflict)
	// The pooled transaction is executed in the next block and leaves the
	// pool.
	c.AddBlock(p1)
	require.Zero(t, c.BC.Mempool().Count())
}

func TestPoolFull(t *testing.T) {
	c := testchain.New(t, testchain.Options{Protocol: "  MemPoolSize: 1\n"})
	a := newKey(t, 1)
	c.BC.SeedGASForTest(a.PublicKey().ScriptHash(), 100_0000_0000)
	c.AddBlock()
	hi := c.TxBy(simpleScript, a)
	hi.NetworkFee *= 2
	require.NoError(t, c.BC.PoolTx(c.Sign(hi, a)))
	require.ErrorIs(t, c.BC.PoolTx(c.Sign(c.TxBy(simpleScript, a), a)), core.ErrOOM)
}

func TestBlockedSigner(t *testing.T) {
	c := testchain.New(t)
	a := newKey(t, 1)
	c.BC.SeedGASForTest(a.PublicKey().ScriptHash(), 100_0000_0000)
	c.BC.SeedGASForTest(c.Account(), 100_0000_0000)
	script := chaintest.CallScript(nativenames.PolicyHash, "blockAccount", a.PublicKey().ScriptHash())
	blk := c.AddBlock(committeeTx(c, script))
	aers, err := c.BC.GetAppExecResults(blk.Transactions[0].Hash(), 0xff)
	require.NoError(t, err)
	require.Equal(t, "HALT", aers[0].VMState.String(), aers[0].FaultException)
	require.True(t, c.BC.IsBlocked(a.PublicKey().ScriptHash()))
	require.ErrorIs(t, c.BC.VerifyTx(c.Sign(c.TxBy(simpleScript, a), a)), core.ErrPolicy)
}

// Any mix of single-signature, multi-signature and contract witnesses
// verifies, each within the network fee left by the ones before it.
func TestMixedWitnesses(t *testing.T) {
	c := testchain.New(t)
	singles := []*keys.PrivateKey{newKey(t, 1), newKey(t, 2)}
	multiKeys := []*keys.PrivateKey{newKey(t, 3), newKey(t, 4), newKey(t, 5)}
	pubs := make([]*keys.PublicKey, len(multiKeys))
	for i, k := range multiKeys {
		pubs[i] = k.PublicKey()
	}
	multiScript, err := smartcontract.CreateMultiSigRedeemScript(2, pubs)
	require.NoError(t, err)
	c.BC.SeedGASForTest(singles[0].PublicKey().ScriptHash(), 100_0000_0000)
	c.BC.SeedGASForTest(c.Account(), 100_0000_0000)

	// A contract whose verify returns true.
	cb := chaintest.NewContractBuilder("verifier").Method("verify", nil, smartcontract.BoolType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.PUSHT)
	})
	f, m := cb.Build()
	deploy := committeeTx(c, chaintest.DeployScript(f, m), 50_0000_0000)
	blk := c.AddBlock(deploy)
	aers, err := c.BC.GetAppExecResults(blk.Transactions[0].Hash(), 0xff)
	require.NoError(t, err)
	require.Equal(t, "HALT", aers[0].VMState.String(), aers[0].FaultException)
	var mf manifest.Manifest
	require.NoError(t, json.Unmarshal(m, &mf))
	contractHash := smartcontract.GetContractHash(c.Account(), f.Checksum, mf.Name)
	require.NotNil(t, c.BC.GetContractState(contractHash))

	tx := transaction.New(simpleScript, 77, 1_0000_0000, 1_0000_0000, c.BC.BlockHeight()+10)
	tx.Signers = []transaction.Signer{
		{Account: singles[0].PublicKey().ScriptHash(), Scopes: transaction.CalledByEntry},
		{Account: hash.Hash160(multiScript), Scopes: transaction.CalledByEntry},
		{Account: singles[1].PublicKey().ScriptHash(), Scopes: transaction.CalledByEntry},
		{Account: contractHash, Scopes: transaction.CalledByEntry},
	}
	sd := tx.SignData(uint32(c.Cfg.Magic))
	inv := append(testchain.PushData(multiKeys[0].Sign(sd[:])), testchain.PushData(multiKeys[2].Sign(sd[:]))...)
	tx.Witnesses = []transaction.Witness{
		{InvocationScript: testchain.PushData(singles[0].Sign(sd[:])), VerificationScript: smartcontract.CreateSignatureRedeemScript(singles[0].PublicKey())},
		{InvocationScript: inv, VerificationScript: multiScript},
		{InvocationScript: testchain.PushData(singles[1].Sign(sd[:])), VerificationScript: smartcontract.CreateSignatureRedeemScript(singles[1].PublicKey())},
		{InvocationScript: []byte{}, VerificationScript: []byte{}},
	}
	require.NoError(t, c.BC.VerifyTx(tx))
	blk = c.AddBlock(tx)
	require.Len(t, blk.Transactions, 1)

	// One wrong multisig signature fails the whole transaction.
	bad := transaction.New(simpleScript, 78, 1_0000_0000, 1_0000_0000, c.BC.BlockHeight()+10)
	bad.Signers = tx.Signers
	sd = bad.SignData(uint32(c.Cfg.Magic))
	bad.Witnesses = []transaction.Witness{
		{InvocationScript: testchain.PushData(singles[0].Sign(sd[:])), VerificationScript: smartcontract.CreateSignatureRedeemScript(singles[0].PublicKey())},
		{InvocationScript: append(testchain.PushData(multiKeys[0].Sign(sd[:])), testchain.PushData(multiKeys[0].Sign(sd[:]))...), VerificationScript: multiScript},
		{InvocationScript: testchain.PushData(singles[1].Sign(sd[:])), VerificationScript: smartcontract.CreateSignatureRedeemScript(singles[1].PublicKey())},
		{InvocationScript: []byte{}, VerificationScript: []byte{}},
	}
	err = c.BC.VerifyTx(bad)
	require.ErrorIs(t, err, core.ErrInvalidSignature)
	require.ErrorContains(t, err, "witness #1")
	// ... and a block holding it is refused (VerifyTransactions).
	err = c.BC.AddBlock(c.BlockAfter(nil, bad))
	require.ErrorIs(t, err, core.ErrTxVerification)
	require.True(t, errors.Is(err, core.ErrInvalidSignature))
}

func TestVerifyExtensible(t *testing.T) {
	c := testchain.New(t)
	c.AddBlock()
	mk := func(k *keys.PrivateKey, sender hash.Uint160, verif []byte) *payload.Extensible {
		p := &payload.Extensible{Category: "dBFT", ValidBlockEnd: 100, Sender: sender, Data: []byte{1}}
		sd := p.SignData(uint32(c.Cfg.Magic))
		p.Witness = transaction.Witness{InvocationScript: testchain.PushData(k.Sign(sd[:])), VerificationScript: verif}
		return p
	}
	std := smartcontract.CreateSignatureRedeemScript(c.Key.PublicKey())
	verify := func(p *payload.Extensible) error { return c.BC.VerifyExtensible(p.Sender, p, &p.Witness) }
	require.NoError(t, verify(mk(c.Key, c.Key.PublicKey().ScriptHash(), std)))
	require.NoError(t, verify(mk(c.Key, c.Account(), c.ValidatorScript())))
	other := newKey(t, 5)
	err := verify(mk(other, other.PublicKey().ScriptHash(), smartcontract.CreateSignatureRedeemScript(other.PublicKey())))
	require.ErrorIs(t, err, core.ErrExtensibleSender)
	err = verify(mk(other, c.Key.PublicKey().ScriptHash(), std))
	require.ErrorIs(t, err, core.ErrInvalidSignature)
}

func TestVerifyProposedTransactions(t *testing.T) {
	c := testchain.New(t)
	a := newKey(t, 1)
	c.BC.SeedGASForTest(a.PublicKey().ScriptHash(), 2_0000_0000)
	c.AddBlock()
	t1 := c.Sign(c.TxBy(simpleScript, a), a)
	t2 := c.Sign(c.TxBy(simpleScript, a), a)
	require.NoError(t, c.BC.VerifyProposedTransactions([]*transaction.Transaction{t1}))
	err := c.BC.VerifyProposedTransactions([]*transaction.Transaction{t1, t2})
	var re *core.RejectedTxError
	require.ErrorAs(t, err, &re)
	require.Equal(t, t2.Hash(), re.Hash)
	require.ErrorIs(t, err, core.ErrMemPoolConflict)
}

// TestReservedAttributes: a transaction with an attribute of the reserved
// range is refused unless ProtocolConfiguration.ReservedAttributes is on
// (neo-go's check and message); the attribute then costs the Policy fee of
// its type like any other.
func TestReservedAttributes(t *testing.T) {
	for _, on := range []bool{false, true} {
		extra := ""
		if on {
			extra = "  ReservedAttributes: true\n"
		}
		c := testchain.New(t, testchain.Options{Protocol: extra})
		a := newKey(t, 1)
		c.BC.SeedGASForTest(a.PublicKey().ScriptHash(), 100_0000_0000)
		c.AddBlock()
		tx := c.TxBy(simpleScript, a)
		tx.Attributes = []transaction.Attribute{{Type: transaction.ReservedLowerBound, Value: &transaction.Reserved{Type: transaction.ReservedLowerBound, Value: []byte{1, 2}}}}
		err := c.BC.VerifyTx(c.Sign(tx, a))
		if on {
			require.NoError(t, err)
			c.AddBlock(tx)
			require.True(t, c.BC.HasTransaction(tx.Hash()))
		} else {
			require.ErrorIs(t, err, core.ErrInvalidAttribute)
			require.ErrorContains(t, err, "attribute of reserved type was found, but ReservedAttributes are disabled")
		}
	}
}

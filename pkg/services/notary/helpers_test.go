package notary_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/services/notary"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// env is a chain with P2PSigExtensions, a designated notary node, funded
// accounts with Notary deposits, the request pool and the service.
type env struct {
	t      *testing.T
	c      *testchain.Chain
	notary *keys.PrivateKey
	users  []*keys.PrivateKey
	pool   *notary.RequestPool
	svc    *notary.Service
	sent   chan *transaction.Transaction
}

const depositTill = 10000

func newEnv(t *testing.T, nUsers int) *env {
	c := testchain.New(t, testchain.Options{Protocol: "  P2PSigExtensions: true\n"})
	e := &env{t: t, c: c, notary: testchain.Keys(t, 9, 1)[0], users: testchain.Keys(t, 11, nUsers),
		sent: make(chan *transaction.Transaction, 64)}
	c.Designate(noderoles.P2PNotary, []*keys.PublicKey{e.notary.PublicKey()})
	for _, u := range e.users {
		c.TransferGAS(u.ScriptHash(), 100_0000_0000, nil)
		e.deposit(u, 10_0000_0000, depositTill)
	}
	e.pool = notary.NewRequestPool(c.BC, 100)
	e.pool.Start()
	t.Cleanup(e.pool.Shutdown)
	return e
}

// deposit makes a Notary deposit of k's account.
func (e *env) deposit(k *keys.PrivateKey, amount int64, till uint32) {
	e.c.RunAs(k, chaintest.CallScript(nativenames.GasHash, "transfer", k.ScriptHash(), nativenames.NotaryHash, amount,
		[]any{nil, int64(till)}), 1_0000_0000)
}

// start starts the notary service; completed transactions are pooled
// in the chain's memory pool and reported on e.sent.
func (e *env) start(ks ...*keys.PrivateKey) {
	if ks == nil {
		ks = []*keys.PrivateKey{e.notary}
	}
	svc, err := notary.New(notary.Config{
		Chain: e.c.BC,
		Pool:  e.pool,
		Keys:  ks,
		OnTransaction: func(tx *transaction.Transaction) error {
			err := e.c.BC.PoolTx(tx)
			if err == nil {
				e.sent <- tx
			}
			return err
		},
	})
	require.NoError(e.t, err)
	svc.Start()
	e.t.Cleanup(svc.Shutdown)
	e.svc = svc
}

func (e *env) waitSent() *transaction.Transaction {
	e.t.Helper()
	select {
	case tx := <-e.sent:
		return tx
	case <-time.After(20 * time.Second):
		e.t.Fatal("no transaction sent")
		return nil
	}
}

func (e *env) noneSent() {
	e.t.Helper()
	select {
	case tx := <-e.sent:
		e.t.Fatalf("unexpected transaction %s", tx.Hash().StringLE())
	case <-time.After(100 * time.Millisecond):
	}
}

// signer is one signer of a main transaction: its account, verification
// script and the keys that can sign for it.
type signer struct {
	account hash.Uint160
	script  []byte
	keys    []*keys.PrivateKey
	scope   transaction.WitnessScope
}

func sigSigner(k *keys.PrivateKey) signer {
	return signer{account: k.ScriptHash(), script: k.PublicKey().VerificationScript(), keys: []*keys.PrivateKey{k}, scope: transaction.CalledByEntry}
}

// mainTx makes a main transaction of signers + Notary with NKeys.
func (e *env) mainTx(script []byte, nKeys uint8, vub uint32, signers ...signer) *transaction.Transaction {
	tx := e.c.NewTx(script, 1_0000_0000, 1_0000_0000)
	tx.ValidUntilBlock = vub
	for _, s := range signers {
		tx.Signers = append(tx.Signers, transaction.Signer{Account: s.account, Scopes: s.scope})
	}
	tx.Signers = append(tx.Signers, transaction.Signer{Account: nativenames.NotaryHash, Scopes: transaction.None})
	tx.Attributes = []transaction.Attribute{{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: nKeys}}}
	return tx
}

// requestFrom makes the request of signer index who (signing with key
// k) for main, paid by payer: main's witnesses carry only k's signature.
func (e *env) requestFrom(main *transaction.Transaction, signers []signer, who int, k *keys.PrivateKey, payer *keys.PrivateKey, nvb uint32) *payload.P2PNotaryRequest {
	m := main.Copy()
	m.Witnesses = make([]transaction.Witness, len(m.Signers))
	for i, s := range signers {
		m.Witnesses[i].VerificationScript = s.script
	}
	if who >= 0 {
		sd := m.SignData(testchain.Magic)
		m.Witnesses[who].InvocationScript = testchain.PushData(k.Sign(sd[:]))
	}
	return e.request(m, payer, nvb)
}

// request wraps main (witnesses as given) with a fallback paid by payer.
func (e *env) request(main *transaction.Transaction, payer *keys.PrivateKey, nvb uint32) *payload.P2PNotaryRequest {
	fb := transaction.New([]byte{byte(opcode.RET)}, main.Nonce+1000, 0, 2_0000_0000, main.ValidUntilBlock)
	fb.Signers = []transaction.Signer{{Account: nativenames.NotaryHash, Scopes: transaction.None}, {Account: payer.ScriptHash(), Scopes: transaction.None}}
	fb.Attributes = []transaction.Attribute{
		{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 0}},
		{Type: transaction.NotValidBeforeT, Value: &transaction.NotValidBefore{Height: nvb}},
		{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: main.Hash()}},
	}
	fb.Witnesses = []transaction.Witness{
		{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, make([]byte, 64)...), VerificationScript: []byte{}},
		testchain.SigWitness(fb, payer),
	}
	r := &payload.P2PNotaryRequest{MainTransaction: main, FallbackTransaction: fb}
	sd := transaction.SignData(testchain.Magic, r.Hash())
	r.Witness = transaction.Witness{InvocationScript: testchain.PushData(payer.Sign(sd[:])), VerificationScript: payer.PublicKey().VerificationScript()}
	return r
}

// height is the chain height.
func (e *env) height() uint32 { return e.c.BC.BlockHeight() }

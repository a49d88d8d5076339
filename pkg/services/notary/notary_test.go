package notary_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/services/notary"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var push1 = []byte{byte(opcode.PUSH1)}

// TestMainCompleted: two single-signature signers send their parts in
// two requests; the notary node completes the main transaction, which
// the chain accepts; the fallbacks then leave the pool.
func TestMainCompleted(t *testing.T) {
	e := newEnv(t, 2)
	e.start()
	a, b := sigSigner(e.users[0]), sigSigner(e.users[1])
	signers := []signer{a, b}
	vub := e.height() + 100
	nvb := e.height() + 50
	main := e.mainTx(push1, 2, vub, a, b)

	reqA := e.requestFrom(main, signers, 0, e.users[0], e.users[0], nvb)
	require.NoError(t, e.pool.Relay(reqA))
	e.noneSent()
	require.Equal(t, 1, e.svc.Pending())
	reqB := e.requestFrom(main, signers, 1, e.users[1], e.users[1], nvb)
	require.NoError(t, e.pool.Relay(reqB))
	tx := e.waitSent()
	require.Equal(t, main.Hash(), tx.Hash())
	require.Equal(t, 2, e.pool.Count())
	// The same request again is refused by the pool.
	require.ErrorIs(t, e.pool.Add(reqB), core.ErrAlreadyInPool)

	e.c.AddPooled()
	require.Equal(t, vmstate.Halt, e.c.AppLog(main.Hash()).VMState)
	// The fallbacks conflict with an accepted transaction: gone from the
	// pool, then from the service.
	require.Eventually(t, func() bool { return e.pool.Count() == 0 }, 20*time.Second, 10*time.Millisecond)
	require.Eventually(t, func() bool {
		e.c.AddBlock()
		return e.svc.Pending() == 0
	}, 20*time.Second, 10*time.Millisecond)
}

// TestFallback: the second signature never comes; once NotValidBefore is
// reached the notary node completes the fallback, paid from the deposit.
func TestFallback(t *testing.T) {
	e := newEnv(t, 2)
	e.start()
	a, b := sigSigner(e.users[0]), sigSigner(e.users[1])
	vub := e.height() + 20
	nvb := e.height() + 5
	main := e.mainTx(push1, 2, vub, a, b)
	req := e.requestFrom(main, []signer{a, b}, 0, e.users[0], e.users[0], nvb)
	require.NoError(t, e.pool.Relay(req))
	before, err := e.c.BC.Natives().Notary().GetDepositFor(e.c.BC.DAO(), e.users[0].ScriptHash())
	require.NoError(t, err)
	for e.height() < nvb-1 {
		e.c.AddBlock()
		e.noneSent()
	}
	e.c.AddBlock() // height = nvb: the fallback is valid in the next block
	tx := e.waitSent()
	require.Equal(t, req.FallbackTransaction.Hash(), tx.Hash())
	e.c.AddPooled()
	require.Equal(t, vmstate.Halt, e.c.AppLog(tx.Hash()).VMState)
	after, err := e.c.BC.Natives().Notary().GetDepositFor(e.c.BC.DAO(), e.users[0].ScriptHash())
	require.NoError(t, err)
	spent := new(big.Int).Sub(&before.Amount, &after.Amount)
	require.EqualValues(t, tx.SystemFee+tx.NetworkFee, spent.Int64())
	// The main transaction can no longer get in.
	require.ErrorIs(t, e.c.BC.PoolTx(main), core.ErrHasConflicts)
}

// TestMultisig: a 2-of-3 multisig signer; each of three requests brings
// one signature; two complete it.
func TestMultisig(t *testing.T) {
	e := newEnv(t, 3)
	e.start()
	pubs := make([]*keys.PublicKey, 3)
	for i, u := range e.users {
		pubs[i] = u.PublicKey()
	}
	keys.SortPublicKeys(pubs)
	script, err := smartcontract.CreateMultiSigRedeemScript(2, pubs)
	require.NoError(t, err)
	ms := signer{account: hash.Hash160(script), script: script, scope: transaction.CalledByEntry}
	// The multisig account pays the main transaction.
	e.c.TransferGAS(ms.account, 10_0000_0000, nil)
	vub := e.height() + 100
	main := e.mainTx(push1, 3, vub, ms)
	byPub := func(p *keys.PublicKey) *keys.PrivateKey {
		for _, u := range e.users {
			if u.PublicKey().Equal(p) {
				return u
			}
		}
		return nil
	}
	// The third key signs first, then the first: the witness holds them in
	// key order.
	require.NoError(t, e.pool.Relay(e.requestFrom(main, []signer{ms}, 0, byPub(pubs[2]), e.users[0], e.height()+50)))
	e.noneSent()
	require.NoError(t, e.pool.Relay(e.requestFrom(main, []signer{ms}, 0, byPub(pubs[0]), e.users[1], e.height()+50)))
	tx := e.waitSent()
	require.Equal(t, main.Hash(), tx.Hash())
	e.c.AddPooled()
	require.Equal(t, vmstate.Halt, e.c.AppLog(main.Hash()).VMState)
}

// TestBadMainOnlyFallback: a main transaction whose witnesses the service
// cannot analyse (NKeys wrong) only ever gets its fallback completed.
func TestBadMainOnlyFallback(t *testing.T) {
	e := newEnv(t, 1)
	e.start()
	a := sigSigner(e.users[0])
	nvb := e.height() + 3
	main := e.mainTx(push1, 5, e.height()+20, a) // NKeys 5, one key present
	req := e.requestFrom(main, []signer{a}, 0, e.users[0], e.users[0], nvb)
	require.NoError(t, e.pool.Relay(req))
	e.noneSent()
	for e.height() < nvb {
		e.c.AddBlock()
	}
	tx := e.waitSent()
	require.Equal(t, req.FallbackTransaction.Hash(), tx.Hash())
}

// TestPoolChecks: the request pool's verification.
func TestPoolChecks(t *testing.T) {
	e := newEnv(t, 2)
	a, b := sigSigner(e.users[0]), sigSigner(e.users[1])
	nvb := e.height() + 50
	main := e.mainTx(push1, 2, e.height()+100, a, b)
	good := func() *payload.P2PNotaryRequest {
		return e.requestFrom(main, []signer{a, b}, 0, e.users[0], e.users[0], nvb)
	}

	r := good()
	r.Witness = e.requestFrom(main, []signer{a, b}, 0, e.users[0], e.users[1], nvb).Witness // signed by another key
	require.ErrorIs(t, e.pool.Add(r), notary.ErrRequestWitness)

	// Fallback valid after the deposit unlocks.
	far := e.mainTx(push1, 2, depositTill+10, a, b)
	require.ErrorIs(t, e.pool.Add(e.requestFrom(far, []signer{a, b}, 0, e.users[0], e.users[0], depositTill)), notary.ErrDepositExpiration)

	// NotValidBefore too far ahead (more than MaxNotValidBeforeDelta).
	require.ErrorIs(t, e.pool.Add(e.requestFrom(main, []signer{a, b}, 0, e.users[0], e.users[0], e.height()+500)), core.ErrInvalidAttribute)

	// A payer without a deposit.
	stranger := testchain.Keys(t, 77, 1)[0]
	require.Error(t, e.pool.Add(e.requestFrom(main, []signer{a, b}, 0, e.users[0], stranger, nvb)))

	// Deposits are summed per payer: 10 GAS covers five 2 GAS fallbacks,
	// not six.
	for i := range 5 {
		m := e.mainTx(push1, 2, e.height()+100, a, b)
		m.Nonce += uint32(100 + i)
		require.NoError(t, e.pool.Add(e.requestFrom(m, []signer{a, b}, 0, e.users[0], e.users[0], nvb)), "request %d", i)
	}
	m := e.mainTx(push1, 2, e.height()+100, a, b)
	require.ErrorIs(t, e.pool.Add(e.requestFrom(m, []signer{a, b}, 0, e.users[0], e.users[0], nvb)), core.ErrMemPoolConflict)
	require.Len(t, e.pool.Requests(), 5)

	good = func() *payload.P2PNotaryRequest {
		return e.requestFrom(main, []signer{a, b}, 0, e.users[0], e.users[1], nvb)
	}
	require.NoError(t, e.pool.Add(good()))
	got, ok := e.pool.Get(good().FallbackTransaction.Hash())
	require.True(t, ok)
	require.Equal(t, main.Hash(), got.MainTransaction.Hash())

	// Decoding: round trip.
	b2, err := nio.ToBytes(good())
	require.NoError(t, err)
	dec, err := notary.DecodeRequest(b2)
	require.NoError(t, err)
	require.Equal(t, good().FallbackTransaction.Hash(), dec.FallbackTransaction.Hash())
	_, err = notary.DecodeRequest(b2[:len(b2)-1])
	require.Error(t, err)
}

// TestNotDesignated: a node without a designated key collects nothing.
func TestNotDesignated(t *testing.T) {
	e := newEnv(t, 2)
	e.start(testchain.Keys(t, 55, 1)[0])
	require.False(t, e.svc.IsAuthorized())
	a, b := sigSigner(e.users[0]), sigSigner(e.users[1])
	main := e.mainTx(push1, 2, e.height()+100, a, b)
	require.NoError(t, e.pool.Relay(e.requestFrom(main, []signer{a, b}, 0, e.users[0], e.users[0], e.height()+50)))
	require.NoError(t, e.pool.Relay(e.requestFrom(main, []signer{a, b}, 1, e.users[1], e.users[1], e.height()+50)))
	e.noneSent()
	require.Equal(t, 0, e.svc.Pending())
}

// TestAppCall: a signer whose verification script calls a contract's
// verify with an argument the request supplies (neo-go AppCall witness).
func TestAppCall(t *testing.T) {
	e := newEnv(t, 2)
	e.start()
	b := chaintest.NewContractBuilder("Verifier")
	b.Method("verify", []manifest.Parameter{chaintest.Param("a", smartcontract.IntegerType)}, smartcontract.BoolType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG0, opcode.PUSH5, opcode.NUMEQUAL)
	})
	cs := e.c.Deploy(b)
	ver := chaintest.Script(func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.PUSH1, opcode.PACK) // the argument comes from the invocation script
		emit.Int(w, int64(callflag.ReadOnly))
		emit.String(w, "verify")
		emit.Bytes(w, cs.Hash[:])
		emit.Syscall(w, "System.Contract.Call")
	})
	v := signer{account: hash.Hash160(ver), script: ver, scope: transaction.None}
	a := sigSigner(e.users[0])
	signers := []signer{a, v}
	main := e.mainTx(push1, 2, e.height()+100, a, v)
	nvb := e.height() + 50
	require.NoError(t, e.pool.Relay(e.requestFrom(main, signers, 0, e.users[0], e.users[0], nvb)))
	e.noneSent()
	m := main.Copy()
	m.Witnesses = []transaction.Witness{{VerificationScript: a.script}, {InvocationScript: []byte{byte(opcode.PUSH5)}, VerificationScript: ver}, {}}
	require.NoError(t, e.pool.Relay(e.request(m, e.users[1], nvb)))
	tx := e.waitSent()
	require.Equal(t, main.Hash(), tx.Hash())
	e.c.AddPooled()
	require.Equal(t, vmstate.Halt, e.c.AppLog(main.Hash()).VMState)
}

// The pool is what the P2P server fetches and serves requests through.
var _ network.NotaryRequestPool = (*notary.RequestPool)(nil)

package node

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// pushSig is the invocation script pushing one signature.
func pushSig(sig []byte) []byte {
	w := nio.NewBufBinWriter()
	emit.Bytes(w, sig)
	return w.Bytes()
}

// notaryRequest is the request of party who (signing main with its own
// key only) with its fallback, paid from its Notary deposit: the main
// transaction's witnesses are the parties' verification scripts with
// only who's signature, the Notary witness is empty; the fallback
// (Notary contract, payer) has a placeholder Notary signature, is valid
// from nvb on and conflicts with main; the payload is signed by the
// payer.
func notaryRequest(main *transaction.Transaction, parties []account, who int, magic uint32, nvb uint32) *payload.P2PNotaryRequest {
	m := main.Copy()
	m.Witnesses = make([]transaction.Witness, len(m.Signers))
	for i, p := range parties {
		m.Witnesses[i].VerificationScript = p.script
	}
	me := parties[who]
	sd := m.SignData(magic)
	m.Witnesses[who].InvocationScript = pushSig(me.signers[0].Sign(sd[:]))

	fb := transaction.New([]byte{byte(opcode.RET)}, main.Nonce+1+uint32(who), 0, 2_0000_0000, main.ValidUntilBlock)
	fb.Signers = []transaction.Signer{{Account: nativenames.NotaryHash, Scopes: transaction.None}, {Account: me.hash(), Scopes: transaction.None}}
	fb.Attributes = []transaction.Attribute{
		{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 0}},
		{Type: transaction.NotValidBeforeT, Value: &transaction.NotValidBefore{Height: nvb}},
		{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: main.Hash()}},
	}
	fb.Witnesses = []transaction.Witness{
		{InvocationScript: pushSig(make([]byte, 64)), VerificationScript: []byte{}},
		me.witness(fb, magic),
	}
	r := &payload.P2PNotaryRequest{MainTransaction: m, FallbackTransaction: fb}
	rsd := transaction.SignData(magic, r.Hash())
	r.Witness = transaction.Witness{InvocationScript: pushSig(me.signers[0].Sign(rsd[:])), VerificationScript: me.script}
	return r
}

// TestNotaryNodes: on a network with P2PSigExtensions, validators 2 and 3
// are designated P2PNotary nodes and run the notary service. Two users
// fund Notary deposits, then each sends its part of a transaction both
// must sign (a GAS transfer from the second to the first, NotaryAssisted
// with 2 keys) with its own fallback through node 1's
// submitnotaryrequest. Node 1 is no notary: the requests reach the
// notary nodes over P2P, which complete the main transaction with their
// Notary signature; node 1's notary_request_event feed reports both
// requests; the transaction lands and moves the GAS, and the fallbacks (its
// conflicts) leave every notary request pool.
func TestNotaryNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("four nodes")
	}
	t.Parallel()
	vals, _ := startFourValidators(t, 0, func(i int, cfg *config.Config) {
		cfg.ProtocolConfiguration.P2PSigExtensions = true
		app := &cfg.ApplicationConfiguration
		if i == 2 || i == 3 {
			app.P2PNotary.Enabled = true
			app.P2PNotary.UnlockWallet = app.Consensus.UnlockWallet
		}
	})
	if vals[0].NotaryService() != nil || vals[1].NotaryService() == nil || vals[0].NotaryRequestPool() == nil {
		t.Fatal("notary service on the wrong nodes")
	}
	s := newTxSender(t, vals[0])
	ctx := context.Background()
	waitBlockCount(t, s.c, 2)
	magic := s.magic

	committee := committeeOf(t, vals)
	users := []account{sigAccount(mustNewKey(t)), sigAccount(mustNewKey(t))}
	s.run(committee, chaintest.Script(func(w *nio.BinWriter) {
		designateScript(w, noderoles.P2PNotary, vals[1].ValidatorKeys()[0], vals[2].ValidatorKeys()[0])
		for _, u := range users {
			emit.AppCall(w, nativenames.GasHash, "transfer", callflag.All, committee.hash(), u.hash(), big.NewInt(100_0000_0000), nil)
			emit.Opcodes(w, opcode.ASSERT)
		}
	}), 1_0000_0000)
	const depositTill = 100000
	var deposits []hash.Uint256
	for _, u := range users {
		deposits = append(deposits, s.send(u, chaintest.CallScript(nativenames.GasHash, "transfer", u.hash(), nativenames.NotaryHash,
			10_0000_0000, []any{nil, int64(depositTill)}), 1_0000_0000))
	}
	for _, h := range deposits {
		s.wait(h)
	}

	// The main transaction: B pays A 7 GAS; A pays the fees.
	a, b := users[0], users[1]
	h := vals[0].Chain().BlockHeight()
	s.nonce++
	main := transaction.New(chaintest.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.GasHash, "transfer", callflag.All, b.hash(), a.hash(), big.NewInt(7_0000_0000), nil)
		emit.Opcodes(w, opcode.ASSERT)
	}), s.nonce, 1_0000_0000, 1_0000_0000, h+100)
	main.Signers = []transaction.Signer{
		{Account: a.hash(), Scopes: transaction.CalledByEntry},
		{Account: b.hash(), Scopes: transaction.CalledByEntry},
		{Account: nativenames.NotaryHash, Scopes: transaction.None},
	}
	main.Attributes = []transaction.Attribute{{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 2}}}
	before := gasBalance(t, s.c, a.hash())

	// Node 1's notary_request_event feed reports the pooled requests.
	wctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	ws, err := rpcclient.DialWS(wctx, "ws://"+vals[0].RPCAddresses()[0]+"/ws", rpcclient.WSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	events := make(chan rpcclient.Notification, 16)
	if _, err := ws.Subscribe(wctx, neorpc.NotaryRequestEventID, nil, events); err != nil {
		t.Fatal(err)
	}

	var fallbacks []*transaction.Transaction
	for who := range users {
		r := notaryRequest(main, users, who, magic, h+50)
		raw, err := nio.ToBytes(r)
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Hash string `json:"hash"`
		}
		if err := s.c.Call(ctx, "submitnotaryrequest", []any{base64.StdEncoding.EncodeToString(raw)}, &res); err != nil {
			t.Fatalf("submitnotaryrequest %d: %v", who, err)
		}
		if res.Hash != "0x"+r.FallbackTransaction.Hash().StringLE() {
			t.Fatalf("submitnotaryrequest %d: %+v", who, res)
		}
		fallbacks = append(fallbacks, r.FallbackTransaction)
	}

	added := make(map[string]bool)
	for len(added) < len(fallbacks) {
		select {
		case ev := <-events:
			var e struct {
				Type    string `json:"type"`
				Request struct {
					Main     struct{ Hash string } `json:"maintx"`
					Fallback struct{ Hash string } `json:"fallbacktx"`
				} `json:"notaryrequest"`
			}
			if err := json.Unmarshal(ev.Payload, &e); err != nil {
				t.Fatal(err)
			}
			if e.Type == "added" {
				if e.Request.Main.Hash != "0x"+main.Hash().StringLE() {
					t.Fatalf("notary_request_event: %s", ev.Payload)
				}
				added[e.Request.Fallback.Hash] = true
			}
		case <-wctx.Done():
			t.Fatalf("notary_request_event: %d of %d requests reported", len(added), len(fallbacks))
		}
	}
	for _, fb := range fallbacks {
		if !added["0x"+fb.Hash().StringLE()] {
			t.Fatalf("notary_request_event: fallback %s not reported: %v", fb.Hash().StringLE(), added)
		}
	}

	exec := s.wait(main.Hash())
	landed, _, err := vals[0].Chain().GetTransaction(main.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if len(landed.Witnesses) != 3 || len(landed.Witnesses[2].InvocationScript) != 66 {
		t.Fatalf("main transaction witnesses: %+v", landed.Witnesses)
	}
	after := gasBalance(t, s.c, a.hash())
	if got := new(big.Int).Sub(after, before); got.Int64() != 7_0000_0000-main.SystemFee-main.NetworkFee {
		t.Fatalf("A's balance changed by %s", got)
	}
	for i, n := range vals {
		waitFor(t, "notary pool of node emptied", func() bool { return n.NotaryRequestPool().Count() == 0 })
		for _, fb := range fallbacks {
			if _, _, err := n.Chain().GetTransaction(fb.Hash()); err == nil {
				t.Fatalf("node %d: fallback %s landed", i+1, fb.Hash().StringLE())
			}
		}
	}

	// B never sends its part of a second transaction: from NotValidBefore
	// on, a notary node completes A's fallback, paid from A's deposit.
	h = vals[0].Chain().BlockHeight()
	s.nonce += 10
	main2 := main.Copy()
	main2.Nonce = s.nonce
	main2.ValidUntilBlock = h + 100
	r := notaryRequest(main2, users, 0, magic, h+8)
	raw, err := nio.ToBytes(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.c.Call(ctx, "submitnotaryrequest", []any{base64.StdEncoding.EncodeToString(raw)}, nil); err != nil {
		t.Fatal(err)
	}
	s.wait(r.FallbackTransaction.Hash())
	fbAt, err := s.c.GetTransactionHeight(ctx, r.FallbackTransaction.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if fbAt < h+8 {
		t.Fatalf("fallback in block %d, before NotValidBefore %d", fbAt, h+8)
	}
	if _, _, err := vals[0].Chain().GetTransaction(main2.Hash()); err == nil {
		t.Fatal("the incomplete main transaction landed")
	}
	t.Logf("main transaction %s landed (GAS %d); the fallback of an incomplete one landed in block %d (NotValidBefore %d)",
		main.Hash().StringLE(), exec.GasConsumed, fbAt, h+8)
}

func mustNewKey(t testing.TB) *keys.PrivateKey {
	t.Helper()
	k, err := keys.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

package actor

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/rpctest"
	sccontext "github.com/n3node/n3node/pkg/smartcontract/context"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/n3node/n3node/pkg/wallet"
)

func testKey(t *testing.T, seed byte) *keys.PrivateKey {
	t.Helper()
	b := make([]byte, 32)
	for i := range b {
		b[i] = seed + byte(i)
	}
	k, err := keys.NewPrivateKeyFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

type fixture struct {
	srv   *rpctest.Server
	chain *rpctest.Chain
	cli   *rpcclient.Client
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv := rpctest.NewServer()
	t.Cleanup(srv.Close)
	chain := rpctest.NewChain()
	chain.Serve(srv)
	cli, err := rpcclient.New(srv.URL, rpcclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cli.Close)
	return &fixture{srv: srv, chain: chain, cli: cli}
}

func signer(acc *wallet.Account, scope transaction.WitnessScope) SignerAccount {
	return SignerAccount{Signer: transaction.Signer{Account: acc.ScriptHash(), Scopes: scope}, Account: acc}
}

func TestSingleSigTransaction(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	acc := wallet.NewAccountFromPrivateKey(testKey(t, 1))
	act, err := New(ctx, f.cli, []SignerAccount{signer(acc, transaction.CalledByEntry)}, Options{
		SystemFeeExtra: 5, NetworkFeeExtra: 7, Nonce: func() uint32 { return 42 },
	})
	if err != nil {
		t.Fatal(err)
	}
	if act.Network() != 56753 || act.Sender() != acc.ScriptHash() {
		t.Fatalf("network %d sender %s", act.Network(), act.Sender().StringLE())
	}
	script := []byte{0x11, 0x40} // PUSH1 RET
	tx, res, err := act.MakeUnsignedRun(ctx, script)
	if err != nil {
		t.Fatal(err)
	}
	if res.GasConsumed != f.chain.InvokeGas {
		t.Errorf("test run GAS %d", res.GasConsumed)
	}
	if tx.Nonce != 42 || tx.SystemFee != f.chain.InvokeGas+5 {
		t.Errorf("nonce %d sysfee %d", tx.Nonce, tx.SystemFee)
	}
	// Block count 11, one validator: 11 + 1 + 1.
	if tx.ValidUntilBlock != 13 {
		t.Errorf("ValidUntilBlock %d, want 13", tx.ValidUntilBlock)
	}
	// The fee request carried the verification script and an empty invocation.
	calls := f.srv.Calls("calculatenetworkfee")
	if len(calls) != 1 {
		t.Fatalf("%d calculatenetworkfee calls", len(calls))
	}
	var raw []byte
	if err := json.Unmarshal(calls[0].Params[0], &raw); err != nil {
		t.Fatal(err)
	}
	sent, err := transaction.NewTransactionFromBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(sent.Witnesses) != 1 || len(sent.Witnesses[0].InvocationScript) != 0 ||
		string(sent.Witnesses[0].VerificationScript) != string(acc.Contract.Script) {
		t.Errorf("fee request witnesses %+v", sent.Witnesses)
	}
	if want := f.chain.FeePerByte*int64(sent.Size()) + f.chain.VerifyFee + 7; tx.NetworkFee != want {
		t.Errorf("network fee %d, want %d", tx.NetworkFee, want)
	}
	// The invocation carried the signer.
	inv := f.srv.Calls("invokescript")[0]
	var sigs []transaction.Signer
	if err := json.Unmarshal(inv.Params[1], &sigs); err != nil || len(sigs) != 1 || sigs[0].Scopes != transaction.CalledByEntry {
		t.Errorf("invokescript signers %s: %v", inv.Params[1], err)
	}

	h, err := act.SignAndSend(ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	if h != tx.Hash() {
		t.Errorf("hash %s, want %s", h.StringLE(), tx.Hash().StringLE())
	}
	aer, err := act.Wait(ctx, h, tx.ValidUntilBlock)
	if err != nil {
		t.Fatal(err)
	}
	if aer.Container != h || aer.VMState != vmstate.Halt {
		t.Errorf("wait result %+v", aer)
	}
}

func TestFaultAndChecks(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	acc := wallet.NewAccountFromPrivateKey(testKey(t, 1))
	if _, err := New(ctx, f.cli, nil, Options{}); !errors.Is(err, ErrNoSigners) {
		t.Errorf("no signers: %v", err)
	}
	other := wallet.NewAccountFromPrivateKey(testKey(t, 2))
	bad := SignerAccount{Signer: transaction.Signer{Account: other.ScriptHash()}, Account: acc}
	if _, err := New(ctx, f.cli, []SignerAccount{bad}, Options{}); !errors.Is(err, ErrWrongAccount) {
		t.Errorf("mismatched account: %v", err)
	}
	act, err := New(ctx, f.cli, []SignerAccount{signer(acc, transaction.CalledByEntry)}, Options{MaxValidity: true})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.Do(func() { f.chain.InvokeFault = "at instruction 0 (ABORT): ABORT" })
	_, res, err := act.MakeUnsignedRun(ctx, []byte{0x38})
	if !errors.Is(err, rpcclient.ErrFault) || res == nil || res.State != "FAULT" {
		t.Errorf("FAULT: %v %+v", err, res)
	}
	f.srv.Do(func() { f.chain.InvokeFault = "" })
	if _, err := act.MakeUnsignedUncheckedRun(ctx, nil, 1); !errors.Is(err, ErrEmptyScript) {
		t.Errorf("empty script: %v", err)
	}
	if _, err := act.MakeUnsignedUncheckedRun(ctx, []byte{0x40}, -1); !errors.Is(err, ErrNegativeFee) {
		t.Errorf("negative fee: %v", err)
	}
	tx, err := act.MakeUnsignedUncheckedRun(ctx, []byte{0x40}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// MaxValidity: block count 11 + 5760 - 1.
	if tx.ValidUntilBlock != 11+5760-1 {
		t.Errorf("long-lived ValidUntilBlock %d", tx.ValidUntilBlock)
	}
}

// TestMultisigAcrossWallets is the parameter-context flow: a 2-of-3
// multi-signature account whose holders keep their keys in different
// wallets. The first signs and saves the context, the second completes
// and sends it; the fake node checks the witness.
func TestMultisigAcrossWallets(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	k1, k2, k3 := testKey(t, 1), testKey(t, 2), testKey(t, 3)
	pubs := []*keys.PublicKey{k1.PublicKey(), k2.PublicKey(), k3.PublicKey()}
	acc1, err := wallet.NewMultisigAccount(k1, 2, pubs)
	if err != nil {
		t.Fatal(err)
	}
	acc2, err := wallet.NewMultisigAccount(k2, 2, pubs)
	if err != nil {
		t.Fatal(err)
	}
	if acc1.ScriptHash() != acc2.ScriptHash() {
		t.Fatal("the two shares have different addresses")
	}
	act, err := New(ctx, f.cli, []SignerAccount{signer(acc1, transaction.CalledByEntry)}, Options{MaxValidity: true})
	if err != nil {
		t.Fatal(err)
	}
	tx, _, err := act.MakeUnsignedRun(ctx, []byte{0x11, 0x40})
	if err != nil {
		t.Fatal(err)
	}
	pc, err := act.Sign(tx)
	if err != nil {
		t.Fatal(err)
	}
	if pc.IsComplete() {
		t.Fatal("one of two signatures makes a complete context")
	}
	if _, err := act.Send(ctx, pc); !errors.Is(err, ErrIncomplete) {
		t.Fatalf("incomplete send: %v", err)
	}
	// Through the file form, as `wallet sign` reads it.
	data, err := json.Marshal(pc)
	if err != nil {
		t.Fatal(err)
	}
	pc2 := new(sccontext.ParameterContext)
	if err := json.Unmarshal(data, pc2); err != nil {
		t.Fatal(err)
	}
	if err := SignContext(pc2, acc2); err != nil {
		t.Fatal(err)
	}
	// Signing twice with the same key changes nothing.
	if err := SignContext(pc2, acc2); err != nil {
		t.Fatal(err)
	}
	if !pc2.IsComplete() {
		t.Fatal("two of two signatures do not complete the context")
	}
	h, err := SendContext(ctx, f.cli, pc2)
	if err != nil {
		t.Fatal(err)
	}
	if h != tx.Hash() {
		t.Errorf("sent %s, built %s", h.StringLE(), tx.Hash().StringLE())
	}
	// A key outside the multisig cannot sign.
	stranger, _ := wallet.NewMultisigAccount(testKey(t, 9), 1, []*keys.PublicKey{testKey(t, 9).PublicKey()})
	if err := SignContext(pc2, stranger); !errors.Is(err, sccontext.ErrNotSigner) {
		t.Errorf("stranger: %v", err)
	}
}

func TestWaitNotAccepted(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	h := hash.Uint256{1}
	_, err := Wait(ctx, f.cli, h, 5, time.Millisecond)
	if !errors.Is(err, ErrTxNotAccepted) {
		t.Fatalf("expired: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel()
	_, err = Wait(cctx, f.cli, h, 1000, time.Millisecond)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline: %v", err)
	}
	// A node that keeps failing: the error comes back after the retries.
	f.srv.Handle("getblockcount", func([]json.RawMessage) (any, error) { return nil, errors.New("down") })
	if _, err := Wait(ctx, f.cli, h, 1000, time.Millisecond); err == nil {
		t.Fatal("failing node: no error")
	}
	if n := len(f.srv.Calls("getblockcount")); n < waitRetries+1 {
		t.Errorf("%d getblockcount calls", n)
	}
}

func mustSign(t *testing.T, act *Actor, tx *transaction.Transaction) *sccontext.ParameterContext {
	t.Helper()
	pc, err := act.Sign(tx)
	if err != nil {
		t.Fatal(err)
	}
	return pc
}

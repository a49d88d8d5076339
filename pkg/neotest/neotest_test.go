package neotest_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neotest"
	"github.com/n3node/n3node/pkg/neotest/chain"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/wallet"
)

func bank(t *testing.T, e *neotest.Executor) *neotest.Contract {
	return neotest.CompileFile(t, e.Validator.ScriptHash(), "testdata/bank", "testdata/bank/bank.yml")
}

func TestDeployAndInvoke(t *testing.T) {
	bc, acc := chain.NewSingle(t)
	e := neotest.NewExecutor(t, bc, acc, acc)
	c := bank(t, e)
	e.DeployContract(t, c, e.Validator.ScriptHash())
	if cs := bc.GetContractState(c.Hash); cs == nil || cs.Manifest.Name != "bank" {
		t.Fatalf("contract not deployed: %v", cs)
	}
	inv := e.CommitteeInvoker(c.Hash)
	inv.Invoke(t, 5, "add", 2, 3)
	// The stored owner comes back as a Buffer (the type assertion converts).
	owner := e.Validator.ScriptHash()
	inv.Invoke(t, stackitem.NewBuffer(owner[:]), "owner")
	h := inv.Invoke(t, stackitem.NewBuffer([]byte("hi bob")), "hello", "bob") // CAT makes a Buffer
	e.CheckTxNotificationEvents(t, h, []state.NotificationEvent{{
		ScriptHash: c.Hash, Name: "Hello",
		Item: stackitem.NewArray([]stackitem.Item{stackitem.NewByteString([]byte("bob"))}),
	}})
	inv.InvokeAndCheck(t, func(t testing.TB, stack []stackitem.Item) {
		if len(stack) != 1 || stack[0].Type() != stackitem.IntegerT {
			t.Fatalf("stack %v", stack)
		}
	}, "add", 40, 2)
	st, err := inv.TestInvoke(t, "add", 1, 1)
	if err != nil || st.Len() != 1 {
		t.Fatalf("test invoke: %v %v", st, err)
	}
	if v, _ := st.Items()[0].TryInteger(); v.Int64() != 2 {
		t.Fatalf("test invoke result %v", v)
	}
	// The same contract from a second sender has another hash.
	other := e.NewAccount(t)
	c2 := neotest.CompileFile(t, other.ScriptHash(), "testdata/bank", "testdata/bank/bank.yml")
	if c2 != c {
		t.Fatal("compilation is not cached")
	}
}

func TestFaultAndGAS(t *testing.T) {
	bc, acc := chain.NewSingle(t)
	e := neotest.NewExecutor(t, bc, acc, acc)
	c := bank(t, e)
	e.DeployContract(t, c, e.Validator.ScriptHash())

	// GAS to the contract (a native call; the contract accepts it).
	gasInv := e.ValidatorInvoker(nativenames.GasHash)
	gasInv.Invoke(t, true, "transfer", e.Validator.ScriptHash(), c.Hash, 10_0000_0000, nil)
	e.CheckGASBalance(t, c.Hash, big.NewInt(10_0000_0000))

	stranger := e.NewAccount(t, 5_0000_0000)
	e.CheckGASBalance(t, stranger.ScriptHash(), big.NewInt(5_0000_0000))
	inv := e.NewInvoker(c.Hash, stranger)
	inv.InvokeFail(t, "not owner", "withdraw", stranger.ScriptHash(), 1)
	// The stranger paid the fees of the failed call.
	e.EnsureGASBalance(t, stranger.ScriptHash(), func(b *big.Int) bool { return b.Cmp(big.NewInt(5_0000_0000)) < 0 })

	// The owner (the validators) may withdraw.
	e.ValidatorInvoker(c.Hash).Invoke(t, true, "withdraw", stranger.ScriptHash(), 3_0000_0000)
	e.CheckGASBalance(t, c.Hash, big.NewInt(7_0000_0000))

	// NEO moves too.
	neoInv := e.CommitteeInvoker(nativenames.NeoHash)
	neoInv.Invoke(t, true, "transfer", e.Committee.ScriptHash(), stranger.ScriptHash(), 10, nil)
	neoInv.Invoke(t, 10, "balanceOf", stranger.ScriptHash())

	// A deployment that fails in _deploy (no owner to store).
	bad := *c
	e.DeployContractCheckFAULT(t, &bad, nil, "")
}

func TestMultisigOwner(t *testing.T) {
	bc, acc := chain.NewSingle(t)
	e := neotest.NewExecutor(t, bc, acc, acc)
	var ks [3]*keys.PrivateKey
	pubs := make([]*keys.PublicKey, 3)
	for i := range ks {
		k, err := keys.NewPrivateKey()
		if err != nil {
			t.Fatal(err)
		}
		ks[i], pubs[i] = k, k.PublicKey()
	}
	accs := make([]*wallet.Account, 2)
	for i := range accs {
		accs[i] = wallet.NewAccountFromPrivateKey(ks[i])
		if err := accs[i].ConvertMultisig(2, pubs); err != nil {
			t.Fatal(err)
		}
	}
	ms := neotest.NewMultiSigner(accs...)
	c := bank(t, e)
	e.DeployContract(t, c, ms.ScriptHash())
	e.ValidatorInvoker(nativenames.GasHash).Invoke(t, true, "transfer", e.Validator.ScriptHash(), ms.ScriptHash(), 50_0000_0000, nil)
	e.ValidatorInvoker(nativenames.GasHash).Invoke(t, true, "transfer", e.Validator.ScriptHash(), c.Hash, 1_0000_0000, nil)
	to := e.NewAccount(t, 1)
	e.NewInvoker(c.Hash, ms).Invoke(t, true, "withdraw", to.ScriptHash(), 1_0000_0000)
	e.CheckGASBalance(t, to.ScriptHash(), big.NewInt(1_0000_0001))
	// One key of the pair is not the owner.
	single := ms.Single(0)
	e.ValidatorInvoker(nativenames.GasHash).Invoke(t, true, "transfer", e.Validator.ScriptHash(), single.ScriptHash(), 10_0000_0000, nil)
	e.NewInvoker(c.Hash, single).InvokeFail(t, "not owner", "withdraw", to.ScriptHash(), 1)
}

func TestContractSigner(t *testing.T) {
	bc, acc := chain.NewSingle(t)
	e := neotest.NewExecutor(t, bc, acc, acc)
	c := bank(t, e)
	e.DeployContract(t, c, e.Validator.ScriptHash())
	good := neotest.NewContractSigner(c.Hash, func(*transaction.Transaction) []any { return []any{42} })
	e.NewInvoker(c.Hash, e.Validator, good).Invoke(t, true, "signedByMe")
	e.NewInvoker(c.Hash, e.Validator).Invoke(t, false, "signedByMe")
}

func TestMulti(t *testing.T) {
	bc, v, c := chain.NewMulti(t)
	if v.ScriptHash() == c.ScriptHash() {
		t.Fatal("validators and committee share an account")
	}
	e := neotest.NewExecutor(t, bc, v, c)
	if bc.Config().ValidatorsCount != 4 || len(bc.GetCommittee()) != 6 {
		t.Fatal("bad multi chain")
	}
	if got := bc.GetCommitteeAddress(); got != e.CommitteeHash {
		t.Fatalf("committee %s, signer %s", got.StringLE(), e.CommitteeHash.StringLE())
	}
	acc := e.NewAccount(t)
	e.CheckGASBalance(t, acc.ScriptHash(), big.NewInt(100_0000_0000))
	// A committee-only method (the genesis GAS is the validators').
	e.ValidatorInvoker(nativenames.GasHash).Invoke(t, true, "transfer", v.ScriptHash(), c.ScriptHash(), 100_0000_0000, nil)
	e.CommitteeInvoker(nativenames.PolicyHash).Invoke(t, nil, "setFeePerByte", 2000)
	e.CommitteeInvoker(nativenames.PolicyHash).Invoke(t, 2000, "getFeePerByte")
	e.ValidatorInvoker(nativenames.PolicyHash).InvokeFail(t, "", "setFeePerByte", 3000)
}

func TestCoverage(t *testing.T) {
	bc, acc := chain.NewSingle(t)
	e := neotest.NewExecutor(t, bc, acc, acc)
	profile := neotest.CollectCoverage(t, e)
	c := bank(t, e)
	e.DeployContract(t, c, e.Validator.ScriptHash())
	e.CommitteeInvoker(c.Hash).Invoke(t, 5, "add", 2, 3)
	p := profile()
	if !strings.HasPrefix(p, "mode: set\n") {
		t.Fatalf("profile:\n%s", p)
	}
	covered := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(p), "\n")[1:] {
		f := strings.Fields(l)
		file, rest, _ := strings.Cut(f[0], ":")
		if !strings.HasSuffix(file, "bank.go") {
			continue // interop wrappers' documents
		}
		line, _, _ := strings.Cut(rest, ".")
		covered[line] = covered[line] || f[2] == "1"
	}
	// Line 23 (Add's return) ran; 40 (Withdraw's panic) and 16
	// (_deploy's return on update) did not.
	for line, want := range map[string]bool{"23": true, "16": false, "40": false} {
		if got, ok := covered[line]; !ok || got != want {
			t.Errorf("line %s: covered %v (present %v), want %v\n%s", line, got, ok, want, p)
		}
	}
}

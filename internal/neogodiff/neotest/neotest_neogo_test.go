package neotest_test

import (
	"encoding/json"
	"testing"

	ngstate "github.com/nspcc-dev/neo-go/pkg/core/state"
	ngtx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	ngneotest "github.com/nspcc-dev/neo-go/pkg/neotest"
	ngchain "github.com/nspcc-dev/neo-go/pkg/neotest/chain"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neotest"
	"github.com/n3node/n3node/pkg/neotest/chain"
)

// bankDir is the test contract of pkg/neotest.
const bankDir = "../../../pkg/neotest/testdata/bank"

// txOutcome is what both frameworks must agree on for a transaction.
type txOutcome struct {
	SystemFee, NetworkFee int64
	State                 string
	GAS                   int64
	Exception             string
	Stack                 string
	Events                string
}

func ours(tx *transaction.Transaction, aer *state.AppExecResult) txOutcome {
	st, _ := json.Marshal(aer.StackJSON())
	ev, _ := json.Marshal(aer.Events)
	return txOutcome{tx.SystemFee, tx.NetworkFee, aer.VMState.String(), aer.GasConsumed, aer.FaultException, string(st), string(ev)}
}

func theirs(tx *ngtx.Transaction, aer *ngstate.AppExecResult) txOutcome {
	raw, _ := json.Marshal(aer)
	var j struct {
		Stack  json.RawMessage `json:"stack"`
		Events json.RawMessage `json:"notifications"`
	}
	_ = json.Unmarshal(raw, &j)
	st, _ := json.Marshal(json.RawMessage(j.Stack))
	ev, _ := json.Marshal(json.RawMessage(j.Events))
	return txOutcome{tx.SystemFee, tx.NetworkFee, aer.VMState.String(), aer.GasConsumed, aer.FaultException, string(st), string(ev)}
}

// TestSameAsNeoGo runs one scenario with n3node's neotest on an n3node
// chain and with neo-go 0.120.0's neotest on a neo-go chain (same keys,
// same contract compiled by each side's compiler) and compares every
// transaction: fees, state, GAS, stack, notifications and exception.
func TestSameAsNeoGo(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles with both compilers")
	}
	bc, acc := chain.NewSingle(t)
	e := neotest.NewExecutor(t, bc, acc, acc)
	nbc, nacc := ngchain.NewSingle(t)
	ne := ngneotest.NewExecutor(t, nbc, nacc, nacc)
	if e.CommitteeHash.StringLE() != ne.CommitteeHash.StringLE() {
		t.Fatalf("committees differ: %s, %s", e.CommitteeHash.StringLE(), ne.CommitteeHash.StringLE())
	}
	c := neotest.CompileFile(t, e.CommitteeHash, bankDir, bankDir+"/bank.yml")
	nc := ngneotest.CompileFile(t, ne.CommitteeHash, bankDir, bankDir+"/bank.yml")
	if c.Hash.StringLE() != nc.Hash.StringLE() {
		t.Fatalf("contract hashes differ: %s, %s", c.Hash.StringLE(), nc.Hash.StringLE())
	}

	type step struct {
		name   string
		ours   func() (*transaction.Transaction, bool)
		theirs func() (*ngtx.Transaction, bool)
	}
	owner := e.Validator.ScriptHash()
	nowner := ne.Validator.ScriptHash()
	gasH, _ := hash.Uint160DecodeStringLE("d2a4cff31913016155e38e474a2c06d08be276cf")
	ngGas, _ := ngutil.Uint160DecodeStringLE("d2a4cff31913016155e38e474a2c06d08be276cf")
	call := func(h hash.Uint160, nh ngutil.Uint160, method string, args []any, nargs []any) step {
		return step{method,
			func() (*transaction.Transaction, bool) {
				tx := e.NewTx(t, []neotest.Signer{e.Validator}, h, method, args...)
				e.AddNewBlock(t, tx)
				return tx, true
			},
			func() (*ngtx.Transaction, bool) {
				tx := ne.NewTx(t, []ngneotest.Signer{ne.Validator}, nh, method, nargs...)
				ne.AddNewBlock(t, tx)
				return tx, true
			}}
	}
	nch := ngutil.Uint160(nc.Hash)
	steps := []step{
		{"deploy",
			func() (*transaction.Transaction, bool) {
				tx := e.NewDeployTx(t, c, owner)
				e.AddNewBlock(t, tx)
				return tx, true
			},
			func() (*ngtx.Transaction, bool) {
				tx := ne.NewDeployTx(t, nc, nowner)
				ne.AddNewBlock(t, tx)
				return tx, true
			}},
		call(c.Hash, nch, "add", []any{2, 3}, []any{2, 3}),
		call(c.Hash, nch, "hello", []any{"bob"}, []any{"bob"}),
		call(c.Hash, nch, "owner", nil, nil),
		call(gasH, ngGas, "transfer", []any{owner, c.Hash, 10_0000_0000, nil}, []any{nowner, nch, 10_0000_0000, nil}),
		call(c.Hash, nch, "withdraw", []any{c.Hash, 1}, []any{nch, 1}),
		call(c.Hash, nch, "withdraw", []any{owner, 3_0000_0000}, []any{nowner, 3_0000_0000}),
		call(c.Hash, nch, "onNEP17Payment", []any{owner, 1, nil}, []any{nowner, 1, nil}),
	}
	for _, s := range steps {
		tx, _ := s.ours()
		ntx, _ := s.theirs()
		got := ours(tx, e.GetTxExecResult(t, tx.Hash()))
		want := theirs(ntx, ne.GetTxExecResult(t, ntx.Hash()))
		t.Logf("%s: %+v", s.name, got)
		if got != want {
			t.Errorf("%s:\n  n3node %+v\n  neo-go %+v", s.name, got, want)
		}
	}
}

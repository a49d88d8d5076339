package neotest

import (
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// ContractInvoker calls one contract with a fixed set of signers.
type ContractInvoker struct {
	*Executor
	// Hash is the contract called.
	Hash hash.Uint160
	// Signers sign every transaction (Global scope), the first pays.
	Signers []Signer
}

// NewInvoker returns an invoker of contract h signed by signers.
func (e *Executor) NewInvoker(h hash.Uint160, signers ...Signer) *ContractInvoker {
	return &ContractInvoker{Executor: e, Hash: h, Signers: signers}
}

// CommitteeInvoker returns an invoker of contract h signed by the
// committee.
func (e *Executor) CommitteeInvoker(h hash.Uint160) *ContractInvoker {
	return e.NewInvoker(h, e.Committee)
}

// ValidatorInvoker returns an invoker of contract h signed by the
// validators.
func (e *Executor) ValidatorInvoker(h hash.Uint160) *ContractInvoker {
	return e.NewInvoker(h, e.Validator)
}

// WithSigners returns a copy of c with other signers.
func (c *ContractInvoker) WithSigners(signers ...Signer) *ContractInvoker {
	n := *c
	n.Signers = signers
	return &n
}

// testRun runs tx in a test VM over the next block (registering the
// context's finalisation with t) and returns the evaluation stack.
func (c *ContractInvoker) testRun(t testing.TB, tx *transaction.Transaction) (*Stack, error) {
	t.Helper()
	ic, err := c.Chain.GetTestVM(trigger.Application, tx, c.NewUnsignedBlock(t, tx))
	if err != nil {
		return nil, err
	}
	t.Cleanup(ic.Finalize)
	c.hookCoverage(ic.VM)
	if err := ic.LoadScript(tx.Script, callflag.All); err != nil {
		return nil, err
	}
	if ic.VM.Execute() == vmstate.Fault {
		if s := ic.VM.Estack(); s != nil {
			return newStack(s.Items()), ic.VM.FaultError()
		}
		return newStack(ic.VM.ResultStack().Items()), ic.VM.FaultError()
	}
	return newStack(ic.VM.ResultStack().Items()), nil
}

// TestInvokeScript runs script with signers (Global scope) in a test VM
// and returns the result stack and the fault, if any. Nothing persists.
func (c *ContractInvoker) TestInvokeScript(t testing.TB, script []byte, signers []Signer, validUntilBlock ...uint32) (*Stack, error) {
	t.Helper()
	tx := c.PrepareInvocationNoSign(t, script, validUntilBlock...)
	for _, s := range signers {
		tx.Signers = append(tx.Signers, transaction.Signer{Account: s.ScriptHash(), Scopes: transaction.Global})
	}
	return c.testRun(t, tx)
}

// TestInvoke calls method with args in a test VM (without signers) and
// returns the result stack and the fault, if any.
func (c *ContractInvoker) TestInvoke(t testing.TB, method string, args ...any) (*Stack, error) {
	t.Helper()
	return c.testRun(t, c.PrepareInvokeNoSign(t, method, args...))
}

// PrepareInvoke returns a signed transaction calling method.
func (c *ContractInvoker) PrepareInvoke(t testing.TB, method string, args ...any) *transaction.Transaction {
	t.Helper()
	return c.NewTx(t, c.Signers, c.Hash, method, args...)
}

// PrepareInvokeNoSign returns an unsigned transaction calling method.
func (c *ContractInvoker) PrepareInvokeNoSign(t testing.TB, method string, args ...any) *transaction.Transaction {
	t.Helper()
	return c.NewUnsignedTx(t, c.Hash, method, args...)
}

// Invoke calls method in a new block, requires HALT with result (see
// Item) as the only item on the stack and returns the transaction hash.
func (c *ContractInvoker) Invoke(t testing.TB, result any, method string, args ...any) hash.Uint256 {
	t.Helper()
	tx := c.PrepareInvoke(t, method, args...)
	c.AddNewBlock(t, tx)
	c.CheckHalt(t, tx.Hash(), stackitem.Make(result))
	return tx.Hash()
}

// InvokeWithFee is Invoke with a fixed system fee.
func (c *ContractInvoker) InvokeWithFee(t testing.TB, result any, sysFee int64, method string, args ...any) hash.Uint256 {
	t.Helper()
	tx := c.SignTx(t, c.PrepareInvokeNoSign(t, method, args...), sysFee, c.Signers...)
	c.AddNewBlock(t, tx)
	c.CheckHalt(t, tx.Hash(), stackitem.Make(result))
	return tx.Hash()
}

// InvokeAndCheck calls method in a new block, requires HALT and passes
// the result stack to checkResult (if not nil).
func (c *ContractInvoker) InvokeAndCheck(t testing.TB, checkResult func(t testing.TB, stack []stackitem.Item), method string, args ...any) hash.Uint256 {
	t.Helper()
	tx := c.PrepareInvoke(t, method, args...)
	c.AddNewBlock(t, tx)
	aer := c.CheckHalt(t, tx.Hash())
	if checkResult != nil {
		checkResult(t, aer.Stack)
	}
	return tx.Hash()
}

// InvokeFail calls method in a new block and requires FAULT with message
// in the exception.
func (c *ContractInvoker) InvokeFail(t testing.TB, message string, method string, args ...any) hash.Uint256 {
	t.Helper()
	tx := c.PrepareInvoke(t, method, args...)
	c.AddNewBlock(t, tx)
	c.CheckFault(t, tx.Hash(), message)
	return tx.Hash()
}

// InvokeWithFeeFail is InvokeFail with a fixed system fee.
func (c *ContractInvoker) InvokeWithFeeFail(t testing.TB, message string, sysFee int64, method string, args ...any) hash.Uint256 {
	t.Helper()
	tx := c.SignTx(t, c.PrepareInvokeNoSign(t, method, args...), sysFee, c.Signers...)
	c.AddNewBlock(t, tx)
	c.CheckFault(t, tx.Hash(), message)
	return tx.Hash()
}

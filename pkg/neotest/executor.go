package neotest

import (
	"encoding/json"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/n3node/n3node/pkg/wallet"

	nio "github.com/n3node/n3node/pkg/io"
)

// Executor drives one test chain: it builds, signs and adds blocks of
// transactions and checks their results. It is not safe for concurrent
// use.
type Executor struct {
	// Chain is the ledger under test.
	Chain *core.Blockchain
	// Validator signs blocks (the validators' multisig); Committee is the
	// committee's multisig.
	Validator Signer
	Committee Signer
	// CommitteeHash is Committee.ScriptHash().
	CommitteeHash hash.Uint160

	cov *coverage
}

var nonceCounter atomic.Uint32

// Nonce returns a new transaction nonce (a process-wide counter, so that
// equal transactions built by different tests differ).
func Nonce() uint32 { return nonceCounter.Add(1) }

// NewExecutor returns an executor over bc whose blocks validator signs.
// Both signers must be multi-signature signers (as the chain package
// returns them). Coverage is collected when `go test` writes a cover
// profile (see EnableCoverage).
func NewExecutor(t testing.TB, bc *core.Blockchain, validator, committee Signer) *Executor {
	for _, s := range []Signer{validator, committee} {
		if _, ok := s.(MultiSigner); !ok {
			t.Fatalf("neotest: validator and committee must be multi-signature signers, got %T", s)
		}
	}
	e := &Executor{Chain: bc, Validator: validator, Committee: committee, CommitteeHash: committee.ScriptHash()}
	e.EnableCoverage(t)
	return e
}

func (e *Executor) magic() uint32 { return uint32(e.Chain.Config().Magic) }

// TopBlock returns the last block of the chain.
func (e *Executor) TopBlock(t testing.TB) *block.Block {
	t.Helper()
	return e.GetBlockByIndex(t, e.Chain.BlockHeight())
}

// NativeHash returns the hash of the active native contract called name
// (its manifest name, e.g. "GasToken").
func (e *Executor) NativeHash(t testing.TB, name string) hash.Uint160 {
	t.Helper()
	for _, cs := range e.Chain.GetNatives() {
		if cs.Manifest.Name == name {
			return cs.Hash
		}
	}
	t.Fatalf("neotest: native contract %q is not active", name)
	return hash.Uint160{}
}

// NativeID returns the ID of the active native contract called name.
func (e *Executor) NativeID(t testing.TB, name string) int32 {
	t.Helper()
	cs := e.Chain.GetContractState(e.NativeHash(t, name))
	if cs == nil {
		t.Fatalf("neotest: no state of native %q", name)
	}
	return cs.ID
}

// ContractHash returns the hash of the deployed contract with the ID.
func (e *Executor) ContractHash(t testing.TB, id int32) hash.Uint160 {
	t.Helper()
	cs := e.Chain.GetContractStateByID(id)
	if cs == nil {
		t.Fatalf("neotest: no contract with ID %d", id)
	}
	return cs.Hash
}

// callScript is a System.Contract.Call of method with args.
func callScript(t testing.TB, h hash.Uint160, method string, args ...any) []byte {
	t.Helper()
	s, err := emit.Script(func(w *nio.BinWriter) { emit.AppCall(w, h, method, callflag.All, args...) })
	if err != nil {
		t.Fatalf("neotest: call script of %s: %v", method, err)
	}
	return s
}

// NewUnsignedTx returns a transaction calling method of contract h, valid
// in the next block, without signers and fees.
func (e *Executor) NewUnsignedTx(t testing.TB, h hash.Uint160, method string, args ...any) *transaction.Transaction {
	t.Helper()
	return e.PrepareInvocationNoSign(t, callScript(t, h, method, args...))
}

// NewTx returns a transaction calling method of contract h, signed by
// signers (with the Global scope) and with its fees set.
func (e *Executor) NewTx(t testing.TB, signers []Signer, h hash.Uint160, method string, args ...any) *transaction.Transaction {
	t.Helper()
	return e.SignTx(t, e.NewUnsignedTx(t, h, method, args...), -1, signers...)
}

// SignTx adds signers to tx with the Global scope, sets the network fee
// and the system fee (sysFee, or what a test run consumes if negative)
// and signs it.
func (e *Executor) SignTx(t testing.TB, tx *transaction.Transaction, sysFee int64, signers ...Signer) *transaction.Transaction {
	t.Helper()
	for _, s := range signers {
		tx.Signers = append(tx.Signers, transaction.Signer{Account: s.ScriptHash(), Scopes: transaction.Global})
	}
	AddNetworkFee(t, e.Chain, tx, signers...)
	e.AddSystemFee(tx, sysFee)
	for _, s := range signers {
		if err := s.SignTx(e.Chain.Config().Magic, tx); err != nil {
			t.Fatalf("neotest: signing: %v", err)
		}
	}
	return tx
}

// NewAccount returns a new simple-signature account holding 100 GAS (or
// the amount given), sent by the validators in a new block.
func (e *Executor) NewAccount(t testing.TB, expectedGASBalance ...int64) Signer {
	t.Helper()
	acc, err := wallet.NewAccount()
	if err != nil {
		t.Fatal(err)
	}
	amount := int64(100_0000_0000)
	if len(expectedGASBalance) > 0 {
		amount = expectedGASBalance[0]
	}
	tx := e.NewTx(t, []Signer{e.Validator}, nativenames.GasHash, "transfer",
		e.Validator.ScriptHash(), acc.ScriptHash(), amount, nil)
	e.AddNewBlock(t, tx)
	e.CheckHalt(t, tx.Hash())
	return NewSingleSigner(acc)
}

// DeployContract deploys c from the validators' account with data for
// _deploy and returns the transaction hash; it fails the test unless the
// deployment HALTs with c.Hash.
func (e *Executor) DeployContract(t testing.TB, c *Contract, data any) hash.Uint256 {
	t.Helper()
	return e.DeployContractBy(t, e.Validator, c, data)
}

// DeployContractBy is DeployContract from signer's account.
func (e *Executor) DeployContractBy(t testing.TB, signer Signer, c *Contract, data any) hash.Uint256 {
	t.Helper()
	e.trackCoverage(t, c)
	tx := e.NewDeployTxBy(t, signer, c, data)
	e.AddNewBlock(t, tx)
	e.CheckHalt(t, tx.Hash())
	e.CheckTxNotificationEvent(t, tx.Hash(), -1, state.NotificationEvent{
		ScriptHash: nativenames.ManagementHash,
		Name:       "Deploy",
		Item:       stackitem.NewArray([]stackitem.Item{stackitem.NewByteString(c.Hash[:])}),
	})
	return tx.Hash()
}

// DeployContractCheckFAULT deploys c from the validators' account and
// requires the deployment to FAULT with errMessage in its exception.
func (e *Executor) DeployContractCheckFAULT(t testing.TB, c *Contract, data any, errMessage string) {
	t.Helper()
	e.trackCoverage(t, c)
	tx := e.NewDeployTx(t, c, data)
	e.AddNewBlock(t, tx)
	e.CheckFault(t, tx.Hash(), errMessage)
}

// NewDeployTx returns a deployment transaction of c signed by the
// validators.
func (e *Executor) NewDeployTx(t testing.TB, c *Contract, data any) *transaction.Transaction {
	t.Helper()
	return e.NewDeployTxBy(t, e.Validator, c, data)
}

// NewDeployTxBy returns a deployment transaction of c signed by signer.
func (e *Executor) NewDeployTxBy(t testing.TB, signer Signer, c *Contract, data any) *transaction.Transaction {
	t.Helper()
	raw, err := c.NEF.Bytes()
	if err != nil {
		t.Fatalf("neotest: NEF: %v", err)
	}
	m, err := json.Marshal(c.Manifest)
	if err != nil {
		t.Fatalf("neotest: manifest: %v", err)
	}
	tx := e.PrepareInvocationNoSign(t, callScript(t, nativenames.ManagementHash, "deploy", raw, m, data))
	return e.SignTx(t, tx, -1, signer)
}

// InvokeScript adds a block with a transaction running script signed by
// signers and returns the transaction hash; the result is not checked.
func (e *Executor) InvokeScript(t testing.TB, script []byte, signers []Signer) hash.Uint256 {
	t.Helper()
	tx := e.PrepareInvocation(t, script, signers)
	e.AddNewBlock(t, tx)
	return tx.Hash()
}

// PrepareInvocation returns a signed transaction running script.
func (e *Executor) PrepareInvocation(t testing.TB, script []byte, signers []Signer, validUntilBlock ...uint32) *transaction.Transaction {
	t.Helper()
	return e.SignTx(t, e.PrepareInvocationNoSign(t, script, validUntilBlock...), -1, signers...)
}

// PrepareInvocationNoSign returns a transaction running script, valid
// until the next block (or validUntilBlock), without signers and fees.
func (e *Executor) PrepareInvocationNoSign(t testing.TB, script []byte, validUntilBlock ...uint32) *transaction.Transaction {
	vub := e.Chain.BlockHeight() + 1
	if len(validUntilBlock) > 0 {
		vub = validUntilBlock[0]
	}
	return transaction.New(script, Nonce(), 0, 0, vub)
}

// InvokeScriptCheckHALT runs script in a new block and requires HALT with
// the given stack (if any).
func (e *Executor) InvokeScriptCheckHALT(t testing.TB, script []byte, signers []Signer, stack ...stackitem.Item) {
	t.Helper()
	e.CheckHalt(t, e.InvokeScript(t, script, signers), stack...)
}

// InvokeScriptCheckFAULT runs script in a new block and requires FAULT
// with errMessage in the exception.
func (e *Executor) InvokeScriptCheckFAULT(t testing.TB, script []byte, signers []Signer, errMessage string) hash.Uint256 {
	t.Helper()
	h := e.InvokeScript(t, script, signers)
	e.CheckFault(t, h, errMessage)
	return h
}

// appLog returns the Application execution of transaction h with its
// stack items decoded.
func (e *Executor) appLog(t testing.TB, h hash.Uint256) *state.AppExecResult {
	t.Helper()
	aers, err := e.Chain.GetAppExecResults(h, trigger.Application)
	if err != nil || len(aers) == 0 {
		t.Fatalf("neotest: no application log of %s: %v", h.StringLE(), err)
	}
	aer := &aers[0]
	if err := decodeStack(aer); err != nil {
		t.Fatalf("neotest: result stack of %s: %v", h.StringLE(), err)
	}
	return aer
}

// CheckHalt requires transaction h to have HALTed, with exactly stack on
// its result stack if stack is given, and returns its execution result.
func (e *Executor) CheckHalt(t testing.TB, h hash.Uint256, stack ...stackitem.Item) *state.AppExecResult {
	t.Helper()
	aer := e.appLog(t, h)
	if aer.VMState != vmstate.Halt {
		t.Fatalf("neotest: transaction %s: state %s, want HALT: %s", h.StringLE(), aer.VMState, aer.FaultException)
	}
	if len(stack) > 0 {
		requireItems(t, stack, aer.Stack, "result stack")
	}
	return aer
}

// CheckFault requires transaction h to have FAULTed with s in its
// exception.
func (e *Executor) CheckFault(t testing.TB, h hash.Uint256, s string) {
	t.Helper()
	aer := e.appLog(t, h)
	if aer.VMState != vmstate.Fault {
		t.Fatalf("neotest: transaction %s: state %s, want FAULT", h.StringLE(), aer.VMState)
	}
	if !strings.Contains(aer.FaultException, s) {
		t.Fatalf("neotest: transaction %s: exception %q does not contain %q", h.StringLE(), aer.FaultException, s)
	}
}

// CheckTxNotificationEvents requires transaction h to have emitted exactly
// the expected notifications.
func (e *Executor) CheckTxNotificationEvents(t testing.TB, h hash.Uint256, expected []state.NotificationEvent) {
	t.Helper()
	evs := e.appLog(t, h).Events
	if len(evs) != len(expected) {
		t.Fatalf("neotest: %d notifications, want %d", len(evs), len(expected))
	}
	for i := range expected {
		requireEvent(t, expected[i], evs[i], i)
	}
}

// CheckTxNotificationEvent requires the notification at index (negative:
// from the end) of transaction h to be expected.
func (e *Executor) CheckTxNotificationEvent(t testing.TB, h hash.Uint256, index int, expected state.NotificationEvent) {
	t.Helper()
	evs := e.appLog(t, h).Events
	i := index
	if i < 0 {
		i += len(evs)
	}
	if i < 0 || i >= len(evs) {
		t.Fatalf("neotest: notification index is out of range: want %d, len is %d", index, len(evs))
	}
	requireEvent(t, expected, evs[i], i)
}

// CheckGASBalance requires acc to hold expected GAS (datoshi).
func (e *Executor) CheckGASBalance(t testing.TB, acc hash.Uint160, expected *big.Int) {
	t.Helper()
	if got := e.Chain.GetUtilityTokenBalance(acc); got.Cmp(expected) != 0 {
		t.Fatalf("neotest: invalid GAS balance: expected %s, got %s", expected, got)
	}
}

// EnsureGASBalance requires the GAS balance of acc to satisfy isOk.
func (e *Executor) EnsureGASBalance(t testing.TB, acc hash.Uint160, isOk func(balance *big.Int) bool) {
	t.Helper()
	if got := e.Chain.GetUtilityTokenBalance(acc); !isOk(got) {
		t.Fatalf("neotest: invalid GAS balance: got %s, condition is not satisfied", got)
	}
}

// AddSystemFee sets the system fee of tx: sysFee, or if negative the GAS
// a test run of tx consumes (a FAULTing run included).
func (e *Executor) AddSystemFee(tx *transaction.Transaction, sysFee int64) {
	if sysFee >= 0 {
		tx.SystemFee = sysFee
		return
	}
	v, _ := e.TestInvoke(tx)
	if v != nil {
		tx.SystemFee = v.GasConsumed()
	}
}

// NewUnsignedBlock returns the next block with txs, not yet signed.
func (e *Executor) NewUnsignedBlock(t testing.TB, txs ...*transaction.Transaction) *block.Block {
	t.Helper()
	top := e.TopBlock(t)
	b := &block.Block{
		Header: block.Header{
			PrevHash:      top.Hash(),
			Timestamp:     top.Timestamp + 1,
			Index:         top.Index + 1,
			NextConsensus: e.Validator.ScriptHash(),
			Witness:       transaction.Witness{VerificationScript: e.Validator.Script()},
		},
		Transactions: txs,
	}
	b.RebuildMerkleRoot()
	return b
}

// SignBlock sets the validators' invocation script of b.
func (e *Executor) SignBlock(b *block.Block) *block.Block {
	b.Witness.InvocationScript = e.Validator.SignHashable(e.magic(), b)
	return b
}

// AddNewBlock adds a signed block with txs to the chain.
func (e *Executor) AddNewBlock(t testing.TB, txs ...*transaction.Transaction) *block.Block {
	t.Helper()
	b := e.SignBlock(e.NewUnsignedBlock(t, txs...))
	if err := e.Chain.AddBlock(b); err != nil {
		t.Fatalf("neotest: adding block %d: %v", b.Index, err)
	}
	return b
}

// GenerateNewBlocks adds count empty blocks.
func (e *Executor) GenerateNewBlocks(t testing.TB, count int) []*block.Block {
	t.Helper()
	res := make([]*block.Block, count)
	for i := range res {
		res[i] = e.AddNewBlock(t)
	}
	return res
}

// AddBlockCheckHalt adds a block with txs and requires each to HALT.
func (e *Executor) AddBlockCheckHalt(t testing.TB, txs ...*transaction.Transaction) *block.Block {
	t.Helper()
	b := e.AddNewBlock(t, txs...)
	for _, tx := range txs {
		e.CheckHalt(t, tx.Hash())
	}
	return b
}

// TestInvoke runs tx's script in a test VM on top of the chain (in a
// dummy next block; nothing is persisted) and returns the VM and its
// fault, if any.
func (e *Executor) TestInvoke(tx *transaction.Transaction) (*vm.VM, error) {
	top, err := e.Chain.GetBlockByIndex(e.Chain.BlockHeight())
	if err != nil {
		return nil, err
	}
	b := &block.Block{Header: block.Header{Index: top.Index + 1, Timestamp: top.Timestamp + 1}}
	ic, err := e.Chain.GetTestVM(trigger.Application, tx.Copy(), b)
	if err != nil {
		return nil, err
	}
	defer ic.Finalize()
	e.hookCoverage(ic.VM)
	if err := ic.LoadScript(tx.Script, callflag.All); err != nil {
		return ic.VM, err
	}
	if ic.VM.Execute() == vmstate.Fault {
		return ic.VM, ic.VM.FaultError()
	}
	return ic.VM, nil
}

// GetTransaction returns transaction h and the height of its block.
func (e *Executor) GetTransaction(t testing.TB, h hash.Uint256) (*transaction.Transaction, uint32) {
	t.Helper()
	tx, height, err := e.Chain.GetTransaction(h)
	if err != nil {
		t.Fatalf("neotest: transaction %s: %v", h.StringLE(), err)
	}
	return tx, height
}

// GetBlockByIndex returns the block at idx.
func (e *Executor) GetBlockByIndex(t testing.TB, idx uint32) *block.Block {
	t.Helper()
	b, err := e.Chain.GetBlockByIndex(idx)
	if err != nil {
		t.Fatalf("neotest: block %d: %v", idx, err)
	}
	return b
}

// GetTxExecResult returns the Application execution result of
// transaction h.
func (e *Executor) GetTxExecResult(t testing.TB, h hash.Uint256) *state.AppExecResult {
	t.Helper()
	return e.appLog(t, h)
}

package chainrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Handlers of the test invocation methods, over Invoker. A *historic
// method is its current-state twin with a state point (args.at, see
// historic in params.go).

// HeaderVerificationGasLimit is the GAS limit (datoshi) of the read-only
// token calls behind getnep17balances and friends (neo-go
// core.HeaderVerificationGasLimit, 3 GAS).
const HeaderVerificationGasLimit = 3_00000000

// testRun is one test execution: what to run, in which container and
// block, over which state.
type testRun struct {
	trig trigger.Type
	// script is the script to run or, if verify, the invocation script of
	// the witness of contract.
	script   []byte
	verify   bool
	contract hash.Uint160
	tx       *transaction.Transaction
	// block is the persisting block (nil: a fake next block).
	block *block.Block
	// at is the index of the fake next block over the state after block
	// at-1 (nil: the current state).
	at      *uint32
	verbose bool
}

// container makes the transaction of a test invocation: a random nonce,
// the given signers and witnesses (or one zero account with scope None),
// valid until base + MaxValidUntilBlockIncrement.
func (s *Service) container(script []byte, sp signersParam, base uint32) *transaction.Transaction {
	tx := &transaction.Transaction{
		Nonce:           rand.Uint32(),
		Script:          script,
		Signers:         sp.signers,
		Attributes:      []transaction.Attribute{},
		Witnesses:       sp.witnesses,
		ValidUntilBlock: base + s.chain.GetMaxValidUntilBlockIncrement(),
	}
	if tx.Witnesses == nil {
		tx.Witnesses = []transaction.Witness{}
	}
	if len(tx.Signers) == 0 {
		tx.Signers = []transaction.Signer{{Scopes: transaction.None}}
	}
	return tx
}

// applicationRun is the run of script in a made-up container, at the
// call's state point.
func (s *Service) applicationRun(a *args, script []byte, sp signersParam, verbose bool) *testRun {
	base := s.chain.BlockHeight()
	if a.at != nil {
		base = *a.at - 1
	}
	return &testRun{trig: trigger.Application, script: script, tx: s.container(script, sp, base), at: a.at, verbose: verbose}
}

func (s *Service) invokeFunction(a *args) (any, *neorpc.Error) {
	script := get[[]byte](a, 2)
	if !a.has(2) {
		script = []byte{byte(opcode.NEWARRAY0)}
	}
	script, err := appendContractCall(script, get[hash.Uint160](a, 0), get[string](a, 1))
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("can't create invocation script: %s", err))
	}
	return s.answer(s.applicationRun(a, script, get[signersParam](a, 3), get[bool](a, 4)))
}

func (s *Service) invokeScript(a *args) (any, *neorpc.Error) {
	return s.answer(s.applicationRun(a, get[[]byte](a, 0), get[signersParam](a, 1), get[bool](a, 2)))
}

// invokeContractVerify runs the verify method of a contract with the
// given arguments; without signers the contract is the only signer, with
// the arguments as its invocation script. The container is valid from
// the current height even for the historic method, as in neo-go.
func (s *Service) invokeContractVerify(a *args) (any, *neorpc.Error) {
	h, inv := get[hash.Uint160](a, 0), get[[]byte](a, 1)
	tx := s.container([]byte{byte(opcode.RET)}, get[signersParam](a, 2), s.chain.BlockHeight())
	if !a.has(2) {
		tx.Signers = []transaction.Signer{{Account: h}}
		tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: []byte{}}}
	}
	return s.answer(&testRun{trig: trigger.Verification, script: inv, verify: true, contract: h, tx: tx, at: a.at})
}

func (s *Service) invokeContainedScript(a *args) (any, *neorpc.Error) {
	tx := get[*transaction.Transaction](a, 0)
	run := &testRun{trig: trigger.Application, script: tx.Script, tx: tx, block: get[*block.Block](a, 1), verbose: get[bool](a, 3)}
	if a.has(2) {
		run.trig = get[trigger.Type](a, 2)
	}
	return s.answer(run)
}

// testContext makes the context of a run with its GAS limit and, if
// verbose, the invocation tree recorder, and loads what runs.
func (s *Service) testContext(r *testRun) (*interop.Context, *invocationTree, *neorpc.Error) {
	var (
		ic  *interop.Context
		err error
	)
	if r.at != nil {
		ic, err = s.chain.GetTestHistoricVM(r.trig, r.tx, *r.at)
		if err != nil {
			return nil, nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to create historic VM: %s", err))
		}
	} else if ic, err = s.chain.GetTestVM(r.trig, r.tx, r.block); err != nil {
		return nil, nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to create test VM: %s", err))
	}
	var tree *invocationTree
	if r.verbose {
		tree = attachInvocationTree(ic.VM)
	}
	limit := s.cfg.MaxGasInvoke
	if r.trig == trigger.Verification {
		limit = min(limit, s.chain.GetMaxVerificationGAS())
	}
	ic.VM.SetGasLimit(limit)
	if rerr := s.load(ic, r); rerr != nil {
		ic.Finalize()
		return nil, nil, rerr
	}
	return ic, tree, nil
}

// load puts the script of a run into the VM: the contract's verification
// with the invocation script, or the script itself.
func (s *Service) load(ic *interop.Context, r *testRun) *neorpc.Error {
	if !r.verify {
		if err := ic.LoadScript(r.script, callflag.All); err != nil {
			return neorpc.NewInternalServerError(fmt.Sprintf("failed to load script: %s", err))
		}
		return nil
	}
	err := s.chain.InitVerificationContext(ic, r.contract, &transaction.Witness{InvocationScript: r.script, VerificationScript: []byte{}})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, interop.ErrUnknownVerificationContract):
		return neorpc.WrapErrorWithData(neorpc.ErrUnknownContract, err.Error())
	case errors.Is(err, interop.ErrInvalidVerificationContract):
		return neorpc.WrapErrorWithData(neorpc.ErrInvalidVerificationFunction, err.Error())
	default:
		return neorpc.NewInternalServerError(fmt.Sprintf("can't prepare verification VM: %s", err))
	}
}

// answer runs r and encodes its result once (see rawJSON).
func (s *Service) answer(r *testRun) (any, *neorpc.Error) {
	res, rerr := s.execute(r)
	if rerr != nil {
		return nil, rerr
	}
	return rawJSON(res)
}

// execute runs r and builds its result: state, GAS, stack (iterators
// expanded or kept in a session, per the server settings), exception,
// notifications and, if verbose, diagnostics. A run whose iterators stay
// in a session keeps its context until the session ends; with sessions
// backed by the trie, a current-state run is repeated over the state of
// its block so that the session does not hold the node's current state.
func (s *Service) execute(r *testRun) (*result.Invoke, *neorpc.Error) {
	ic, tree, rerr := s.testContext(r)
	if rerr != nil {
		return nil, rerr
	}
	ic.VM.Execute()
	res := &result.Invoke{
		State:         ic.VM.State().String(),
		GasConsumed:   ic.VM.GasConsumed(),
		Script:        r.script,
		Stack:         ic.ResultItems(),
		Notifications: nonNil(ic.Notifications),
	}
	if ic.VM.HasFailed() {
		res.FaultException = interop.FaultMessage(ic.VM.FaultError())
	}
	iters, rerr := s.processIterators(res.Stack)
	if rerr != nil {
		ic.Finalize()
		return nil, rerr
	}
	if tree != nil {
		res.Diagnostics = &result.InvokeDiag{Invocations: tree.root.Calls, Changes: storageChanges(ic.DAO)}
	}
	if len(iters) == 0 {
		ic.Finalize()
		return res, nil
	}
	if s.cfg.SessionBackedByMPT && r.at == nil {
		ic.Finalize()
		again := *r
		again.at = &ic.Block.Index
		return s.execute(&again)
	}
	id, rerr := s.srv.Sessions().Create(iters, ic.Finalize)
	if rerr != nil {
		return nil, rerr
	}
	if res.Session, rerr = sessionUUID(id); rerr != nil {
		return nil, rerr
	}
	return res, nil
}

// sessionUUID parses an id made by the session store.
func sessionUUID(id string) (neorpc.UUID, *neorpc.Error) {
	u, err := neorpc.ParseUUID(id)
	if err != nil {
		return u, neorpc.NewInternalServerError(err.Error())
	}
	return u, nil
}

// processIterators replaces the iterators of a result stack by
// result.Iterator items: expanded (up to MaxIteratorResultItems) without
// sessions or with session expansion, registered for traverseiterator
// with sessions. It returns the iterators to keep in a session.
func (s *Service) processIterators(items []stackitem.Item) ([]rpcserver.SessionIterator, *neorpc.Error) {
	var keep []rpcserver.SessionIterator
	for i, item := range items {
		op, ok := item.(*stackitem.Interop)
		if !ok {
			continue
		}
		it, ok := op.Value().(interop.Iterator)
		if !ok {
			continue
		}
		var (
			res  result.Iterator
			next stackitem.Item
		)
		if !s.cfg.SessionEnabled || s.cfg.SessionExpansionEnabled {
			res.Values, res.Truncated, next = iteratorValues(it, s.cfg.MaxIteratorResultItems)
		}
		if s.cfg.SessionEnabled && (!s.cfg.SessionExpansionEnabled || res.Truncated) {
			st := s.srv.Sessions()
			idStr := st.NewID()
			id, err := neorpc.ParseUUID(idStr)
			if err != nil {
				return nil, neorpc.NewInternalServerError(err.Error())
			}
			res.ID = &id
			keep = append(keep, rpcserver.SessionIterator{ID: idStr, Iter: &sessionIterator{it: it, next: next}})
		}
		if s.cfg.SessionEnabled && s.cfg.SessionExpansionEnabled {
			res.Truncated = false
		}
		items[i] = stackitem.NewInterop(res)
	}
	return keep, nil
}

// iteratorValues takes up to n values; truncated tells whether there is
// another one, which is returned as next (already taken from the
// iterator). The values are nil if there are none.
func iteratorValues(it interop.Iterator, n int) (vals []stackitem.Item, truncated bool, next stackitem.Item) {
	vals = takeValues(it, n)
	if it.Next() {
		v, err := it.Value()
		if err == nil {
			return vals, true, v
		}
	}
	return vals, false, nil
}

// takeValues takes up to n values (nil if none). A value that cannot be
// made ends the iteration.
func takeValues(it interop.Iterator, n int) []stackitem.Item {
	var res []stackitem.Item
	for ; n > 0 && it.Next(); n-- {
		v, err := it.Value()
		if err != nil {
			break
		}
		res = append(res, v)
	}
	return res
}

// sessionIterator adapts an interop iterator to rpcserver.Iterator; next
// is a value taken during in-place expansion, returned first.
type sessionIterator struct {
	mu   sync.Mutex
	it   interop.Iterator
	next stackitem.Item
}

func (si *sessionIterator) Next(n int) ([]json.RawMessage, error) {
	si.mu.Lock()
	defer si.mu.Unlock()
	var vals []stackitem.Item
	if si.next != nil && n > 0 {
		vals = append(vals, si.next)
		si.next = nil
		n--
	}
	vals = append(vals, takeValues(si.it, n)...)
	res := make([]json.RawMessage, len(vals))
	for i := range vals {
		b, err := stackitem.ToJSONWithTypes(vals[i], stackitem.MaxSize)
		if err != nil {
			return nil, err
		}
		res[i] = b
	}
	return res, nil
}

// invocationTree records the contract calls of an execution (neo-go's
// invocation tree: every loaded script, not CALLs within one).
type invocationTree struct {
	root  result.InvocationTree
	nodes map[*vm.Context]*result.InvocationTree
}

func attachInvocationTree(v *vm.VM) *invocationTree {
	t := &invocationTree{nodes: make(map[*vm.Context]*result.InvocationTree)}
	h := v.Hooks()
	prev := h.Loaded
	h.Loaded = func(v *vm.VM, ctx *vm.Context) {
		if prev != nil {
			prev(v, ctx)
		}
		t.loaded(v, ctx)
	}
	v.SetHooks(h)
	return t
}

func (t *invocationTree) loaded(v *vm.VM, ctx *vm.Context) {
	is := v.InvocationStack()
	n := len(is)
	var parent *vm.Context
	if n >= 2 {
		parent = is[n-2]
	}
	if parent != nil && ctx.SameInvocation(parent) {
		delete(t.nodes, ctx) // a CALL within the invocation
		return
	}
	cur := &t.root
	if parent != nil {
		for i := n - 2; i >= 0; i-- {
			if node, ok := t.nodes[is[i]]; ok && is[i].SameInvocation(parent) {
				cur = node
				break
			}
		}
	}
	node := &result.InvocationTree{Current: ctx.ScriptHash()}
	cur.Calls = append(cur.Calls, node)
	t.nodes[ctx] = node
}

// storageChanges lists the contract storage changes of an execution layer
// (neo-go BatchToOperations, sorted by key): keys without the storage
// prefix byte; deletions of keys that did not exist are skipped.
func storageChanges(d *dao.Simple) []result.StorageChange {
	res := []result.StorageChange{}
	lower := d.Store.Lower()
	var dels []result.StorageChange
	for _, pfx := range []storage.KeyPrefix{storage.STStorage, storage.STTempStorage} {
		d.Store.SeekChanges(storage.SeekRange{Prefix: []byte{byte(pfx)}}, func(k, v []byte) bool {
			_, err := lower.Get(k)
			exists := err == nil
			key := bytes.Clone(k[1:])
			switch {
			case v != nil && exists:
				res = append(res, result.StorageChange{State: "Changed", Key: key, Value: bytes.Clone(v)})
			case v != nil:
				res = append(res, result.StorageChange{State: "Added", Key: key, Value: bytes.Clone(v)})
			case exists:
				dels = append(dels, result.StorageChange{State: "Deleted", Key: key})
			}
			return true
		})
	}
	return append(res, dels...)
}

// calculateNetworkFee prices the witnesses of a transaction: each
// witness's verification is run (with placeholder arguments if it has no
// invocation script) and its GAS added to the size fee and the attribute
// fees.
func (s *Service) calculateNetworkFee(a *args) (any, *neorpc.Error) {
	tx := get[*transaction.Transaction](a, 0)
	hashable, err := tx.EncodeHashableFields()
	if err != nil {
		return nil, neorpc.NewInvalidParamsError(fmt.Sprintf("failed to compute tx size: %s", err))
	}
	size := len(hashable) + nio.VarUintSize(uint64(len(tx.Signers)))
	budget := min(s.chain.GetMaxVerificationGAS(), s.cfg.MaxGasInvoke)
	var fee int64
	for i := range tx.Signers {
		w := tx.Witnesses[i]
		if len(w.InvocationScript) == 0 {
			inv, rerr := s.placeholderInvocation(i, tx.Signers[i].Account, w.VerificationScript)
			if rerr != nil {
				return nil, rerr
			}
			w.InvocationScript = inv
		}
		used, err := s.chain.VerifyWitness(tx.Signers[i].Account, tx, &w, budget)
		if err != nil && !errors.Is(err, interop.ErrInvalidSignature) {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidSignature, fmt.Sprintf("witness %d: %s", i, err))
		}
		budget, fee = budget-used, fee+used
		size += nio.VarBytesSize(len(w.VerificationScript)) + nio.VarBytesSize(len(w.InvocationScript))
	}
	fee += int64(size)*s.chain.FeePerByte() + s.chain.CalculateAttributesFee(tx)
	return &result.NetworkFee{Value: fee}, nil
}

// placeholderInvocation makes an invocation script for signer i whose
// witness has none: a placeholder per parameter of what verifies it
// (a signature or multisignature contract, or the verify method of the
// signer's deployed contract when there is no verification script).
func (s *Service) placeholderInvocation(i int, acc hash.Uint160, verification []byte) ([]byte, *neorpc.Error) {
	var types []smartcontract.ParamType
	if len(verification) == 0 {
		cs := s.chain.GetContractState(acc)
		if cs == nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidVerificationFunction, fmt.Sprintf("signer %d (%s) has no verification script and no deployed contract", i, neorpc.Uint160ToAddress(acc)))
		}
		md := cs.Manifest.ABI.GetMethod(manifest.MethodVerify, -1)
		if md == nil || md.ReturnType != smartcontract.BoolType {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidVerificationFunction, fmt.Sprintf("signer %d has no verify method in deployed contract", i))
		}
		for _, p := range md.Parameters {
			types = append(types, p.Type)
		}
	} else if smartcontract.IsSignatureContract(verification) {
		types = []smartcontract.ParamType{smartcontract.SignatureType}
	} else if m, _, ok := smartcontract.ParseMultiSigContract(verification); ok {
		types = slices.Repeat([]smartcontract.ParamType{smartcontract.SignatureType}, m)
	}
	w := nio.NewBufBinWriter()
	for _, t := range types {
		pushDefaultValue(w, t)
	}
	if w.Err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to create dummy invocation script (signer %d): %s", i, w.Err))
	}
	return w.Bytes(), nil
}

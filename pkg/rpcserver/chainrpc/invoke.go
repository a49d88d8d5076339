package chainrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	fakeblock "github.com/n3node/n3node/pkg/internal/neogotext/block"
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

// parseTrigger parses a trigger name as neo-go's trigger.FromString does
// (case-insensitive; OnPersist, PostPersist, Verification, Application,
// All; its error text).
func parseTrigger(s string) (trigger.Type, error) {
	for _, t := range []trigger.Type{trigger.OnPersist, trigger.PostPersist, trigger.Verification, trigger.Application, trigger.All} {
		if strings.EqualFold(t.String(), s) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown trigger type: %s", strings.ToLower(s))
}

// HeaderVerificationGasLimit is the GAS limit (datoshi) of the read-only
// token calls behind getnep17balances and friends (neo-go
// core.HeaderVerificationGasLimit, 3 GAS).
const HeaderVerificationGasLimit = 3_00000000

func (s *Service) invokeFunction(p neorpc.Params) (any, *neorpc.Error) {
	tx, verbose, rerr := s.invokeFunctionParams(p)
	if rerr != nil {
		return nil, rerr
	}
	return encodeInvoke(s.runScript(trigger.Application, tx.Script, hash.Uint160{}, tx, nil, nil, verbose))
}

func (s *Service) invokeFunctionHistoric(p neorpc.Params) (any, *neorpc.Error) {
	nextH, rerr := s.historicParams(p)
	if rerr != nil {
		return nil, rerr
	}
	if len(p) < 2 {
		return nil, neorpc.ErrInvalidParams
	}
	tx, verbose, rerr := s.invokeFunctionParams(p[1:], nextH-1)
	if rerr != nil {
		return nil, rerr
	}
	return encodeInvoke(s.runScript(trigger.Application, tx.Script, hash.Uint160{}, tx, nil, &nextH, verbose))
}

func (s *Service) invokeFunctionParams(p neorpc.Params, curIndex ...uint32) (*transaction.Transaction, bool, *neorpc.Error) {
	if len(p) < 2 {
		return nil, false, neorpc.ErrInvalidParams
	}
	h, rerr := s.contractScriptHashFromParam(p.Value(0))
	if rerr != nil {
		return nil, false, rerr
	}
	method, err := p[1].GetString()
	if err != nil {
		return nil, false, neorpc.ErrInvalidParams
	}
	var args *neorpc.Param
	if len(p) > 2 {
		args = &p[2]
	}
	script, err := functionInvocationScript(h, method, args)
	if err != nil {
		return nil, false, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("can't create invocation script: %s", err))
	}
	return s.mockTx(script, p.Value(3), p.Value(4), curIndex...)
}

func (s *Service) invokeScript(p neorpc.Params) (any, *neorpc.Error) {
	tx, verbose, rerr := s.invokeScriptParams(p)
	if rerr != nil {
		return nil, rerr
	}
	return encodeInvoke(s.runScript(trigger.Application, tx.Script, hash.Uint160{}, tx, nil, nil, verbose))
}

func (s *Service) invokeScriptHistoric(p neorpc.Params) (any, *neorpc.Error) {
	nextH, rerr := s.historicParams(p)
	if rerr != nil {
		return nil, rerr
	}
	if len(p) < 2 {
		return nil, neorpc.ErrInvalidParams
	}
	tx, verbose, rerr := s.invokeScriptParams(p[1:], nextH-1)
	if rerr != nil {
		return nil, rerr
	}
	return encodeInvoke(s.runScript(trigger.Application, tx.Script, hash.Uint160{}, tx, nil, &nextH, verbose))
}

func (s *Service) invokeScriptParams(p neorpc.Params, curIndex ...uint32) (*transaction.Transaction, bool, *neorpc.Error) {
	script, err := p.Value(0).GetBytesBase64()
	if err != nil {
		return nil, false, neorpc.ErrInvalidParams
	}
	return s.mockTx(script, p.Value(1), p.Value(2), curIndex...)
}

// mockTx makes the container of a test invocation: a random nonce, the
// given signers and witnesses (or one zero account with scope None),
// ValidUntilBlock = height (or curIndex) + MaxValidUntilBlockIncrement.
func (s *Service) mockTx(script []byte, signers, verbose *neorpc.Param, curIndex ...uint32) (*transaction.Transaction, bool, *neorpc.Error) {
	tx := &transaction.Transaction{
		Nonce:      rand.Uint32(),
		Script:     script,
		Attributes: []transaction.Attribute{},
		Witnesses:  []transaction.Witness{},
	}
	if signers != nil {
		ss, ws, err := signers.GetSignersWithWitnesses()
		if err != nil {
			return nil, false, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("failed to get signers or witnesses: %s", err))
		}
		tx.Signers, tx.Witnesses = ss, ws
	}
	if len(tx.Signers) == 0 {
		tx.Signers = []transaction.Signer{{Scopes: transaction.None}}
	}
	if len(curIndex) > 0 {
		tx.ValidUntilBlock = curIndex[0]
	} else {
		tx.ValidUntilBlock = s.chain.BlockHeight()
	}
	tx.ValidUntilBlock += s.chain.GetMaxValidUntilBlockIncrement()
	var v bool
	if verbose != nil {
		var err error
		if v, err = verbose.GetBoolean(); err != nil {
			return nil, false, neorpc.ErrInvalidParams
		}
	}
	return tx, v, nil
}

func (s *Service) invokeContainedScript(p neorpc.Params) (any, *neorpc.Error) {
	if len(p) < 1 {
		return nil, neorpc.ErrInvalidParams
	}
	tx, rerr := fakeTxFromParam(p.Value(0))
	if rerr != nil {
		return nil, rerr
	}
	b, rerr := s.fakeBlockFromParam(p.Value(1))
	if rerr != nil {
		return nil, rerr
	}
	trig := trigger.Application
	var verbose bool
	if len(p) > 2 {
		ts, err := p[2].GetString()
		if err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid trigger parameter: %s", err))
		}
		if trig, err = parseTrigger(ts); err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("failed to parse trigger: %s", err))
		}
		if trig != trigger.Application && trig != trigger.Verification {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("unsupported trigger: expected %s or %s, got %s", trigger.Application, trigger.Verification, trig))
		}
	}
	if len(p) > 3 {
		var err error
		if verbose, err = p[3].GetBoolean(); err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("invalid verbose parameter: %s", err))
		}
	}
	return encodeInvoke(s.runScript(trig, tx.Script, hash.Uint160{}, tx, b, nil, verbose))
}

func fakeTxFromParam(p *neorpc.Param) (*transaction.Transaction, *neorpc.Error) {
	var err error
	tx := new(transaction.Transaction)
	switch {
	case p == nil:
		err = neorpc.ErrMissingParameter
	case p.IsNull():
		err = neorpc.ErrNullParameter
	default:
		if uerr := tx.UnmarshalJSONUnsafe(p.RawMessage); uerr != nil {
			err = fmt.Errorf("failed to unmarshal fake transaction: %w", uerr)
		}
	}
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("failed to unmarshal fake transaction: %s", err))
	}
	if len(tx.Script) == 0 {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "transaction script is mandatory")
	}
	return tx, nil
}

// fakeBlockFromParam makes the persisting block of invokecontainedscript:
// the fake next block, with the non-zero fields of the given header.
func (s *Service) fakeBlockFromParam(p *neorpc.Param) (*block.Block, *neorpc.Error) {
	base, err := s.chain.GetFakeNextBlock(s.chain.BlockHeight() + 1)
	if err != nil {
		return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to mock block execution container: %s", err))
	}
	if p == nil || p.IsNull() {
		return base, nil
	}
	h, err := fakeblock.DecodeFakeHeader(p.RawMessage)
	if err != nil {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("failed to unmarshal fake block: failed to unmarshal fake header: %s", err))
	}
	if h.Version != 0 {
		base.Version = h.Version
	}
	if !h.PrevHash.IsZero() {
		base.PrevHash = h.PrevHash
	}
	if !h.MerkleRoot.IsZero() {
		base.MerkleRoot = h.MerkleRoot
	}
	if h.Timestamp != 0 {
		base.Timestamp = h.Timestamp
	}
	if h.Nonce != 0 {
		base.Nonce = h.Nonce
	}
	if h.Index != 0 {
		base.Index = h.Index
	}
	base.PrimaryIndex = h.PrimaryIndex
	if !h.NextConsensus.IsZero() {
		base.NextConsensus = h.NextConsensus
	}
	return base, nil
}

func (s *Service) invokeContractVerify(p neorpc.Params) (any, *neorpc.Error) {
	h, tx, inv, rerr := s.contractVerifyParams(p)
	if rerr != nil {
		return nil, rerr
	}
	return encodeInvoke(s.runScript(trigger.Verification, inv, h, tx, nil, nil, false))
}

func (s *Service) invokeContractVerifyHistoric(p neorpc.Params) (any, *neorpc.Error) {
	nextH, rerr := s.historicParams(p)
	if rerr != nil {
		return nil, rerr
	}
	if len(p) < 2 {
		return nil, neorpc.ErrInvalidParams
	}
	h, tx, inv, rerr := s.contractVerifyParams(p[1:])
	if rerr != nil {
		return nil, rerr
	}
	return encodeInvoke(s.runScript(trigger.Verification, inv, h, tx, nil, &nextH, false))
}

// contractVerifyParams reads the contract, the verify arguments (pushed by
// the invocation script) and the signers; without signers the contract is
// the only signer, with the invocation script as its witness.
func (s *Service) contractVerifyParams(p neorpc.Params) (hash.Uint160, *transaction.Transaction, []byte, *neorpc.Error) {
	h, rerr := s.contractScriptHashFromParam(p.Value(0))
	if rerr != nil {
		return hash.Uint160{}, nil, nil, rerr
	}
	w := nio.NewBufBinWriter()
	if len(p) > 1 {
		args, err := p[1].GetArray()
		if err != nil {
			return hash.Uint160{}, nil, nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, err.Error())
		}
		if len(args) > 0 {
			if err := pushArray(w, args); err != nil {
				return hash.Uint160{}, nil, nil, neorpc.NewInternalServerError(fmt.Sprintf("can't create witness invocation script: %s", err))
			}
		}
	}
	inv := w.Bytes()
	signers := p.Value(2)
	tx, _, rerr := s.mockTx([]byte{byte(opcode.RET)}, signers, nil)
	if rerr != nil {
		return hash.Uint160{}, nil, nil, rerr
	}
	if signers == nil {
		tx.Signers = []transaction.Signer{{Account: h}}
		tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: []byte{}}}
	}
	return h, tx, inv, nil
}

// historicParams checks that historic calls are possible and returns the
// index of the fake next block: the first parameter is a block index, a
// block hash or a state root hash.
func (s *Service) historicParams(p neorpc.Params) (uint32, *neorpc.Error) {
	if s.chain.Config().KeepOnlyLatestState {
		return 0, neorpc.WrapErrorWithData(neorpc.ErrUnsupportedState, fmt.Sprintf("only latest state is supported: %s", errKeepOnlyLatestState))
	}
	if len(p) < 1 {
		return 0, neorpc.ErrInvalidParams
	}
	height, rerr := s.blockHeightFromParam(p.Value(0))
	if rerr != nil {
		h, err := p.Value(0).GetUint256()
		if err != nil {
			return 0, neorpc.NewInvalidParamsError(fmt.Sprintf("invalid block hash or index or stateroot hash: %s", err))
		}
		b, err := s.chain.GetBlock(h)
		if err != nil {
			sh, err := s.chain.GetLatestStateHeight(h)
			if err != nil {
				return 0, neorpc.NewInvalidParamsError(fmt.Sprintf("unknown block or stateroot: %s", err))
			}
			height = sh
		} else {
			height = b.Index
		}
	}
	return height + 1, nil
}

// prepareInvocation makes the context of a test invocation and loads the
// script (or, for a contract verification, the contract's verify method
// with the invocation script).
func (s *Service) prepareInvocation(trig trigger.Type, script []byte, contract hash.Uint160, tx *transaction.Transaction, b *block.Block, nextH *uint32, verbose bool) (*interop.Context, *invocationTree, *neorpc.Error) {
	var (
		ic  *interop.Context
		err error
	)
	if nextH == nil {
		if ic, err = s.chain.GetTestVM(trig, tx, b); err != nil {
			return nil, nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to create test VM: %s", err))
		}
	} else if ic, err = s.chain.GetTestHistoricVM(trig, tx, *nextH); err != nil {
		return nil, nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to create historic VM: %s", err))
	}
	var tree *invocationTree
	if verbose {
		tree = attachInvocationTree(ic.VM)
	}
	gas := s.cfg.MaxGasInvoke
	if trig == trigger.Verification {
		gas = min(gas, s.chain.GetMaxVerificationGAS())
	}
	ic.VM.SetGasLimit(gas)
	if trig == trigger.Verification && b == nil {
		err = s.chain.InitVerificationContext(ic, contract, &transaction.Witness{InvocationScript: script, VerificationScript: []byte{}})
		if err != nil {
			ic.Finalize()
			switch {
			case errors.Is(err, interop.ErrUnknownVerificationContract):
				return nil, nil, neorpc.WrapErrorWithData(neorpc.ErrUnknownContract, err.Error())
			case errors.Is(err, interop.ErrInvalidVerificationContract):
				return nil, nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidVerificationFunction, err.Error())
			default:
				return nil, nil, neorpc.NewInternalServerError(fmt.Sprintf("can't prepare verification VM: %s", err))
			}
		}
	} else if err = ic.LoadScript(script, callflag.All); err != nil {
		ic.Finalize()
		return nil, nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to load script: %s", err))
	}
	return ic, tree, nil
}

// encodeInvoke encodes an invocation result once (see rawJSON).
func encodeInvoke(res *result.Invoke, rerr *neorpc.Error) (any, *neorpc.Error) {
	if rerr != nil {
		return nil, rerr
	}
	return rawJSON(res)
}

// runScript runs a test invocation and builds its result: state, GAS,
// stack (iterators expanded or registered in a session, per the server
// settings), exception, notifications and, if verbose, diagnostics.
func (s *Service) runScript(trig trigger.Type, script []byte, contract hash.Uint160, tx *transaction.Transaction, b *block.Block, nextH *uint32, verbose bool) (*result.Invoke, *neorpc.Error) {
	ic, tree, rerr := s.prepareInvocation(trig, script, contract, tx, b, nextH, verbose)
	if rerr != nil {
		return nil, rerr
	}
	ic.VM.Execute()
	var fault string
	if ic.VM.HasFailed() {
		fault = interop.FaultMessage(ic.VM.FaultError())
	}
	items := ic.ResultItems()
	iters, rerr := s.processIterators(items)
	if rerr != nil {
		ic.Finalize()
		return nil, rerr
	}
	res := &result.Invoke{
		State:          ic.VM.State().String(),
		GasConsumed:    ic.VM.GasConsumed(),
		Script:         script,
		Stack:          items,
		FaultException: fault,
		Notifications:  ic.Notifications,
	}
	if res.Notifications == nil {
		res.Notifications = []state.NotificationEvent{}
	}
	if tree != nil {
		res.Diagnostics = &result.InvokeDiag{Invocations: tree.root.Calls, Changes: storageChanges(ic.DAO)}
	}
	if len(iters) == 0 {
		ic.Finalize()
		return res, nil
	}
	if s.cfg.SessionBackedByMPT && nextH == nil {
		ic.Finalize()
		idx := ic.Block.Index
		return s.runScript(trig, script, contract, tx, b, &idx, verbose)
	}
	id, rerr := s.srv.Sessions().Create(iters, ic.Finalize)
	if rerr != nil {
		return nil, rerr
	}
	sid, err := neorpc.ParseUUID(id)
	if err != nil {
		return nil, neorpc.NewInternalServerError(err.Error())
	}
	res.Session = sid
	return res, nil
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

func (s *Service) calculateNetworkFee(p neorpc.Params) (any, *neorpc.Error) {
	if len(p) < 1 {
		return 0, neorpc.ErrInvalidParams
	}
	raw, err := p[0].GetBytesBase64()
	if err != nil {
		return 0, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, err.Error())
	}
	tx, err := decodeTransaction(raw)
	if err != nil {
		return 0, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, err.Error())
	}
	hashable, err := tx.EncodeHashableFields()
	if err != nil {
		return 0, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, fmt.Sprintf("failed to compute tx size: %s", err))
	}
	size := len(hashable) + nio.VarUintSize(uint64(len(tx.Signers)))
	var (
		netFee   int64
		gasLimit = min(s.chain.GetMaxVerificationGAS(), s.cfg.MaxGasInvoke)
	)
	for i, signer := range tx.Signers {
		w := tx.Witnesses[i]
		if len(w.InvocationScript) == 0 {
			var params []manifest.Parameter
			if len(w.VerificationScript) == 0 {
				cs := s.chain.GetContractState(signer.Account)
				if cs == nil {
					return 0, neorpc.WrapErrorWithData(neorpc.ErrInvalidVerificationFunction, fmt.Sprintf("signer %d (%s) has no verification script and no deployed contract", i, neorpc.Uint160ToAddress(signer.Account)))
				}
				md := cs.Manifest.ABI.GetMethod(manifest.MethodVerify, -1)
				if md == nil || md.ReturnType != smartcontract.BoolType {
					return 0, neorpc.WrapErrorWithData(neorpc.ErrInvalidVerificationFunction, fmt.Sprintf("signer %d has no verify method in deployed contract", i))
				}
				params = md.Parameters
			} else if smartcontract.IsSignatureContract(w.VerificationScript) {
				params = []manifest.Parameter{{Type: smartcontract.SignatureType}}
			} else if m, _, ok := smartcontract.ParseMultiSigContract(w.VerificationScript); ok {
				params = slices.Repeat([]manifest.Parameter{{Type: smartcontract.SignatureType}}, m)
			}
			inv := nio.NewBufBinWriter()
			for _, prm := range params {
				pushDefaultValue(inv, prm.Type)
			}
			if inv.Err != nil {
				return nil, neorpc.NewInternalServerError(fmt.Sprintf("failed to create dummy invocation script (signer %d): %s", i, inv.Err))
			}
			w.InvocationScript = inv.Bytes()
		}
		used, err := s.chain.VerifyWitness(signer.Account, tx, &w, gasLimit)
		if err != nil && !errors.Is(err, interop.ErrInvalidSignature) {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidSignature, fmt.Sprintf("witness %d: %s", i, err))
		}
		gasLimit -= used
		netFee += used
		size += nio.VarBytesSize(len(w.VerificationScript)) + nio.VarBytesSize(len(w.InvocationScript))
	}
	netFee += int64(size)*s.chain.FeePerByte() + s.chain.CalculateAttributesFee(tx)
	return &result.NetworkFee{Value: netFee}, nil
}

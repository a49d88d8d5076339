package interop

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Errors of contract calls.
var (
	ErrContractNotFound = errors.New("contract not found")
	ErrMethodNotFound   = errors.New("method not found")
	ErrDisallowedCall   = errors.New("disallowed method call")
	ErrBlockedContract  = errors.New("contract is blocked")
)

// LoadScript loads a dynamic script (the entry script of a transaction or a
// persist trigger) with the given call flags, any number of results and its
// Hash160 as script hash.
func (ic *Context) LoadScript(script []byte, flags callflag.CallFlag) error {
	_, err := ic.VM.LoadScriptWith(vm.NewScript(script), vm.LoadParams{
		RVCount:    -1,
		ScriptHash: hash.Hash160(script),
		CallFlags:  callflag.CallFlag(flags),
		Data:       &Invocation{},
	})
	return err
}

// popCallFlags pops call flags as neo-go converts them: the integer's low
// byte (so 256 is None); bits beyond All are an error.
func (ic *Context) popCallFlags() (callflag.CallFlag, error) {
	n, err := ic.popInt32Flags()
	if err != nil {
		return 0, err
	}
	f := callflag.CallFlag(byte(n))
	if f&^callflag.All != 0 {
		return 0, argError("call flags out of range")
	}
	return f, nil
}

// popCallArgs pops the call flags and then the argument array of a call
// (System.Contract.Call, System.Runtime.LoadScript).
func (ic *Context) popCallArgs() (callflag.CallFlag, []stackitem.Item, error) {
	fs, err := ic.popCallFlags()
	if err != nil {
		return 0, nil, err
	}
	args, err := ic.popArray()
	if err != nil {
		return 0, nil, err
	}
	return fs, args, nil
}

// contractCall is System.Contract.Call. With SaveInvocations a call that
// names an existing method is recorded before its permission check, as
// neo-go records it.
func contractCall(ic *Context) error {
	u, err := ic.popBytes()
	if err != nil {
		return err
	}
	if len(u) != hash.Uint160Size {
		return argError("invalid contract hash")
	}
	h := hash.Uint160(u)
	method, err := ic.popString()
	if err != nil {
		return err
	}
	fs, args, err := ic.popCallArgs()
	if err != nil {
		return err
	}
	cs, err := ic.GetContract(h)
	if err != nil {
		return Worded(ErrContractNotFound, fmt.Errorf("called contract %s not found: %w", h.StringLE(), err))
	}
	if strings.HasPrefix(method, "_") {
		return argError("invalid method name (starts with '_')")
	}
	md := cs.Manifest.ABI.GetMethod(method, len(args))
	if md == nil {
		return fmt.Errorf("%w: %s/%d", ErrMethodNotFound, method, len(args))
	}
	if ic.Config != nil && ic.Config.SaveInvocations {
		ic.InvocationCalls = append(ic.InvocationCalls, state.NewContractInvocation(h, method, args))
	}
	_, err = ic.callInternal(cs, md, fs, md.ReturnType != smartcontract.VoidType, args, true)
	return err
}

// callInternal checks the permission to call md and calls it (C#
// CallContractInternal, neo-go callInternal).
func (ic *Context) callInternal(cs *state.Contract, md *manifest.Method, f callflag.CallFlag,
	hasReturn bool, args []stackitem.Item, isDynamic bool) (*Invocation, error) {
	if md.Safe {
		f &^= callflag.WriteStates | callflag.AllowNotify
	} else if inv := ic.CurrentInvocation(); inv != nil && inv.Contract != nil {
		var m *manifest.Manifest
		if ic.IsHardforkEnabled(config.HFDomovoi) {
			m = &inv.Contract.Manifest
		} else if curr, err := ic.GetContract(ic.CurrentScriptHash()); err == nil {
			m = &curr.Manifest
		}
		if m != nil && !m.CanCall(cs.Hash, &cs.Manifest, md.Name) {
			return nil, ErrDisallowedCall
		}
	}
	return ic.callEx(ic.CurrentScriptHash(), cs, md.Name, args, f, hasReturn, isDynamic)
}

// callEx loads method name of cs with the given arguments (neo-go
// callExFromNative): blocked contracts, whitelisted fees (HF_Faun), argument
// count and return value checks, invocation counter, call flags narrowed by
// the caller's, and a storage layer that is rolled back on exception when the
// caller can catch one.
func (ic *Context) callEx(caller hash.Uint160, cs *state.Contract, name string, args []stackitem.Item,
	f callflag.CallFlag, hasReturn, isDynamic bool) (*Invocation, error) {
	md := cs.Manifest.ABI.GetMethod(name, len(args))
	if md == nil {
		return nil, Worded(ErrMethodNotFound, fmt.Errorf("method '%s' not found", name))
	}
	var exempt bool
	if ic.Natives.IsBlocked(ic.DAO, cs.Hash) {
		return nil, Worded(ErrBlockedContract, fmt.Errorf("contract %s is blocked", cs.Hash.StringLE()))
	}
	if ic.IsHardforkEnabled(config.HFFaun) {
		if fee, ok := ic.Natives.WhitelistedFee(ic.DAO, cs.Hash, md.Offset); ok {
			if err := ic.VM.AddGas(fee); err != nil {
				return nil, fmt.Errorf("%w executing whitelisted contract %s/%s/%d", err, cs.Hash.StringLE(), name, len(args))
			}
			exempt = true
		}
	}
	if len(args) != len(md.Parameters) {
		return nil, argError("invalid argument count: %d (expected %d)", len(args), len(md.Parameters))
	}
	if hasReturn != (md.ReturnType != smartcontract.VoidType) {
		return nil, argError("method '%s' return type mismatch: got %s, expected to be void: %t",
			name, md.ReturnType, !hasReturn)
	}
	methodOff := md.Offset
	initOff := -1
	if init := cs.Manifest.ABI.GetMethod(manifest.MethodInit, 0); init != nil {
		initOff = init.Offset
	}
	ic.CountInvocation(cs.Hash)
	cur := ic.VM.Context()
	f &= callflag.CallFlag(cur.CallFlags())

	inv := &Invocation{Contract: cs, Calling: ic.CurrentInvocation(), dynamic: isDynamic}
	if ic.callerHasTry() && f&(callflag.All^callflag.ReadOnly) != 0 {
		inv.wrapped = true
		inv.baseDAO = ic.DAO
		inv.baseNotify = len(ic.Notifications)
		ic.DAO = ic.DAO.GetPrivate()
	}
	rv := 0
	if hasReturn {
		rv = 1
	}
	if _, err := ic.VM.LoadScriptWith(vm.NewScript(cs.NEF.Script), vm.LoadParams{
		RVCount:           rv,
		Offset:            methodOff,
		ScriptHash:        cs.Hash,
		CallingScriptHash: caller,
		CallFlags:         callflag.CallFlag(f),
		FeeExempt:         exempt,
		Data:              inv,
	}); err != nil {
		if inv.wrapped {
			ic.DAO = inv.baseDAO
		}
		return nil, err
	}
	if initOff >= 0 {
		if _, err := ic.VM.Call(initOff); err != nil {
			return nil, err
		}
	}
	for i := len(args) - 1; i >= 0; i-- {
		ic.VM.Push(args[i])
	}
	return inv, nil
}

// callerHasTry is neo-go's ContractHasTryBlock: whether a context of the
// executing invocation has a TRY block whose CATCH/FINALLY has not started,
// so that an exception in a callee may be caught and its changes must be
// undoable.
func (ic *Context) callerHasTry() bool {
	st := ic.VM.InvocationStack()
	if len(st) == 0 {
		return false
	}
	top := st[len(st)-1]
	for i := len(st) - 1; i >= 0; i-- {
		c := st[i]
		if !c.SameInvocation(top) {
			return false
		}
		if c.HasActiveTry() {
			return true
		}
	}
	return false
}

// CallFromNative calls method of cs from a native contract with all call
// flags (narrowed by the native's) and caller as calling script hash (C#
// CallFromNativeContractAsync). The call runs after the current instruction;
// when it returns, then runs with its result (if hasReturn). An exception in
// the callee faults the VM.
func (ic *Context) CallFromNative(caller hash.Uint160, cs *state.Contract, method string, args []stackitem.Item,
	hasReturn bool, then func(ic *Context, result stackitem.Item) error) error {
	inv, err := ic.callEx(caller, cs, method, args, callflag.All, hasReturn, false)
	if err != nil {
		return err
	}
	inv.then = then
	inv.thenResult = hasReturn
	return nil
}

// callT is the VM's CallT hook (CALLT: a method token of the executing
// contract's NEF).
func (ic *Context) callT(v *vm.VM, id uint16) error {
	if !ic.CallFlags().Has(callflag.ReadStates | callflag.AllowCall) {
		return Worded(ErrMissingFlags, errors.New("invalid call flags"))
	}
	inv := ic.CurrentInvocation()
	if inv == nil || inv.Contract == nil {
		return fmt.Errorf("%w: no method tokens in a dynamic script", ErrInvalidArgument)
	}
	tokens := inv.Contract.NEF.Tokens
	if int(id) >= len(tokens) {
		return argError("token id %d is out of %d range", id, len(tokens)-1)
	}
	tok := tokens[id]
	if int(tok.ParamCount) > v.Estack().Len() {
		return argError("stack is too small")
	}
	args := make([]stackitem.Item, tok.ParamCount)
	for i := range args {
		var err error
		if args[i], err = v.Pop(); err != nil {
			return err
		}
	}
	cs, err := ic.GetContract(tok.Hash)
	if err != nil {
		return Worded(ErrContractNotFound, fmt.Errorf("token contract %s not found: %w", tok.Hash.StringLE(), err))
	}
	md := cs.Manifest.ABI.GetMethod(tok.Method, len(args))
	if md == nil {
		return Worded(ErrMethodNotFound, fmt.Errorf("token method not found: %s/%d", tok.Method, len(args)))
	}
	if tok.HasReturn != (md.ReturnType != smartcontract.VoidType) {
		return argError("token %s/%d return value (%t) doesn't match the actual method return value",
			tok.Method, len(args), tok.HasReturn)
	}
	_, err = ic.callInternal(cs, md, tok.CallFlag, tok.HasReturn, args, false)
	return err
}

// contractCallNative is System.Contract.CallNative.
func contractCallNative(ic *Context) error {
	v, err := ic.popBigInt()
	if err != nil {
		return err
	}
	if v.Sign() != 0 {
		return fmt.Errorf("native contract of version %d is not active", v.Int64())
	}
	return ic.Natives.CallNative(ic, 0)
}

// contractGetCallFlags is System.Contract.GetCallFlags.
func contractGetCallFlags(ic *Context) error {
	ic.VM.Push(stackitem.NewInt(int64(ic.CallFlags())))
	return nil
}

// infinityScriptHash is the hash of the signature script of the point at
// infinity (neo-go accepts the one-byte key 0x00).
var infinityScriptHash = hash.Hash160([]byte{0x0c, 0x01, 0x00, 0x41, 0x56, 0xe7, 0xb3, 0x27})

// keyScriptHash decodes a public key as neo-go's keys.NewPublicKeyFromBytes
// does (including the point at infinity) and returns the hash of its
// signature script.
func keyScriptHash(b []byte) (hash.Uint160, error) {
	if len(b) == 1 && b[0] == 0 {
		return infinityScriptHash, nil
	}
	k, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		return hash.Uint160{}, err
	}
	return k.ScriptHash(), nil
}

// contractCreateStandardAccount is System.Contract.CreateStandardAccount.
func contractCreateStandardAccount(ic *Context) error {
	b, err := ic.popBytes()
	if err != nil {
		return err
	}
	h, err := keyScriptHash(b)
	if err != nil {
		return err
	}
	price := int64(1 << 8)
	if ic.IsHardforkEnabled(config.HFAspidochelone) {
		price = fee.CheckSigPrice
	}
	if err := ic.VM.AddPriceUnits(price); err != nil {
		return err
	}
	ic.VM.Push(hashItem(h))
	return nil
}

// contractCreateMultisigAccount is System.Contract.CreateMultisigAccount.
func contractCreateMultisigAccount(ic *Context) error {
	m, err := ic.popBigInt()
	if err != nil {
		return err
	}
	if !m.IsUint64() || m.Uint64() > math.MaxInt32 {
		return argError("m must be positive and fit int32")
	}
	arr, err := ic.popArray()
	if err != nil {
		return err
	}
	pubs := make([]*keys.PublicKey, len(arr))
	for i, it := range arr {
		var b []byte
		switch x := it.(type) {
		case *stackitem.ByteString:
			b = x.Bytes()
		case *stackitem.Buffer:
			b = x.Bytes()
		default:
			return fmt.Errorf("%w: key %d is %s", ErrInvalidArgument, i, it.Type())
		}
		if pubs[i], err = keys.NewPublicKeyFromBytes(b); err != nil {
			return err
		}
	}
	price := int64(1 << 8)
	if ic.IsHardforkEnabled(config.HFAspidochelone) {
		price = fee.CheckSigPrice * int64(len(pubs))
	}
	if err := ic.VM.AddPriceUnits(price); err != nil {
		return err
	}
	script, err := smartcontract.CreateMultiSigRedeemScript(int(m.Uint64()), pubs)
	if err != nil {
		return multisigError(int(m.Uint64()), len(pubs), err)
	}
	ic.VM.Push(hashItem(hash.Hash160(script)))
	return nil
}

// multisigError words err, a refusal of CreateMultiSigRedeemScript, as
// neo-go does. (neo-go limits m, not the key count, to 1024 and so accepts
// more than 1024 keys, which C# refuses as we do; that refusal keeps our
// text.)
func multisigError(m, n int, err error) error {
	switch {
	case m < 1:
		return Worded(err, fmt.Errorf("param m cannot be smaller than 1, got %d", m))
	case m > n:
		return Worded(err, fmt.Errorf("length of the signatures (%d) is higher then the number of public keys", m))
	}
	return err
}

// contractNativeOnPersist is System.Contract.NativeOnPersist.
func contractNativeOnPersist(ic *Context) error {
	if ic.Trigger != trigger.OnPersist {
		return errors.New("onPersist must be triggered by system")
	}
	return ic.Natives.OnPersist(ic)
}

// contractNativePostPersist is System.Contract.NativePostPersist.
func contractNativePostPersist(ic *Context) error {
	if ic.Trigger != trigger.PostPersist {
		return errors.New("postPersist must be triggered by system")
	}
	return ic.Natives.PostPersist(ic)
}

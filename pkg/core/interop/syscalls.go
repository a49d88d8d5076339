package interop

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm"
)

// Syscall names.
const (
	SystemContractCall                  = "System.Contract.Call"
	SystemContractCallNative            = "System.Contract.CallNative"
	SystemContractCreateMultisigAccount = "System.Contract.CreateMultisigAccount"
	SystemContractCreateStandardAccount = "System.Contract.CreateStandardAccount"
	SystemContractGetCallFlags          = "System.Contract.GetCallFlags"
	SystemContractNativeOnPersist       = "System.Contract.NativeOnPersist"
	SystemContractNativePostPersist     = "System.Contract.NativePostPersist"
	SystemCryptoCheckMultisig           = "System.Crypto.CheckMultisig"
	SystemCryptoCheckSig                = "System.Crypto.CheckSig"
	SystemIteratorNext                  = "System.Iterator.Next"
	SystemIteratorValue                 = "System.Iterator.Value"
	SystemRuntimeBurnGas                = "System.Runtime.BurnGas"
	SystemRuntimeCheckWitness           = "System.Runtime.CheckWitness"
	SystemRuntimeCurrentSigners         = "System.Runtime.CurrentSigners"
	SystemRuntimeGasLeft                = "System.Runtime.GasLeft"
	SystemRuntimeGetAddressVersion      = "System.Runtime.GetAddressVersion"
	SystemRuntimeGetCallingScriptHash   = "System.Runtime.GetCallingScriptHash"
	SystemRuntimeGetEntryScriptHash     = "System.Runtime.GetEntryScriptHash"
	SystemRuntimeGetExecutingScriptHash = "System.Runtime.GetExecutingScriptHash"
	SystemRuntimeGetInvocationCounter   = "System.Runtime.GetInvocationCounter"
	SystemRuntimeGetNetwork             = "System.Runtime.GetNetwork"
	SystemRuntimeGetNotifications       = "System.Runtime.GetNotifications"
	SystemRuntimeGetRandom              = "System.Runtime.GetRandom"
	SystemRuntimeGetScriptContainer     = "System.Runtime.GetScriptContainer"
	SystemRuntimeGetTime                = "System.Runtime.GetTime"
	SystemRuntimeGetTrigger             = "System.Runtime.GetTrigger"
	SystemRuntimeLoadScript             = "System.Runtime.LoadScript"
	SystemRuntimeLog                    = "System.Runtime.Log"
	SystemRuntimeNotify                 = "System.Runtime.Notify"
	SystemRuntimePlatform               = "System.Runtime.Platform"
	SystemStorageAsReadOnly             = "System.Storage.AsReadOnly"
	SystemStorageDelete                 = "System.Storage.Delete"
	SystemStorageFind                   = "System.Storage.Find"
	SystemStorageGet                    = "System.Storage.Get"
	SystemStorageGetContext             = "System.Storage.GetContext"
	SystemStorageGetReadOnlyContext     = "System.Storage.GetReadOnlyContext"
	SystemStoragePut                    = "System.Storage.Put"
	SystemStorageLocalDelete            = "System.Storage.Local.Delete"
	SystemStorageLocalFind              = "System.Storage.Local.Find"
	SystemStorageLocalGet               = "System.Storage.Local.Get"
	SystemStorageLocalPut               = "System.Storage.Local.Put"
)

// Function is a syscall: name, id, handler, fixed price (in price units,
// multiplied by the exec fee factor), the call flags the calling script
// must have and the hardfork that activates it (HFDefault: always).
type Function struct {
	ID            uint32
	Name          string
	Func          func(ic *Context) error
	Price         int64
	RequiredFlags callflag.CallFlag
	ActiveFrom    config.Hardfork
}

// functions is the syscall table, as neo-go 0.120.0 registers it. Where
// neo-go differs from C# (System.Runtime.GetTime requires ReadStates) it is
// followed.
var functions = []Function{
	{Name: SystemContractCall, Func: contractCall, Price: 1 << 15, RequiredFlags: callflag.ReadStates | callflag.AllowCall},
	{Name: SystemContractCallNative, Func: contractCallNative},
	{Name: SystemContractCreateMultisigAccount, Func: contractCreateMultisigAccount},
	{Name: SystemContractCreateStandardAccount, Func: contractCreateStandardAccount},
	{Name: SystemContractGetCallFlags, Func: contractGetCallFlags, Price: 1 << 10},
	{Name: SystemContractNativeOnPersist, Func: contractNativeOnPersist, RequiredFlags: callflag.States},
	{Name: SystemContractNativePostPersist, Func: contractNativePostPersist, RequiredFlags: callflag.States},
	{Name: SystemCryptoCheckMultisig, Func: cryptoCheckMultisig},
	{Name: SystemCryptoCheckSig, Func: cryptoCheckSig, Price: fee.CheckSigPrice},
	{Name: SystemIteratorNext, Func: iteratorNext, Price: 1 << 15},
	{Name: SystemIteratorValue, Func: iteratorValue, Price: 1 << 4},
	{Name: SystemRuntimeBurnGas, Func: runtimeBurnGas, Price: 1 << 4},
	{Name: SystemRuntimeCheckWitness, Func: runtimeCheckWitness, Price: 1 << 10},
	{Name: SystemRuntimeCurrentSigners, Func: runtimeCurrentSigners, Price: 1 << 4},
	{Name: SystemRuntimeGasLeft, Func: runtimeGasLeft, Price: 1 << 4},
	{Name: SystemRuntimeGetAddressVersion, Func: runtimeGetAddressVersion, Price: 1 << 3},
	{Name: SystemRuntimeGetCallingScriptHash, Func: runtimeGetCallingScriptHash, Price: 1 << 4},
	{Name: SystemRuntimeGetEntryScriptHash, Func: runtimeGetEntryScriptHash, Price: 1 << 4},
	{Name: SystemRuntimeGetExecutingScriptHash, Func: runtimeGetExecutingScriptHash, Price: 1 << 4},
	{Name: SystemRuntimeGetInvocationCounter, Func: runtimeGetInvocationCounter, Price: 1 << 4},
	{Name: SystemRuntimeGetNetwork, Func: runtimeGetNetwork, Price: 1 << 3},
	{Name: SystemRuntimeGetNotifications, Func: runtimeGetNotifications, Price: 1 << 12},
	{Name: SystemRuntimeGetRandom, Func: runtimeGetRandom},
	{Name: SystemRuntimeGetScriptContainer, Func: runtimeGetScriptContainer, Price: 1 << 3},
	{Name: SystemRuntimeGetTime, Func: runtimeGetTime, Price: 1 << 3, RequiredFlags: callflag.ReadStates},
	{Name: SystemRuntimeGetTrigger, Func: runtimeGetTrigger, Price: 1 << 3},
	{Name: SystemRuntimeLoadScript, Func: runtimeLoadScript, Price: 1 << 15, RequiredFlags: callflag.AllowCall},
	{Name: SystemRuntimeLog, Func: runtimeLog, Price: 1 << 15, RequiredFlags: callflag.AllowNotify},
	{Name: SystemRuntimeNotify, Func: runtimeNotify, Price: 1 << 15, RequiredFlags: callflag.AllowNotify},
	{Name: SystemRuntimePlatform, Func: runtimePlatform, Price: 1 << 3},
	{Name: SystemStorageAsReadOnly, Func: storageAsReadOnly, Price: 1 << 4, RequiredFlags: callflag.ReadStates},
	{Name: SystemStorageDelete, Func: withContext(storageDelete), Price: 1 << 15, RequiredFlags: callflag.WriteStates},
	{Name: SystemStorageFind, Func: withContext(storageFind), Price: 1 << 15, RequiredFlags: callflag.ReadStates},
	{Name: SystemStorageGet, Func: withContext(storageGet), Price: 1 << 15, RequiredFlags: callflag.ReadStates},
	{Name: SystemStorageGetContext, Func: storageGetContext, Price: 1 << 4, RequiredFlags: callflag.ReadStates},
	{Name: SystemStorageGetReadOnlyContext, Func: storageGetReadOnlyContext, Price: 1 << 4, RequiredFlags: callflag.ReadStates},
	{Name: SystemStoragePut, Func: withContext(storagePut), Price: 1 << 15, RequiredFlags: callflag.WriteStates},
	{Name: SystemStorageLocalDelete, Func: local(storageDelete), Price: 1 << 15, RequiredFlags: callflag.WriteStates, ActiveFrom: config.HFFaun},
	{Name: SystemStorageLocalFind, Func: local(storageFind), Price: 1 << 15, RequiredFlags: callflag.ReadStates, ActiveFrom: config.HFFaun},
	{Name: SystemStorageLocalGet, Func: local(storageGet), Price: 1 << 15, RequiredFlags: callflag.ReadStates, ActiveFrom: config.HFFaun},
	{Name: SystemStorageLocalPut, Func: local(storagePut), Price: 1 << 15, RequiredFlags: callflag.WriteStates, ActiveFrom: config.HFFaun},
}

// functionIndex maps syscall ids to functions.
var functionIndex map[uint32]*Function

func init() {
	for i := range functions {
		functions[i].ID = smartcontract.InteropID(functions[i].Name)
	}
	functionIndex = make(map[uint32]*Function, len(functions))
	slices.SortFunc(functions, func(a, b Function) int { return int(int64(a.ID) - int64(b.ID)) })
	for i := range functions {
		functionIndex[functions[i].ID] = &functions[i]
	}
}

// Functions returns the syscall table sorted by id (a copy).
func Functions() []Function { return slices.Clone(functions) }

// GetFunction returns the syscall with the given id if it is active for the
// context's hardforks, or nil.
func (ic *Context) GetFunction(id uint32) *Function {
	f := functionIndex[id]
	if f == nil || (f.ActiveFrom != config.HFDefault && !ic.IsHardforkEnabled(f.ActiveFrom)) {
		return nil
	}
	return f
}

// syscall is the VM's Syscall hook (C# OnSysCall): flag check, fixed price,
// handler.
//
// Errors are reported as neo-go reports them ("<syscall> failed: <error>"),
// except the errors neo-go raises as panics (argument conversions, native
// methods), which it reports bare (see PanicError).
func (ic *Context) syscall(v *vm.VM, id uint32) error {
	f := ic.GetFunction(id)
	if f == nil {
		if known := functionIndex[id]; known != nil {
			return &syscallError{name: known.Name, err: ErrSyscallNotFound}
		}
		return &syscallError{name: strconv.FormatUint(uint64(id), 10), err: ErrSyscallNotFound}
	}
	var err error
	if cf := ic.CallFlags(); !cf.Has(f.RequiredFlags) {
		err = fmt.Errorf("%w: %05b vs %05b", ErrMissingFlags, cf, f.RequiredFlags)
	} else if f.Price != 0 {
		err = v.AddPriceUnits(f.Price)
	}
	if err == nil {
		err = f.Func(ic)
	}
	if err == nil {
		return nil
	}
	// A panic in neo-go ends the syscall wherever it happens: its text
	// is the whole FAULT text.
	var pe *PanicError
	if errors.As(err, &pe) {
		return pe
	}
	return &syscallError{name: f.Name, err: err}
}

// syscallError is an error returned by a syscall handler.
type syscallError struct {
	name string
	err  error
}

func (e *syscallError) Error() string { return e.name + " failed: " + errorText(e.err) }
func (e *syscallError) Unwrap() error { return e.err }

// gasLimitText is neo-go's text for an exhausted GAS limit.
const gasLimitText = "GAS limit exceeded"

// errorText is err's message with the VM's GAS limit text replaced by
// neo-go's.
func errorText(err error) string {
	msg := err.Error()
	if errors.Is(err, vm.ErrGasLimit) {
		msg = strings.ReplaceAll(msg, vm.ErrGasLimit.Error(), gasLimitText)
	}
	return msg
}

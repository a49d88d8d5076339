package interop

import (
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// Run executes the loaded scripts until HALT or FAULT and finalizes the
// context (releases iterators). It returns the VM's fault error, if any.
func (ic *Context) Run() error {
	defer ic.Finalize()
	ic.VM.Execute()
	return ic.VM.FaultError()
}

// ResultItems returns a copy of the items neo-go reports as an execution's
// stack: the result stack after HALT, the evaluation stack of the context
// that faulted after FAULT (bottom first).
func (ic *Context) ResultItems() []stackitem.Item {
	st := ic.VM.ResultStack()
	if ic.VM.HasFailed() {
		if c := ic.VM.Context(); c != nil {
			st = c.Estack()
		}
	}
	return slices.Clone(st.Items())
}

// Execute loads script with the given flags, runs it and returns the
// execution result for container (the stack is the VM's result stack; the
// notifications are those sent, kept for a FAULT as neo-go does).
func (ic *Context) Execute(container hash.Uint256, script []byte, flags callflag.CallFlag) *state.AppExecResult {
	aer := &state.AppExecResult{Container: container}
	aer.Trigger = ic.Trigger
	if err := ic.LoadScript(script, flags); err != nil {
		aer.VMState = vmstate.Fault
		aer.FaultException = err.Error()
		aer.Stack = nil
		return aer
	}
	err := ic.Run()
	aer.VMState = ic.VM.State()
	aer.GasConsumed = ic.VM.GasConsumed()
	aer.Stack = ic.ResultItems()
	aer.Events = ic.Notifications
	aer.Invocations = ic.InvocationCalls
	if err != nil {
		aer.FaultException = FaultMessage(err)
	}
	return aer
}

// FaultMessage formats a VM fault as neo-go 0.120.0 writes it into
// application logs: "at instruction N (OP): reason", with neo-go's reasons
// for an exhausted GAS limit, an unhandled exception, ABORT and ASSERT.
// Other reasons are the VM's and the syscalls' messages.
func FaultMessage(err error) string {
	var f *vm.Fault
	if !errors.As(err, &f) {
		return errorText(err)
	}
	var reason string
	var ue *vm.UnhandledError
	switch {
	case errors.As(f.Err, &ue):
		reason = "unhandled exception"
		it := ue.Item
		if a, ok := it.(*stackitem.Array); ok && !a.IsStruct() {
			it = nil
			if a.Len() > 0 {
				it = a.Get(0)
			}
		} else if ok {
			it = nil
		}
		if it != nil {
			if b, err := it.TryBytes(); err == nil {
				reason = fmt.Sprintf("%s: %q", reason, string(b))
			}
		}
	case f.Op == opcode.ABORT:
		reason = "ABORT"
	case f.Op == opcode.ASSERT:
		reason = "ASSERT failed"
	default:
		reason = errorText(f.Err)
	}
	return fmt.Sprintf("at instruction %d (%s): %s", f.IP, f.Op, reason)
}

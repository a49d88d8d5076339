package interop

import (
	"slices"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
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
	if err != nil {
		aer.FaultException = err.Error()
	}
	return aer
}

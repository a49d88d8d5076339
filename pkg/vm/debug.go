package vm

import (
	"maps"
	"slices"

	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// The debugger API follows C# Neo.VM.Debugger: StepInto, StepOver, StepOut
// and Run (Execute with breakpoints). A breakpoint stops the VM in BREAK
// before the instruction at its position runs.

// AddBreakPoint sets a breakpoint at position pos of script s.
func (v *VM) AddBreakPoint(s *Script, pos int) {
	if v.breakpoints == nil {
		v.breakpoints = make(map[*Script]map[int]struct{})
	}
	m := v.breakpoints[s]
	if m == nil {
		m = make(map[int]struct{})
		v.breakpoints[s] = m
	}
	m[pos] = struct{}{}
}

// RemoveBreakPoint clears a breakpoint and reports whether it existed.
func (v *VM) RemoveBreakPoint(s *Script, pos int) bool {
	m := v.breakpoints[s]
	if _, ok := m[pos]; !ok {
		return false
	}
	delete(m, pos)
	if len(m) == 0 {
		delete(v.breakpoints, s)
	}
	return true
}

// BreakPoints returns the breakpoints of script s in ascending order.
func (v *VM) BreakPoints(s *Script) []int {
	return slices.Sorted(maps.Keys(v.breakpoints[s]))
}

func (v *VM) executeAndCheckBreakPoints() {
	v.executeNext()
	if v.state == vmstate.None && len(v.istack) > 0 && len(v.breakpoints) > 0 {
		c := v.Context()
		if _, ok := v.breakpoints[c.inv.script][c.ip]; ok {
			v.state = vmstate.Break
		}
	}
}

// Run executes until HALT, FAULT or a breakpoint (C# Debugger.Execute).
func (v *VM) Run() vmstate.State {
	if v.state == vmstate.Break {
		v.state = vmstate.None
	}
	for v.state == vmstate.None {
		v.executeAndCheckBreakPoints()
	}
	return v.state
}

// StepInto executes one instruction and stops in BREAK.
func (v *VM) StepInto() vmstate.State {
	if v.state == vmstate.Halt || v.state == vmstate.Fault {
		return v.state
	}
	v.executeNext()
	if v.state == vmstate.None {
		v.state = vmstate.Break
	}
	return v.state
}

// StepOut runs until the current context returns.
func (v *VM) StepOut() vmstate.State {
	if v.state == vmstate.Break {
		v.state = vmstate.None
	}
	c := len(v.istack)
	for v.state == vmstate.None && len(v.istack) >= c {
		v.executeAndCheckBreakPoints()
	}
	if v.state == vmstate.None {
		v.state = vmstate.Break
	}
	return v.state
}

// StepOver executes one instruction, running a call it makes to completion.
func (v *VM) StepOver() vmstate.State {
	if v.state == vmstate.Halt || v.state == vmstate.Fault {
		return v.state
	}
	v.state = vmstate.None
	c := len(v.istack)
	for {
		v.executeAndCheckBreakPoints()
		if v.state != vmstate.None || len(v.istack) <= c {
			break
		}
	}
	if v.state == vmstate.None {
		v.state = vmstate.Break
	}
	return v.state
}

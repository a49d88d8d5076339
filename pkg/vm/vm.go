package vm

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/fee"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// Execution limits (C# ExecutionEngineLimits.Default).
const (
	// MaxStackSize is the largest reference count after an instruction
	// (C# MaxStackSize).
	MaxStackSize = 2 * 1024
	// MaxInvocationStackSize is the deepest invocation stack (C#
	// MaxInvocationStackSize).
	MaxInvocationStackSize = 1024
	// MaxTryNestingDepth is the deepest TRY nesting per context (C#
	// MaxTryNestingDepth).
	MaxTryNestingDepth = 16
	// MaxShift is the largest shift and POW exponent (C# MaxShift).
	MaxShift = 256
	// MaxItemSize is the largest item in bytes (C# MaxItemSize).
	MaxItemSize = stackitem.MaxSize
	// MaxReturnCount is the largest return-value count a context may declare
	// (C# ExecutionContext checks rvcount <= ushort.MaxValue).
	MaxReturnCount = math.MaxUint16
)

// FeeFactor is the number of picoGAS in one datoshi (C# ApplicationEngine.
// FeeFactor): from HF_Faun the execution fee factor carries 4 more decimals.
const FeeFactor = 10000

// Errors the VM reports; a fault wraps one of these or a stackitem error.
var (
	// ErrGasLimit is returned when an instruction or AddPicoGas exceeds the
	// GAS limit (C# "Insufficient GAS.").
	ErrGasLimit = errors.New("insufficient GAS")
	// ErrInvalidOperation is C# InvalidOperationException and the other
	// runtime errors of opcode handlers.
	ErrInvalidOperation = errors.New("invalid operation")
	// ErrStackLimit is returned when the reference count exceeds MaxStackSize.
	ErrStackLimit = errors.New("MaxStackSize exceed")
	// ErrNoHandler is returned by SYSCALL or CALLT without a hook.
	ErrNoHandler = errors.New("no handler")
)

// Fault describes why the VM stopped in FAULT: the instruction and the
// error. Err keeps the exact message of the C# exception where it is
// observable.
type Fault struct {
	IP  int
	Op  opcode.Opcode
	Err error
}

func (f *Fault) Error() string {
	return fmt.Sprintf("at instruction %d (%s): %v", f.IP, f.Op, f.Err)
}

func (f *Fault) Unwrap() error { return f.Err }

// UnhandledError is the fault of an exception no TRY caught (C#
// VMUnhandledException).
type UnhandledError struct {
	Item stackitem.Item
}

func (e *UnhandledError) Error() string {
	var sb strings.Builder
	sb.WriteString("An unhandled exception was thrown.")
	s, ok := e.Item.(*stackitem.ByteString)
	if a, isArr := e.Item.(*stackitem.Array); !ok && isArr && !a.IsStruct() && a.Len() > 0 {
		s, ok = a.Get(0).(*stackitem.ByteString)
	}
	if ok {
		sb.WriteByte(' ')
		sb.WriteString(strings.ToValidUTF8(string(s.Bytes()), "\uFFFD"))
	}
	return sb.String()
}

// Hooks connect the VM to the interop layer. Every hook is optional.
type Hooks struct {
	// Syscall runs SYSCALL id (the first 4 bytes, little-endian, of SHA-256
	// of the syscall name). A returned error faults the VM; use Throw for a
	// catchable exception. The hook charges the syscall price itself.
	Syscall func(v *VM, id uint32) error
	// CallT runs CALLT with the method token index.
	CallT func(v *VM, token uint16) error
	// Loaded is called after a context is pushed, including contexts created
	// by CALL (C# LoadContext override, diagnostics).
	Loaded func(v *VM, ctx *Context)
	// Unloaded is called when the last context of an invocation leaves the
	// invocation stack, by RET (normal is true) or by exception unwinding or
	// a RET while an exception is pending (normal is false). At that point
	// ctx's evaluation stack still holds its return values and v.Context()
	// is the caller. A returned error faults the VM (C# ApplicationEngine.
	// ContextUnloaded).
	Unloaded func(v *VM, ctx *Context, normal bool) error
	// PreStep is called before each instruction with the context and the
	// opcode about to run (after decoding, before the GAS charge).
	PreStep func(v *VM, ctx *Context, op opcode.Opcode)
}

// Rules selects the opcode behaviours that changed at hardforks.
type Rules struct {
	// Echidna: SUBSTR checks index+count for overflow (HF_Echidna).
	Echidna bool
	// Gorgon: the HASKEY, PICKITEM, SETITEM, REMOVE (neo-vm #543) and SHL,
	// SHR (#567) handlers of the current VM (HF_Gorgon). Gorgon implies
	// Echidna.
	Gorgon bool
}

// LatestRules enables every hardfork behaviour.
func LatestRules() Rules { return Rules{Echidna: true, Gorgon: true} }

// VM is a NeoVM execution engine. It is not safe for concurrent use. A VM
// can run many scripts one after another: Reset clears it and keeps its
// allocations.
type VM struct {
	state    vmstate.State
	istack   []*Context
	result   *Stack
	refs     stackitem.RefCounter
	uncaught stackitem.Item
	jumping  bool
	table    *jumpTable
	rules    Rules
	entry    *Context
	fault    error

	gasConsumed uint64 // picoGAS
	gasLimit    uint64 // picoGAS
	execFee     uint64 // picoGAS per unit of opcode price

	hooks       Hooks
	breakpoints map[*Script]map[int]struct{}
	alloc       stackitem.Allocator
	ctxPool     []*Context
}

// New returns a VM with the latest rules, no GAS charging and no hooks,
// in state BREAK as C# ExecutionEngine starts.
func New() *VM {
	v := &VM{
		istack:   make([]*Context, 0, 8),
		table:    &latestTable,
		rules:    LatestRules(),
		state:    vmstate.Break,
		gasLimit: math.MaxUint64,
	}
	v.result = newStack(&v.refs)
	return v
}

// Reset prepares the VM for a new execution: it empties the stacks and
// counters, clears the fault and breakpoints, sets the latest rules,
// unlimited GAS and no fee factor, and state BREAK. Hooks are kept.
func (v *VM) Reset() {
	for _, c := range v.istack {
		v.freeContext(c)
	}
	clear(v.istack)
	v.istack = v.istack[:0]
	v.result.reset()
	v.refs.Reset()
	v.uncaught = nil
	v.jumping = false
	v.table = &latestTable
	v.rules = LatestRules()
	v.entry = nil
	v.fault = nil
	v.gasConsumed = 0
	v.gasLimit = math.MaxUint64
	v.execFee = 0
	v.breakpoints = nil
	v.state = vmstate.Break
}

// SetHooks installs the interop hooks.
func (v *VM) SetHooks(h Hooks) { v.hooks = h }

// Hooks returns the installed hooks.
func (v *VM) Hooks() Hooks { return v.hooks }

// SetRules selects the hardfork behaviours.
func (v *VM) SetRules(r Rules) {
	v.rules = r
	switch {
	case r.Gorgon:
		v.table = &latestTable
	case r.Echidna:
		v.table = &preGorgonTable
	default:
		v.table = &preEchidnaTable
	}
}

// Rules returns the active hardfork behaviours.
func (v *VM) Rules() Rules { return v.rules }

// State returns the VM state.
func (v *VM) State() vmstate.State { return v.state }

// HasFailed reports whether the VM is in FAULT.
func (v *VM) HasFailed() bool { return v.state == vmstate.Fault }

// HasHalted reports whether the VM is in HALT.
func (v *VM) HasHalted() bool { return v.state == vmstate.Halt }

// FaultError returns the error that put the VM in FAULT (a *Fault), or nil.
func (v *VM) FaultError() error { return v.fault }

// UncaughtException returns the exception being propagated (during FINALLY
// blocks) or the one that faulted the VM; nil otherwise.
func (v *VM) UncaughtException() stackitem.Item { return v.uncaught }

// Refs returns the reference counter's count (C# ReferenceCounter.Count).
func (v *VM) Refs() int { return v.refs.Count() }

// RefCounter returns the VM's reference counter, for hooks that move items
// between stacks and containers.
func (v *VM) RefCounter() *stackitem.RefCounter { return &v.refs }

// ResultStack returns the stack the entry script returns into.
func (v *VM) ResultStack() *Stack { return v.result }

// Context returns the current (top) context, or nil.
func (v *VM) Context() *Context {
	if len(v.istack) == 0 {
		return nil
	}
	return v.istack[len(v.istack)-1]
}

// EntryContext returns the first loaded context, or nil.
func (v *VM) EntryContext() *Context { return v.entry }

// InvocationStack returns the contexts, bottom (entry) first; callers must
// not modify the slice.
func (v *VM) InvocationStack() []*Context { return v.istack }

// Estack returns the evaluation stack of the current context (nil if none).
func (v *VM) Estack() *Stack {
	if c := v.Context(); c != nil {
		return c.estack
	}
	return nil
}

// Push pushes item onto the current context's evaluation stack.
func (v *VM) Push(item stackitem.Item) { v.Context().estack.Push(item) }

// Pop pops the top item of the current context's evaluation stack.
func (v *VM) Pop() (stackitem.Item, error) {
	c := v.Context()
	if c == nil {
		return nil, fmt.Errorf("%w: no context", ErrStackUnderflow)
	}
	return c.estack.Pop()
}

// Peek returns the item n positions below the top of the current stack.
func (v *VM) Peek(n int) (stackitem.Item, error) {
	c := v.Context()
	if c == nil {
		return nil, fmt.Errorf("%w: no context", ErrStackUnderflow)
	}
	return c.estack.Peek(n)
}

// LoadParams are the per-invocation settings of LoadScriptWith.
type LoadParams struct {
	// RVCount is the number of values the script must leave when it returns
	// into a different evaluation stack; -1 allows any number.
	RVCount int
	// Offset is the initial instruction pointer.
	Offset int
	// ScriptHash, CallingScriptHash, CallFlags, FeeExempt and Data are
	// stored for the interop layer (see the Context accessors).
	ScriptHash        hash.Uint160
	CallingScriptHash hash.Uint160
	CallFlags         callflag.CallFlag
	FeeExempt         bool
	Data              any
}

// LoadScript loads s as a new invocation that may return any number of
// values, starting at position 0 (C# LoadScript(script)).
func (v *VM) LoadScript(s *Script) (*Context, error) {
	return v.LoadScriptWith(s, LoadParams{RVCount: -1})
}

// LoadScriptWith loads s as a new invocation with its own evaluation stack
// (C# LoadScript with configureState, then LoadContext).
func (v *VM) LoadScriptWith(s *Script, p LoadParams) (*Context, error) {
	if p.RVCount < -1 || p.RVCount > MaxReturnCount {
		return nil, fmt.Errorf("%w: rvcount out of range: %d", ErrInvalidOperation, p.RVCount)
	}
	if p.Offset < 0 || p.Offset > len(s.b) {
		return nil, fmt.Errorf("%w: Out of script bounds: %d/%d", ErrInvalidOperation, p.Offset, len(s.b))
	}
	inv := &invocation{
		script:            s,
		estack:            newStack(&v.refs),
		scriptHash:        p.ScriptHash,
		callingScriptHash: p.CallingScriptHash,
		callFlags:         p.CallFlags,
		feeExempt:         p.FeeExempt,
		data:              p.Data,
	}
	ctx := v.newContext()
	ctx.inv, ctx.script, ctx.estack, ctx.ip, ctx.rvcount = inv, s.b, inv.estack, p.Offset, p.RVCount
	if err := v.loadContext(ctx); err != nil {
		v.freeContext(ctx)
		return nil, err
	}
	return ctx, nil
}

// Call loads a context that continues the current invocation at position
// offset (what CALL does; the interop layer uses it for _initialize).
func (v *VM) Call(offset int) (*Context, error) {
	cur := v.Context()
	if cur == nil {
		return nil, fmt.Errorf("%w: no context", ErrInvalidOperation)
	}
	return v.call(cur, offset)
}

func (v *VM) call(cur *Context, pos int) (*Context, error) {
	if pos < 0 || pos > len(cur.inv.script.b) {
		return nil, fmt.Errorf("%w: Out of script bounds: %d/%d", ErrInvalidOperation, pos, len(cur.inv.script.b))
	}
	ctx := v.newContext()
	ctx.inv, ctx.script, ctx.estack, ctx.ip, ctx.rvcount = cur.inv, cur.script, cur.estack, pos, 0
	if err := v.loadContext(ctx); err != nil {
		v.freeContext(ctx)
		return nil, err
	}
	return ctx, nil
}

func (v *VM) loadContext(ctx *Context) error {
	if len(v.istack) >= MaxInvocationStackSize {
		return fmt.Errorf("%w: MaxInvocationStackSize exceed: %d", ErrInvalidOperation, len(v.istack))
	}
	v.istack = append(v.istack, ctx)
	if v.entry == nil {
		v.entry = ctx
	}
	if v.hooks.Loaded != nil {
		v.hooks.Loaded(v, ctx)
	}
	return nil
}

// unloadContext is C# ContextUnloaded for a context already popped.
func (v *VM) unloadContext(c *Context) error {
	cur := v.Context()
	if cur == nil {
		v.entry = nil
	}
	other := cur == nil || cur.inv != c.inv
	if other && c.inv.static != nil {
		for _, it := range c.inv.static {
			v.refs.Remove(it)
		}
	}
	for _, it := range c.locals {
		v.refs.Remove(it)
	}
	for _, it := range c.args {
		v.refs.Remove(it)
	}
	var err error
	if other && v.hooks.Unloaded != nil {
		err = v.hooks.Unloaded(v, c, v.uncaught == nil)
	}
	v.freeContext(c)
	return err
}

// SetGasLimit sets the GAS limit in datoshi; a negative value means no
// limit. Limits beyond 2^64 picoGAS are treated as no limit.
func (v *VM) SetGasLimit(datoshi int64) {
	if datoshi < 0 {
		v.gasLimit = math.MaxUint64
		return
	}
	hi, lo := bits.Mul64(uint64(datoshi), FeeFactor)
	if hi != 0 {
		v.gasLimit = math.MaxUint64
		return
	}
	v.gasLimit = lo
}

// SetPicoGasLimit sets the GAS limit in picoGAS.
func (v *VM) SetPicoGasLimit(pico uint64) { v.gasLimit = pico }

// SetExecFeeFactor sets the price of one opcode price unit in picoGAS: the
// Policy exec fee factor times FeeFactor before HF_Faun, the stored
// picoGAS factor from HF_Faun. Zero disables opcode charging.
func (v *VM) SetExecFeeFactor(pico uint64) { v.execFee = pico }

// ExecFeeFactor returns the picoGAS price of one opcode price unit.
func (v *VM) ExecFeeFactor() uint64 { return v.execFee }

// PicoGasConsumed returns the GAS consumed in picoGAS.
func (v *VM) PicoGasConsumed() uint64 { return v.gasConsumed }

// GasConsumed returns the GAS consumed in datoshi, rounded up (C#
// FeeConsumed).
func (v *VM) GasConsumed() int64 {
	d := v.gasConsumed / FeeFactor
	if v.gasConsumed%FeeFactor != 0 {
		d++
	}
	return int64(d)
}

// GasLeft returns the GAS left in datoshi, rounded down (C# GasLeft), or -1
// without a limit.
func (v *VM) GasLeft() int64 {
	if v.gasLimit == math.MaxUint64 {
		return -1
	}
	if v.gasConsumed >= v.gasLimit {
		return 0
	}
	return int64((v.gasLimit - v.gasConsumed) / FeeFactor)
}

// AddPicoGas charges pico picoGAS unless the current invocation is fee
// exempt (C# AddFee). It returns ErrGasLimit when the total exceeds the
// limit; the amount stays charged.
func (v *VM) AddPicoGas(pico uint64) error {
	if c := v.Context(); c != nil && c.inv.feeExempt {
		return nil
	}
	return v.charge(pico)
}

func (v *VM) charge(pico uint64) error {
	sum, carry := bits.Add64(v.gasConsumed, pico, 0)
	if carry != 0 {
		sum = math.MaxUint64
	}
	v.gasConsumed = sum
	if sum > v.gasLimit || carry != 0 {
		return ErrGasLimit
	}
	return nil
}

// AddGas charges datoshi GAS (see AddPicoGas).
func (v *VM) AddGas(datoshi int64) error {
	if datoshi < 0 {
		return fmt.Errorf("%w: negative fee", ErrInvalidOperation)
	}
	hi, lo := bits.Mul64(uint64(datoshi), FeeFactor)
	if hi != 0 {
		lo = math.MaxUint64
	}
	return v.AddPicoGas(lo)
}

// AddPriceUnits charges units times the exec fee factor (a syscall's fixed
// price, C# AddFee(price * ExecFeeFactor)).
func (v *VM) AddPriceUnits(units int64) error {
	if units < 0 {
		return fmt.Errorf("%w: negative fee", ErrInvalidOperation)
	}
	hi, lo := bits.Mul64(uint64(units), v.execFee)
	if hi != 0 {
		lo = math.MaxUint64
	}
	return v.AddPicoGas(lo)
}

// Throw raises item as a VM exception from a hook: the nearest TRY handles
// it (C# ExecuteThrow). An error means no handler exists; return it from the
// hook to fault the VM.
func (v *VM) Throw(item stackitem.Item) error { return v.throw(item) }

// Execute runs until HALT or FAULT (C# ExecutionEngine.Execute) and
// returns the final state. Breakpoints are ignored; see Run.
func (v *VM) Execute() vmstate.State {
	if v.state == vmstate.Break {
		v.state = vmstate.None
	}
	for v.state != vmstate.Halt && v.state != vmstate.Fault {
		v.executeNext()
	}
	return v.state
}

// executeNext is C# ExecuteNext: one instruction, or HALT with an empty
// invocation stack.
func (v *VM) executeNext() {
	n := len(v.istack)
	if n == 0 {
		v.state = vmstate.Halt
		return
	}
	ctx := v.istack[n-1]
	script := ctx.script
	ip := ctx.ip
	op := opcode.RET
	var arg []byte
	size := 0
	if ip < len(script) {
		op = opcode.Opcode(script[ip])
		switch info := int(operandInfo[op]); {
		case info == 0:
			size = 1
		case info > 0 && info < len(script)-ip:
			size = 1 + info
			arg = script[ip+1 : ip+size : ip+size]
		default:
			var err error
			op, arg, size, err = decodeAt(script, ip)
			if err != nil {
				v.setFault(ip, op, err)
				return
			}
		}
	}
	if v.hooks.PreStep != nil {
		v.hooks.PreStep(v, ctx, op)
	}
	if v.execFee != 0 && !ctx.inv.feeExempt {
		if err := v.charge(uint64(fee.Opcode(op)) * v.execFee); err != nil {
			v.setFault(ip, op, err)
			return
		}
	}
	err := v.table[op](v, ctx, op, arg)
	if v.refs.Count() > MaxStackSize && err == nil {
		err = fmt.Errorf("%w: %d/%d", ErrStackLimit, v.refs.Count(), MaxStackSize)
	}
	if err != nil {
		v.setFault(ip, op, err)
		return
	}
	if !v.jumping && size != 0 {
		ctx.ip = ip + size
	}
	v.jumping = false
}

func (v *VM) setFault(ip int, op opcode.Opcode, err error) {
	v.state = vmstate.Fault
	v.fault = &Fault{IP: ip, Op: op, Err: err}
	v.jumping = false
}

const haltState = vmstate.Halt

func itoa(v int64) string { return fmt.Sprint(v) }

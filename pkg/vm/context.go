package vm

import (
	"fmt"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// invocation is the state shared by a loaded script and the contexts CALL
// clones from it (C# ExecutionContext.SharedStates plus the per-invocation
// part of ApplicationEngine's ExecutionContextState).
type invocation struct {
	script *Script
	estack *Stack
	static []stackitem.Item // nil until INITSSLOT

	scriptHash        hash.Uint160
	callingScriptHash hash.Uint160
	callFlags         callflag.CallFlag
	feeExempt         bool
	data              any
}

// tryContext is an exception-handling context (C# ExceptionHandlingContext).
type tryContext struct {
	catchPtr   int // < 0: no catch
	finallyPtr int // < 0: no finally
	endPtr     int
	state      tryState
}

type tryState uint8

const (
	tryStateTry tryState = iota
	tryStateCatch
	tryStateFinally
)

// Context is one entry of the invocation stack (C# ExecutionContext).
// Contexts created by CALL share their script, evaluation stack, static
// fields and invocation data with the context they were called from.
type Context struct {
	inv      *invocation
	script   []byte // inv.script.b, kept here for the dispatch loop
	estack   *Stack
	ip       int
	rvcount  int
	locals   []stackitem.Item // nil: no slot
	args     []stackitem.Item // nil: no slot
	tryStack []tryContext

	// Backing arrays kept when the VM recycles the context.
	localsBuf, argsBuf []stackitem.Item
}

// maxPooledContexts bounds the VM's free list of contexts.
const maxPooledContexts = 64

// newContext returns a recycled or new context.
func (v *VM) newContext() *Context {
	if n := len(v.ctxPool); n > 0 {
		c := v.ctxPool[n-1]
		v.ctxPool = v.ctxPool[:n-1]
		return c
	}
	return new(Context)
}

// freeContext recycles an unloaded context, dropping its references.
func (v *VM) freeContext(c *Context) {
	if len(v.ctxPool) >= maxPooledContexts {
		return
	}
	clear(c.locals)
	clear(c.args)
	*c = Context{localsBuf: c.localsBuf, argsBuf: c.argsBuf, tryStack: c.tryStack[:0]}
	v.ctxPool = append(v.ctxPool, c)
}

// slot returns a slot of n items backed by *buf when it is big enough.
func slot(buf *[]stackitem.Item, n int) []stackitem.Item {
	if cap(*buf) < n {
		*buf = make([]stackitem.Item, n, max(n, 8))
	}
	return (*buf)[:n]
}

// IP returns the instruction pointer: the position of the next instruction.
func (c *Context) IP() int { return c.ip }

// Script returns the script.
func (c *Context) Script() *Script { return c.inv.script }

// NextInstruction returns the opcode at IP, RET past the end of the script
// (the implicit return), or an error if the bytes at IP do not decode.
func (c *Context) NextInstruction() (opcode.Opcode, []byte, error) {
	b := c.inv.script.b
	if c.ip >= len(b) {
		return opcode.RET, nil, nil
	}
	op, operand, _, err := decodeAt(b, c.ip)
	return op, operand, err
}

// Estack returns the evaluation stack.
func (c *Context) Estack() *Stack { return c.estack }

// RVCount returns the number of values the context must return (-1: any).
func (c *Context) RVCount() int { return c.rvcount }

// StaticFields returns the static slot (nil if INITSSLOT has not run).
func (c *Context) StaticFields() []stackitem.Item { return c.inv.static }

// LocalVariables returns the local slot (nil if there is none).
func (c *Context) LocalVariables() []stackitem.Item { return c.locals }

// Arguments returns the argument slot (nil if there is none).
func (c *Context) Arguments() []stackitem.Item { return c.args }

// ScriptHash returns the script hash set at load time.
func (c *Context) ScriptHash() hash.Uint160 { return c.inv.scriptHash }

// SetScriptHash sets the script hash of the invocation.
func (c *Context) SetScriptHash(h hash.Uint160) { c.inv.scriptHash = h }

// CallingScriptHash returns the calling script hash set at load time.
func (c *Context) CallingScriptHash() hash.Uint160 { return c.inv.callingScriptHash }

// CallFlags returns the call flags of the invocation (stored for the
// interop layer; the VM does not check them).
func (c *Context) CallFlags() callflag.CallFlag { return c.inv.callFlags }

// FeeExempt reports whether instructions of this invocation are free (the
// Faun fee whitelist).
func (c *Context) FeeExempt() bool { return c.inv.feeExempt }

// SetFeeExempt sets the fee exemption of the invocation.
func (c *Context) SetFeeExempt(v bool) { c.inv.feeExempt = v }

// Data returns the opaque value the interop layer attached to the
// invocation.
func (c *Context) Data() any { return c.inv.data }

// SetData attaches an opaque value to the invocation (shared with the
// contexts CALL creates from it).
func (c *Context) SetData(d any) { c.inv.data = d }

// SameInvocation reports whether c and o belong to the same loaded script
// (one of them was created from the other by CALL).
func (c *Context) SameInvocation(o *Context) bool { return o != nil && c.inv == o.inv }

// TryDepth returns the number of active exception-handling contexts.
func (c *Context) TryDepth() int { return len(c.tryStack) }

// HasActiveTry reports whether the context has a TRY block whose CATCH or
// FINALLY has not started.
func (c *Context) HasActiveTry() bool {
	for i := range c.tryStack {
		if c.tryStack[i].state == tryStateTry {
			return true
		}
	}
	return false
}

// Jump moves the instruction pointer to ip, a position in the script
// (the debugger's jump; nothing checks that an instruction starts there).
func (c *Context) Jump(ip int) error {
	if ip < 0 || ip >= len(c.inv.script.b) {
		return fmt.Errorf("%w: instruction offset %d is out of range", ErrInvalidOperation, ip)
	}
	c.ip = ip
	return nil
}

package vm

import (
	"encoding/binary"
	"math"

	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func opInvalid(_ *VM, _ *Context, op opcode.Opcode, _ []byte) error {
	return invalidOp("Opcode %s is undefined.", op)
}

func opPushInt(v *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	if x, ok := bigint.Int64FromBytes(arg); ok {
		ctx.estack.pushPrimitive(v.alloc.Int(x))
		return nil
	}
	ctx.estack.pushPrimitive(stackitem.NewBigInteger(bigint.FromBytes(arg)))
	return nil
}

func opPushT(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	ctx.estack.pushPrimitive(stackitem.Bool(true))
	return nil
}

func opPushF(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	ctx.estack.pushPrimitive(stackitem.Bool(false))
	return nil
}

func opPushNull(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	ctx.estack.pushPrimitive(stackitem.Null{})
	return nil
}

func opPushSmall(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	ctx.estack.pushPrimitive(stackitem.NewInt(int64(op) - int64(opcode.PUSH0)))
	return nil
}

func opPushData(v *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	if len(arg) > MaxItemSize {
		return invalidOp("MaxItemSize exceed: %d/%d", len(arg), MaxItemSize)
	}
	ctx.estack.pushPrimitive(v.alloc.ByteString(arg))
	return nil
}

func opPushA(_ *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	pos := int64(ctx.ip) + int64(int32(binary.LittleEndian.Uint32(arg)))
	if pos < 0 || pos > int64(len(ctx.inv.script.b)) {
		return invalidOp("Bad pointer address(Instruction instruction) %d", pos)
	}
	ctx.estack.pushPrimitive(stackitem.NewPointer(int(pos), ctx.inv))
	return nil
}

func opNop(*VM, *Context, opcode.Opcode, []byte) error { return nil }

// jumpOffset reads a 1- or 4-byte signed offset.
func jumpOffset(arg []byte) int64 {
	if len(arg) == 1 {
		return int64(int8(arg[0]))
	}
	return int64(int32(binary.LittleEndian.Uint32(arg)))
}

// target computes IP + offset with C# checked int32 arithmetic.
func target(ctx *Context, off int64) (int, error) {
	t := int64(ctx.ip) + off
	if t > math.MaxInt32 || t < math.MinInt32 {
		return 0, &vmError{msg: "Arithmetic operation resulted in an overflow.", kind: ErrInvalidOperation}
	}
	return int(t), nil
}

// jump is C# ExecuteJump.
func (v *VM) jump(ctx *Context, pos int) error {
	if pos < 0 || pos >= len(ctx.inv.script.b) {
		return invalidOp("Jump out of range for position: %d", pos)
	}
	ctx.ip = pos
	v.jumping = true
	return nil
}

// setIP is the C# InstructionPointer setter.
func (v *VM) setIP(ctx *Context, pos int) error {
	if pos < 0 || pos > len(ctx.inv.script.b) {
		return invalidOp("Out of script bounds: %d/%d", pos, len(ctx.inv.script.b))
	}
	ctx.ip = pos
	return nil
}

func opJmp(v *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	t, err := target(ctx, jumpOffset(arg))
	if err != nil {
		return err
	}
	return v.jump(ctx, t)
}

func opJmpIf(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	b, err := ctx.estack.popBool()
	if err != nil {
		return err
	}
	if b == (op == opcode.JMPIF || op == opcode.JMPIFL) {
		return opJmp(v, ctx, op, arg)
	}
	return nil
}

func opJmpCmp(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	x1, x2, err := ctx.estack.popIntegerPair()
	if err != nil {
		return err
	}
	c := x1.Cmp(x2)
	var cond bool
	switch op {
	case opcode.JMPEQ, opcode.JMPEQL:
		cond = c == 0
	case opcode.JMPNE, opcode.JMPNEL:
		cond = c != 0
	case opcode.JMPGT, opcode.JMPGTL:
		cond = c > 0
	case opcode.JMPGE, opcode.JMPGEL:
		cond = c >= 0
	case opcode.JMPLT, opcode.JMPLTL:
		cond = c < 0
	case opcode.JMPLE, opcode.JMPLEL:
		cond = c <= 0
	}
	if cond {
		return opJmp(v, ctx, op, arg)
	}
	return nil
}

func opCall(v *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	t, err := target(ctx, jumpOffset(arg))
	if err != nil {
		return err
	}
	_, err = v.call(ctx, t)
	return err
}

func opCallA(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	p, err := popAs[*stackitem.Pointer](ctx.estack, "Pointer")
	if err != nil {
		return err
	}
	if p.Script() != any(ctx.inv) {
		return invalidOp("Pointers can't be shared between scripts")
	}
	_, err = v.call(ctx, p.Position())
	return err
}

func opCallT(v *VM, _ *Context, _ opcode.Opcode, arg []byte) error {
	token := binary.LittleEndian.Uint16(arg)
	if v.hooks.CallT == nil {
		return &vmError{msg: "Token not found: " + itoa(int64(token)), kind: ErrNoHandler}
	}
	return v.hooks.CallT(v, token)
}

func opSyscall(v *VM, _ *Context, _ opcode.Opcode, arg []byte) error {
	id := binary.LittleEndian.Uint32(arg)
	if v.hooks.Syscall == nil {
		return &vmError{msg: "Syscall not found: " + itoa(int64(id)), kind: ErrNoHandler}
	}
	return v.hooks.Syscall(v, id)
}

func opAbort(*VM, *Context, opcode.Opcode, []byte) error {
	return invalidOp("ABORT is executed.")
}

func opAssert(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	b, err := ctx.estack.popBool()
	if err != nil {
		return err
	}
	if !b {
		return invalidOp("ASSERT is executed with false result.")
	}
	return nil
}

func opThrow(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	item, err := ctx.estack.Pop()
	if err != nil {
		return err
	}
	return v.throw(item)
}

func opTry(_ *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	var catchOff, finallyOff int64
	if op == opcode.TRY {
		catchOff, finallyOff = int64(int8(arg[0])), int64(int8(arg[1]))
	} else {
		catchOff = int64(int32(binary.LittleEndian.Uint32(arg)))
		finallyOff = int64(int32(binary.LittleEndian.Uint32(arg[4:])))
	}
	if catchOff == 0 && finallyOff == 0 {
		return invalidOp("catchOffset and finallyOffset can't both be 0 in a TRY block.")
	}
	if len(ctx.tryStack) >= MaxTryNestingDepth {
		return invalidOp("MaxTryNestingDepth exceed.")
	}
	catchPtr, finallyPtr := -1, -1
	var err error
	if catchOff != 0 {
		if catchPtr, err = target(ctx, catchOff); err != nil {
			return err
		}
	}
	if finallyOff != 0 {
		if finallyPtr, err = target(ctx, finallyOff); err != nil {
			return err
		}
	}
	ctx.tryStack = append(ctx.tryStack, tryContext{catchPtr: catchPtr, finallyPtr: finallyPtr, endPtr: -1})
	return nil
}

func opEndTry(v *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	n := len(ctx.tryStack)
	if n == 0 {
		return invalidOp("The corresponding TRY block cannot be found.")
	}
	cur := &ctx.tryStack[n-1]
	if cur.state == tryStateFinally {
		return invalidOp("The opcode ENDTRY can't be executed in a FINALLY block.")
	}
	end, err := target(ctx, jumpOffset(arg))
	if err != nil {
		return err
	}
	if cur.finallyPtr >= 0 {
		cur.state = tryStateFinally
		cur.endPtr = end
		err = v.setIP(ctx, cur.finallyPtr)
	} else {
		ctx.tryStack = ctx.tryStack[:n-1]
		err = v.setIP(ctx, end)
	}
	v.jumping = true
	return err
}

func opEndFinally(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	n := len(ctx.tryStack)
	if n == 0 {
		return invalidOp("The corresponding TRY block cannot be found.")
	}
	cur := ctx.tryStack[n-1]
	ctx.tryStack = ctx.tryStack[:n-1]
	var err error
	if v.uncaught == nil {
		err = v.setIP(ctx, cur.endPtr)
	} else {
		err = v.throw(v.uncaught)
	}
	v.jumping = true
	return err
}

func opRet(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	n := len(v.istack)
	v.istack[n-1] = nil
	v.istack = v.istack[:n-1]
	dst := v.result
	if n > 1 {
		dst = v.istack[n-2].estack
	}
	if ctx.estack != dst {
		if ctx.rvcount >= 0 && ctx.estack.Len() != ctx.rvcount {
			return invalidOp("Return value count mismatch: expected %d, but got %d items on the evaluation stack", ctx.rvcount, ctx.estack.Len())
		}
		dst.items = append(dst.items, ctx.estack.items...)
	}
	if len(v.istack) == 0 {
		v.state = haltState
	}
	v.jumping = true
	return v.unloadContext(ctx)
}

// throw is C# ExecuteThrow: find the nearest TRY in the invocation stack,
// unload the contexts above it, and continue at its CATCH or FINALLY.
func (v *VM) throw(item stackitem.Item) error {
	v.uncaught = item
	pop := 0
	for i := len(v.istack) - 1; i >= 0; i-- {
		ctx := v.istack[i]
		for len(ctx.tryStack) > 0 {
			t := &ctx.tryStack[len(ctx.tryStack)-1]
			if t.state == tryStateFinally || (t.state == tryStateCatch && t.finallyPtr < 0) {
				ctx.tryStack = ctx.tryStack[:len(ctx.tryStack)-1]
				continue
			}
			for ; pop > 0; pop-- {
				top := v.istack[len(v.istack)-1]
				v.istack[len(v.istack)-1] = nil
				v.istack = v.istack[:len(v.istack)-1]
				if err := v.unloadContext(top); err != nil {
					return err
				}
			}
			var err error
			if t.state == tryStateTry && t.catchPtr >= 0 {
				t.state = tryStateCatch
				v.Context().estack.Push(v.uncaught)
				err = v.setIP(ctx, t.catchPtr)
				v.uncaught = nil
			} else {
				t.state = tryStateFinally
				err = v.setIP(ctx, t.finallyPtr)
			}
			v.jumping = true
			return err
		}
		pop++
	}
	return &UnhandledError{Item: item}
}

package vm

import (
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func opDepth(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	ctx.estack.pushPrimitive(stackitem.NewInt(int64(ctx.estack.Len())))
	return nil
}

func opDrop(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	_, err := ctx.estack.Pop()
	return err
}

func opNip(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	_, err := ctx.estack.RemoveAt(1)
	return err
}

func opXDrop(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	n, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if n < 0 {
		return invalidOp("The negative value %d is invalid for OpCode.%s.", n, op)
	}
	_, err = ctx.estack.RemoveAt(n)
	return err
}

func opClear(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	ctx.estack.Clear()
	return nil
}

func opDup(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	item, err := ctx.estack.Peek(0)
	if err != nil {
		return err
	}
	ctx.estack.Push(item)
	return nil
}

func opOver(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	item, err := ctx.estack.Peek(1)
	if err != nil {
		return err
	}
	ctx.estack.Push(item)
	return nil
}

func opPick(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	n, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if n < 0 {
		return invalidOp("The negative value %d is invalid for OpCode.%s.", n, op)
	}
	item, err := ctx.estack.Peek(n)
	if err != nil {
		return err
	}
	ctx.estack.Push(item)
	return nil
}

func opTuck(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	item, err := ctx.estack.Peek(0)
	if err != nil {
		return err
	}
	return ctx.estack.Insert(2, item)
}

func opSwap(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	if ctx.estack.Len() < 2 {
		return invalidOp("Swap index is out of stack bounds: 1/%d", ctx.estack.Len())
	}
	return ctx.estack.Swap(0, 1)
}

func opRot(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	return ctx.estack.Roll(2)
}

func opRoll(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	n, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	return ctx.estack.Roll(n)
}

func opReverse(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	n := 3
	switch op {
	case opcode.REVERSE4:
		n = 4
	case opcode.REVERSEN:
		var err error
		if n, err = ctx.estack.popInt32(); err != nil {
			return err
		}
	}
	return ctx.estack.Reverse(n)
}

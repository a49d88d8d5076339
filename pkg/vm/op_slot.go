package vm

import (
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// newNullSlot returns n Null items.
func newNullSlot(n int) []stackitem.Item {
	s := make([]stackitem.Item, n)
	for i := range s {
		s[i] = stackitem.Null{}
	}
	return s
}

func opInitSSlot(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	if ctx.inv.static != nil {
		return invalidOp("%s cannot be executed twice.", op)
	}
	if arg[0] == 0 {
		return invalidOp("The operand 0 is invalid for OpCode.%s.", op)
	}
	ctx.inv.static = newNullSlot(int(arg[0]))
	v.refs.Inc(int(arg[0]))
	return nil
}

func opInitSlot(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	if ctx.locals != nil || ctx.args != nil {
		return invalidOp("%s cannot be executed twice.", op)
	}
	if arg[0] == 0 && arg[1] == 0 {
		return invalidOp("The operand 0 is invalid for OpCode.%s.", op)
	}
	if n := int(arg[0]); n > 0 {
		ctx.locals = slot(&ctx.localsBuf, n)
		for i := range ctx.locals {
			ctx.locals[i] = stackitem.Null{}
		}
		v.refs.Inc(n)
	}
	if n := int(arg[1]); n > 0 {
		args := slot(&ctx.argsBuf, n)
		for i := range args {
			item, err := ctx.estack.PopNoRef()
			if err != nil {
				return err
			}
			args[i] = item
		}
		ctx.args = args
	}
	return nil
}

// slotIndex returns the slot index encoded in op (…0 to …6) or its operand.
func slotIndex(op, base opcode.Opcode, arg []byte) int {
	if len(arg) == 1 {
		return int(arg[0])
	}
	return int(op - base)
}

func loadFromSlot(ctx *Context, slot []stackitem.Item, i int) error {
	if slot == nil {
		return invalidOp("Slot has not been initialized.")
	}
	if i >= len(slot) {
		return invalidOp("Index out of range when loading from slot: %d, %d/[0, %d).", i, i, len(slot))
	}
	ctx.estack.Push(slot[i])
	return nil
}

func storeToSlot(v *VM, ctx *Context, slot []stackitem.Item, i int) error {
	if slot == nil {
		return invalidOp("Slot has not been initialized.")
	}
	if i >= len(slot) {
		return invalidOp("Out of stack bounds: %d/%d", i, len(slot))
	}
	v.refs.Remove(slot[i])
	item, err := ctx.estack.PopNoRef()
	if err != nil {
		return err
	}
	slot[i] = item
	return nil
}

func opLdSFld(_ *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	return loadFromSlot(ctx, ctx.inv.static, slotIndex(op, opcode.LDSFLD0, arg))
}

func opStSFld(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	return storeToSlot(v, ctx, ctx.inv.static, slotIndex(op, opcode.STSFLD0, arg))
}

func opLdLoc(_ *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	return loadFromSlot(ctx, ctx.locals, slotIndex(op, opcode.LDLOC0, arg))
}

func opStLoc(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	return storeToSlot(v, ctx, ctx.locals, slotIndex(op, opcode.STLOC0, arg))
}

func opLdArg(_ *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	return loadFromSlot(ctx, ctx.args, slotIndex(op, opcode.LDARG0, arg))
}

func opStArg(v *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	return storeToSlot(v, ctx, ctx.args, slotIndex(op, opcode.STARG0, arg))
}

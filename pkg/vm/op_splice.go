package vm

import (
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func assertItemSize(n int) error {
	if n < 0 || n > MaxItemSize {
		return invalidOp("MaxItemSize exceed: %d/%d", n, MaxItemSize)
	}
	return nil
}

func opNewBuffer(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	n, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if err := assertItemSize(n); err != nil {
		return err
	}
	ctx.estack.pushPrimitive(v.alloc.Buffer(make([]byte, n)))
	return nil
}

func opMemcpy(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	es := ctx.estack
	count, err := es.popInt32()
	if err != nil {
		return err
	}
	if count < 0 {
		return invalidOp("The count can not be negative for MEMCPY, count: %d.", count)
	}
	si, err := es.popInt32()
	if err != nil {
		return err
	}
	if si < 0 {
		return invalidOp("The source index can not be negative for MEMCPY, index: %d.", si)
	}
	src, err := es.popBytes()
	if err != nil {
		return err
	}
	if si+count > len(src) || si+count > maxInt32 {
		return invalidOp("The source index + count is out of range for MEMCPY, index: %d, count: %d, %d/[0, %d].", si, count, si, len(src))
	}
	di, err := es.popInt32()
	if err != nil {
		return err
	}
	if di < 0 {
		return invalidOp("The destination index can not be negative for MEMCPY, index: %d.", si)
	}
	dst, err := popAs[*stackitem.Buffer](es, "Buffer")
	if err != nil {
		return err
	}
	if di+count > dst.Size() || di+count > maxInt32 {
		return invalidOp("The destination index + count is out of range for MEMCPY, index: %d, count: %d, %d/[0, %d].", di, count, di, dst.Size())
	}
	copy(dst.Bytes()[di:], src[si:si+count])
	return nil
}

const maxInt32 = 1<<31 - 1

func opCat(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	x2, err := ctx.estack.popBytes()
	if err != nil {
		return err
	}
	x1, err := ctx.estack.popBytes()
	if err != nil {
		return err
	}
	n := len(x1) + len(x2)
	if err := assertItemSize(n); err != nil {
		return err
	}
	b := make([]byte, n)
	copy(b, x1)
	copy(b[len(x1):], x2)
	ctx.estack.pushPrimitive(v.alloc.Buffer(b))
	return nil
}

// substr is SUBSTR. Before HF_Echidna (checked false) index + count was not
// checked for int32 overflow. An overflowing sum still faulted in C# (the
// slice that followed threw), so only the error differs.
func substr(v *VM, ctx *Context, _ opcode.Opcode, checked bool) error {
	count, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if count < 0 {
		return invalidOp("The count can not be negative for SUBSTR, count: %d.", count)
	}
	index, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if index < 0 {
		return invalidOp("The index can not be negative for SUBSTR, index: %d.", index)
	}
	x, err := ctx.estack.popBytes()
	if err != nil {
		return err
	}
	if index+count > maxInt32 {
		if checked {
			return &vmError{msg: "Arithmetic operation resulted in an overflow.", kind: ErrInvalidOperation}
		}
		return invalidOp("Specified argument was out of the range of valid values.")
	}
	if index+count > len(x) {
		return invalidOp("The index + count is out of range for SUBSTR, index: %d, count: %d, %d/[0, %d].", index, count, index+count, len(x))
	}
	b := make([]byte, count)
	copy(b, x[index:index+count])
	ctx.estack.pushPrimitive(v.alloc.Buffer(b))
	return nil
}

func opLeft(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	count, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if count < 0 {
		return invalidOp("The count can not be negative for LEFT, count: %d.", count)
	}
	x, err := ctx.estack.popBytes()
	if err != nil {
		return err
	}
	if count > len(x) {
		return invalidOp("The count is out of range for LEFT, %d/[0, %d].", count, len(x))
	}
	b := make([]byte, count)
	copy(b, x[:count])
	ctx.estack.pushPrimitive(v.alloc.Buffer(b))
	return nil
}

func opRight(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	count, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if count < 0 {
		return invalidOp("The count can not be negative for RIGHT, count: %d.", count)
	}
	x, err := ctx.estack.popBytes()
	if err != nil {
		return err
	}
	if count > len(x) {
		return invalidOp("The count is out of range for RIGHT, %d/[0, %d].", count, len(x))
	}
	b := make([]byte, count)
	copy(b, x[len(x)-count:])
	ctx.estack.pushPrimitive(v.alloc.Buffer(b))
	return nil
}

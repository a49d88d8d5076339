package vm

import (
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func opUnaryInt(v *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	var r stackitem.Item
	switch op {
	case opcode.INVERT:
		r, err = intNot(x, &v.alloc)
	case opcode.ABS:
		r, err = intAbs(x, &v.alloc)
	case opcode.NEGATE:
		r, err = intNeg(x, &v.alloc)
	case opcode.INC:
		r, err = intInc(x, &v.alloc)
	case opcode.DEC:
		r, err = intDec(x, &v.alloc)
	case opcode.SQRT:
		r, err = intSqrt(x, &v.alloc)
	}
	return ctx.estack.pushResult(r, err)
}

func opBinaryInt(v *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x1, x2, err := ctx.estack.popIntegerPair()
	if err != nil {
		return err
	}
	var r stackitem.Item
	switch op {
	case opcode.AND:
		r, err = intAnd(x1, x2, &v.alloc)
	case opcode.OR:
		r, err = intOr(x1, x2, &v.alloc)
	case opcode.XOR:
		r, err = intXor(x1, x2, &v.alloc)
	case opcode.ADD:
		r, err = intAdd(x1, x2, &v.alloc)
	case opcode.SUB:
		r, err = intSub(x1, x2, &v.alloc)
	case opcode.MUL:
		r, err = intMul(x1, x2, &v.alloc)
	case opcode.DIV:
		r, err = intDiv(x1, x2, &v.alloc)
	case opcode.MOD:
		r, err = intMod(x1, x2, &v.alloc)
	case opcode.MIN:
		r = x1
		if x2.Cmp(x1) < 0 {
			r = x2
		}
	case opcode.MAX:
		r = x1
		if x2.Cmp(x1) > 0 {
			r = x2
		}
	}
	return ctx.estack.pushResult(r, err)
}

func opSign(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	x, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	ctx.estack.pushPrimitive(stackitem.NewInt(int64(x.Sign())))
	return nil
}

func assertShift(n int) error {
	if n > MaxShift || n < 0 {
		return invalidOp("Invalid shift value: %d/%d", n, MaxShift)
	}
	return nil
}

func opPow(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	e, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if err := assertShift(e); err != nil {
		return err
	}
	x, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	r, err := intPow(x, e, &v.alloc)
	return ctx.estack.pushResult(r, err)
}

// opModArith is MODMUL (x1 * x2 mod m) and MODPOW (x ^ e mod m): three
// integers popped, the modulus first.
func opModArith(v *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	m, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	y, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	x, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	var r stackitem.Item
	if op == opcode.MODMUL {
		r, err = intModMul(x, y, m, &v.alloc)
	} else {
		r, err = intModPow(x, y, m, &v.alloc)
	}
	return ctx.estack.pushResult(r, err)
}

// shift is SHL/SHR. Before HF_Gorgon (neo-vm #567, gorgon false) a zero
// shift leaves the value on the stack untouched, without converting it to
// an Integer.
func shift(v *VM, ctx *Context, op opcode.Opcode, gorgon bool) error {
	n, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if err := assertShift(n); err != nil {
		return err
	}
	if n == 0 && !gorgon {
		return nil
	}
	x, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	var r stackitem.Item
	if op == opcode.SHL {
		r, err = intShl(x, n, &v.alloc)
	} else {
		r, err = intShr(x, n, &v.alloc)
	}
	return ctx.estack.pushResult(r, err)
}

func opNot(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	b, err := ctx.estack.popBool()
	if err != nil {
		return err
	}
	ctx.estack.pushPrimitive(stackitem.Bool(!b))
	return nil
}

func opBoolAndOr(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x2, err := ctx.estack.popBool()
	if err != nil {
		return err
	}
	x1, err := ctx.estack.popBool()
	if err != nil {
		return err
	}
	if op == opcode.BOOLAND {
		ctx.estack.pushPrimitive(stackitem.Bool(x1 && x2))
	} else {
		ctx.estack.pushPrimitive(stackitem.Bool(x1 || x2))
	}
	return nil
}

func opNz(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	x, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	ctx.estack.pushPrimitive(stackitem.Bool(x.Sign() != 0))
	return nil
}

func opNumEqual(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x1, x2, err := ctx.estack.popIntegerPair()
	if err != nil {
		return err
	}
	ctx.estack.pushPrimitive(stackitem.Bool((x1.Cmp(x2) == 0) == (op == opcode.NUMEQUAL)))
	return nil
}

func opCompare(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	a, b, err := ctx.estack.popPair()
	if err != nil {
		return err
	}
	_, an := a.(stackitem.Null)
	_, bn := b.(stackitem.Null)
	if an || bn {
		ctx.estack.pushPrimitive(stackitem.Bool(false))
		return nil
	}
	x1, err := stackitem.ToInteger(a)
	if err != nil {
		return err
	}
	x2, err := stackitem.ToInteger(b)
	if err != nil {
		return err
	}
	c := x1.Cmp(x2)
	var r bool
	switch op {
	case opcode.LT:
		r = c < 0
	case opcode.LE:
		r = c <= 0
	case opcode.GT:
		r = c > 0
	case opcode.GE:
		r = c >= 0
	}
	ctx.estack.pushPrimitive(stackitem.Bool(r))
	return nil
}

func opWithin(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	b, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	a, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	x, err := ctx.estack.popInteger()
	if err != nil {
		return err
	}
	ctx.estack.pushPrimitive(stackitem.Bool(a.Cmp(x) <= 0 && x.Cmp(b) < 0))
	return nil
}

func opEqual(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x1, x2, err := ctx.estack.popPair()
	if err != nil {
		return err
	}
	eq, err := stackitem.Equal(x1, x2)
	if err != nil {
		return err
	}
	ctx.estack.pushPrimitive(stackitem.Bool(eq == (op == opcode.EQUAL)))
	return nil
}

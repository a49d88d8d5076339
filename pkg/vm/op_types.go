package vm

import (
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func opIsNull(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	x, err := ctx.estack.Pop()
	if err != nil {
		return err
	}
	_, ok := x.(stackitem.Null)
	ctx.estack.pushPrimitive(stackitem.Bool(ok))
	return nil
}

func opIsType(_ *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	x, err := ctx.estack.Pop()
	if err != nil {
		return err
	}
	t := stackitem.Type(arg[0])
	if t == stackitem.AnyT || !t.IsValid() {
		return invalidOp("Invalid type: %s", t)
	}
	ctx.estack.pushPrimitive(stackitem.Bool(x.Type() == t))
	return nil
}

func opConvert(_ *VM, ctx *Context, _ opcode.Opcode, arg []byte) error {
	x, err := ctx.estack.Pop()
	if err != nil {
		return err
	}
	r, err := stackitem.Convert(x, stackitem.Type(arg[0]))
	if err != nil {
		return err
	}
	ctx.estack.Push(r)
	return nil
}

// getString is C# StackItem.GetString: strict UTF-8, "" for Null.
func getString(item stackitem.Item) (string, error) {
	s, _, err := stackitem.ToString(item)
	return s, err
}

func opAbortMsg(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	_, msg, err := ctx.estack.popString()
	if err != nil {
		return err
	}
	return invalidOp("ABORTMSG is executed. Reason: %s", msg)
}

func opAssertMsg(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	item, msg, err := ctx.estack.popString()
	if err != nil {
		return err
	}
	ok, err := ctx.estack.popBool()
	if err != nil {
		return err
	}
	if !ok {
		return invalidOp("ASSERTMSG is executed with false result. Reason: %s", msg)
	}
	// neo-vm #571 reads the message length after a successful check, which
	// fails for Null (as neo-go, which rejects a Null message outright).
	if _, err := item.TryBytes(); err != nil {
		return err
	}
	return nil
}

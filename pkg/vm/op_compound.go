package vm

import (
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func opPackMap(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	es := ctx.estack
	size, err := es.popInt32()
	if err != nil {
		return err
	}
	if size < 0 || size*2 > es.Len() {
		return invalidOp("The map size is out of valid range, 2*%d/[0, %d].", size, es.Len())
	}
	m := stackitem.NewMapWithCap(size)
	for range size {
		key, err := es.popPrimitive(true)
		if err != nil {
			return err
		}
		value, err := es.PopNoRef()
		if err != nil {
			return err
		}
		old, replaced, err := m.Replace(key, value)
		if err != nil {
			return err
		}
		if replaced {
			v.refs.Remove(key)
			v.refs.Remove(old)
		}
	}
	es.pushNew(m, 1)
	return nil
}

func opPack(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	es := ctx.estack
	size, err := es.popInt32()
	if err != nil {
		return err
	}
	if size < 0 || size > es.Len() {
		if op == opcode.PACK {
			return invalidOp("The array size is out of valid range, %d/[0, %d].", size, es.Len())
		}
		return invalidOp("The struct size is out of valid range, %d/[0, %d].", size, es.Len())
	}
	items := make([]stackitem.Item, size)
	for i := range items {
		items[i], _ = es.PopNoRef()
	}
	es.pushNew(newArray(op == opcode.PACKSTRUCT, items), 1)
	return nil
}

func opUnpack(v *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	es := ctx.estack
	item, err := es.Peek(0)
	if err != nil {
		return err
	}
	var n int
	switch c := item.(type) {
	case *stackitem.Map:
		_, _ = es.PopNoRef()
		stackitem.AdjustRefs(c, -1)
		v.refs.Inc(-1)
		elems := c.Elements()
		n = len(elems)
		if stackitem.IsReferenced(c) {
			for i := n - 1; i >= 0; i-- {
				es.Push(elems[i].Value)
				es.pushCounted(elems[i].Key, 1)
			}
		} else {
			for i := n - 1; i >= 0; i-- {
				es.pushCounted(elems[i].Value, 0)
				es.pushCounted(elems[i].Key, 0)
			}
		}
	case *stackitem.Array:
		_, _ = es.PopNoRef()
		stackitem.AdjustRefs(c, -1)
		v.refs.Inc(-1)
		items := c.Items()
		n = len(items)
		if stackitem.IsReferenced(c) {
			for i := n - 1; i >= 0; i-- {
				es.Push(items[i])
			}
		} else {
			for i := n - 1; i >= 0; i-- {
				es.pushCounted(items[i], 0)
			}
		}
	default:
		return castError(item, "CompoundType")
	}
	es.pushPrimitive(stackitem.NewInt(int64(n)))
	return nil
}

func opNewArray0(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	ctx.estack.Push(newArray(op == opcode.NEWSTRUCT0, []stackitem.Item{}))
	return nil
}

func opNewArray(_ *VM, ctx *Context, op opcode.Opcode, arg []byte) error {
	n, err := ctx.estack.popInt32()
	if err != nil {
		return err
	}
	if n < 0 || n > MaxStackSize {
		if op == opcode.NEWSTRUCT {
			return invalidOp("The struct size is out of valid range, %d/[0, %d].", n, MaxStackSize)
		}
		return invalidOp("The array size is out of valid range, %d/[0, %d].", n, MaxStackSize)
	}
	var fill stackitem.Item = stackitem.Null{}
	if op == opcode.NEWARRAYT {
		t := stackitem.Type(arg[0])
		if !t.IsValid() {
			return invalidOp("Invalid type for %s: %d", op, arg[0])
		}
		switch t {
		case stackitem.BooleanT:
			fill = stackitem.Bool(false)
		case stackitem.IntegerT:
			fill = stackitem.NewInt(0)
		case stackitem.ByteStringT:
			fill = stackitem.NewByteString([]byte{})
		}
	}
	items := make([]stackitem.Item, n)
	for i := range items {
		items[i] = fill
	}
	ctx.estack.pushNew(newArray(op == opcode.NEWSTRUCT, items), n+1)
	return nil
}

func opNewMap(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	ctx.estack.Push(stackitem.NewMap())
	return nil
}

func opSize(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x, err := ctx.estack.Pop()
	if err != nil {
		return err
	}
	var n int
	switch t := x.(type) {
	case *stackitem.Array:
		n = t.Len()
	case *stackitem.Map:
		n = t.Len()
	case *stackitem.ByteString:
		n = t.Size()
	case *stackitem.Integer:
		n = t.Size()
	case stackitem.Bool:
		n = 1
	case *stackitem.Buffer:
		n = t.Size()
	default:
		return invalidOp("Invalid type for %s: %s", op, x.Type())
	}
	ctx.estack.pushPrimitive(stackitem.NewInt(int64(n)))
	return nil
}

// indexInRange reports whether 0 <= idx < n for an Integer index.
func indexInRange(idx *stackitem.Integer, n int) bool {
	x, ok := idx.Int64()
	return ok && x >= 0 && x < int64(n)
}

// hasKey is HASKEY. Before HF_Gorgon (neo-vm #543, gorgon false) the index
// is converted to int32 (faulting outside that range) and not checked
// against MaxItemSize.
func hasKey(_ *VM, ctx *Context, op opcode.Opcode, gorgon bool) error {
	es := ctx.estack
	key, x, err := es.popKeyed()
	if err != nil {
		return err
	}
	var n int
	switch t := x.(type) {
	case *stackitem.Map:
		ok, err := t.Has(key)
		if err != nil {
			return err
		}
		es.pushPrimitive(stackitem.Bool(ok))
		return nil
	case *stackitem.Array:
		n = t.Len()
	case *stackitem.Buffer:
		n = t.Size()
	case *stackitem.ByteString:
		n = t.Size()
	default:
		return invalidOp("Invalid type for %s: %s", op, x.Type())
	}
	idx, err := stackitem.ToInteger(key)
	if err != nil {
		return err
	}
	if gorgon {
		if idx.Sign() < 0 || !indexInRange(idx, MaxItemSize) {
			return invalidOp("The index %s is invalid for OpCode %s.", idx, op)
		}
	} else {
		i, err := toInt32(idx)
		if err != nil {
			return err
		}
		if i < 0 {
			return invalidOp("The negative index %d is invalid for OpCode.%s.", i, op)
		}
	}
	es.pushPrimitive(stackitem.Bool(indexInRange(idx, n)))
	return nil
}

func opKeys(_ *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	m, err := popAs[*stackitem.Map](ctx.estack, "Map")
	if err != nil {
		return err
	}
	elems := m.Elements()
	keys := make([]stackitem.Item, len(elems))
	for i := range elems {
		keys[i] = elems[i].Key
	}
	ctx.estack.pushNew(stackitem.NewArray(keys), len(keys)+1)
	return nil
}

func opValues(v *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x, err := ctx.estack.PopNoRef()
	if err != nil {
		return err
	}
	var values []stackitem.Item
	var referenced bool
	switch t := x.(type) {
	case *stackitem.Array:
		stackitem.AdjustRefs(t, -1)
		values = t.Items()
		referenced = stackitem.IsReferenced(t)
	case *stackitem.Map:
		stackitem.AdjustRefs(t, -1)
		elems := t.Elements()
		values = make([]stackitem.Item, len(elems))
		for i := range elems {
			values[i] = elems[i].Value
		}
		referenced = stackitem.IsReferenced(t)
		if !referenced {
			v.refs.Inc(-len(elems))
		}
	default:
		return invalidOp("Invalid type for %s: %s", op, x.Type())
	}
	res := make([]stackitem.Item, 0, len(values))
	for _, it := range values {
		cp, cloned, err := cloneIfStruct(it)
		if err != nil {
			return err
		}
		if cloned && !referenced {
			v.refs.Remove(it)
			v.refs.Add(cp)
		}
		if referenced {
			v.refs.Add(cp)
		}
		res = append(res, cp)
	}
	ctx.estack.pushNew(stackitem.NewArray(res), 0)
	return nil
}

// checkIndex converts a PICKITEM/SETITEM/REMOVE index into a collection of
// n elements, which C# names what in its message. Before Gorgon the int32
// conversion happens first and may fault. An index out of range is an
// *indexError.
func checkIndex(key stackitem.Item, gorgon bool, n int, what string) (int, error) {
	idx, err := stackitem.ToInteger(key)
	if err != nil {
		return 0, err
	}
	if !gorgon {
		if _, err := toInt32(idx); err != nil {
			return 0, err
		}
	}
	if !indexInRange(idx, n) {
		msg := "The index of " + what + " is out of range, " + idx.String() + "/[0, " + itoa(int64(n)) + ")."
		return 0, &indexError{vmError{msg: msg, kind: ErrInvalidOperation}}
	}
	return int(mustInt64(idx)), nil
}

// indexError is an index out of range, with the message of the exception C#
// raises for it. REMOVE faults with it (an InvalidOperation); PICKITEM and
// SETITEM throw it as a catchable exception (catchIndex).
type indexError struct{ vmError }

// catchIndex ends PICKITEM or SETITEM after checkIndex failed: an index out
// of range is thrown (the result of the throw is returned), any other error
// is a fault.
func (v *VM) catchIndex(err error) error {
	if e, ok := err.(*indexError); ok {
		return v.throwString(e.msg)
	}
	return err
}

func pickItem(v *VM, ctx *Context, op opcode.Opcode, gorgon bool) error {
	es := ctx.estack
	key, x, err := es.popKeyed()
	if err != nil {
		return err
	}
	var item stackitem.Item
	switch t := x.(type) {
	case *stackitem.Array:
		i, err := checkIndex(key, gorgon, t.Len(), "VMArray")
		if err != nil {
			return v.catchIndex(err)
		}
		item = t.Get(i)
	case *stackitem.Map:
		val, found, err := t.Get(key)
		if err != nil {
			return err
		}
		if !found {
			return v.throwString("Key " + key.String() + " not found in Map.")
		}
		item = val
	case *stackitem.ByteString, *stackitem.Integer, stackitem.Bool, *stackitem.Buffer:
		var b []byte
		what := "PrimitiveType"
		if buf, ok := t.(*stackitem.Buffer); ok {
			b, what = buf.Bytes(), "Buffer"
		} else {
			b, _ = x.TryBytes()
		}
		i, err := checkIndex(key, gorgon, len(b), what)
		if err != nil {
			return v.catchIndex(err)
		}
		item = stackitem.NewInt(int64(b[i]))
	default:
		return invalidOp("Invalid type for %s: %s", op, x.Type())
	}
	es.Push(item)
	return nil
}

func mustInt64(i *stackitem.Integer) int64 {
	x, _ := i.Int64()
	return x
}

// throwString raises a catchable exception whose payload is msg as a
// ByteString (C# ExecuteThrow(engine, string)).
func (v *VM) throwString(msg string) error {
	return v.throw(stackitem.NewByteString([]byte(msg)))
}

func opAppend(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	es := ctx.estack
	newItem, err := es.Pop()
	if err != nil {
		return err
	}
	arr, err := popAs[*stackitem.Array](es, "Array")
	if err != nil {
		return err
	}
	if newItem, _, err = cloneIfStruct(newItem); err != nil {
		return err
	}
	if err := arr.Append(newItem); err != nil {
		return err
	}
	if stackitem.IsReferenced(arr) {
		v.refs.Add(newItem)
	}
	return nil
}

// setItem is SETITEM. Before HF_Gorgon (neo-vm #543, gorgon false) indexes
// and Buffer values are converted to int32 first (faulting outside that
// range), and a Buffer value in [-128, -1] wraps to a byte instead of
// faulting.
func setItem(v *VM, ctx *Context, op opcode.Opcode, gorgon bool) error {
	es := ctx.estack
	value, err := es.PopNoRef()
	if err != nil {
		return err
	}
	c, cloned, err := cloneIfStruct(value)
	if err != nil {
		return err
	}
	if cloned {
		v.refs.Remove(value)
		value = c
		v.refs.Add(value)
	}
	key, x, err := es.popKeyed()
	if err != nil {
		return err
	}
	switch t := x.(type) {
	case *stackitem.Array:
		i, err := checkIndex(key, gorgon, t.Len(), "VMArray")
		if err != nil {
			if _, ok := err.(*indexError); ok {
				v.refs.Remove(value)
			}
			return v.catchIndex(err)
		}
		if stackitem.IsReferenced(t) {
			v.refs.Remove(t.Get(i))
		} else {
			v.refs.Remove(value)
		}
		return t.Set(i, value)
	case *stackitem.Map:
		old, replaced, err := t.Replace(key, value)
		if err != nil {
			return err
		}
		switch {
		case !stackitem.IsReferenced(t):
			v.refs.Remove(value)
		case replaced:
			v.refs.Remove(old)
		default:
			v.refs.Add(key)
		}
		return nil
	case *stackitem.Buffer:
		v.refs.Remove(value)
		i, err := checkIndex(key, gorgon, t.Size(), "Buffer")
		if err != nil {
			return v.catchIndex(err)
		}
		if !value.Type().IsPrimitive() {
			return invalidOp("Only primitive type values can be set in Buffer in %s.", op)
		}
		b, err := stackitem.ToInteger(value)
		if err != nil {
			return err
		}
		bv, ok := b.Int64()
		if !gorgon {
			if _, err := toInt32(b); err != nil {
				return err
			}
		}
		if !ok || bv < -128 || bv > 255 {
			return invalidOp("Overflow in %s, %s is not a byte type.", op, b)
		}
		if gorgon && bv < 0 {
			// C# (byte)BigInteger is a checked conversion.
			return &vmError{msg: "Value was either too large or too small for an unsigned byte.", kind: ErrInvalidOperation}
		}
		t.Bytes()[i] = byte(bv)
		return nil
	default:
		return invalidOp("Invalid type for %s: %s", op, x.Type())
	}
}

func opReverseItems(_ *VM, ctx *Context, op opcode.Opcode, _ []byte) error {
	x, err := ctx.estack.Pop()
	if err != nil {
		return err
	}
	switch t := x.(type) {
	case *stackitem.Array:
		return t.Reverse()
	case *stackitem.Buffer:
		b := t.Bytes()
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return nil
	}
	return invalidOp("Invalid type for %s: %s", op, x.Type())
}

// remove is REMOVE. Before HF_Gorgon (neo-vm #543, gorgon false) the array
// index is converted to int32 first. Both forms fault on a bad index, so
// only the error differs.
func remove(v *VM, ctx *Context, op opcode.Opcode, gorgon bool) error {
	es := ctx.estack
	key, x, err := es.popKeyed()
	if err != nil {
		return err
	}
	switch t := x.(type) {
	case *stackitem.Array:
		i, err := checkIndex(key, gorgon, t.Len(), "VMArray")
		if err != nil {
			return err
		}
		item := t.Get(i)
		if err := t.RemoveAt(i); err != nil {
			return err
		}
		if stackitem.IsReferenced(t) {
			v.refs.Remove(item)
		}
		return nil
	case *stackitem.Map:
		old, _, err := t.Remove(key)
		if err != nil {
			return err
		}
		if old != nil && stackitem.IsReferenced(t) {
			v.refs.Remove(key)
			v.refs.Remove(old)
		}
		return nil
	}
	return invalidOp("Invalid type for %s: %s", op, x.Type())
}

func opClearItems(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	item, err := ctx.estack.Peek(0)
	if err != nil {
		return err
	}
	switch t := item.(type) {
	case *stackitem.Array:
		_, _ = ctx.estack.Pop()
		subs := append([]stackitem.Item(nil), t.Items()...)
		if err := t.Clear(); err != nil {
			return err
		}
		if stackitem.IsReferenced(t) {
			for _, s := range subs {
				v.refs.Remove(s)
			}
		}
	case *stackitem.Map:
		_, _ = ctx.estack.Pop()
		elems := append([]stackitem.MapElement(nil), t.Elements()...)
		if err := t.Clear(); err != nil {
			return err
		}
		if stackitem.IsReferenced(t) {
			for _, e := range elems {
				v.refs.Remove(e.Key)
			}
			for _, e := range elems {
				v.refs.Remove(e.Value)
			}
		}
	default:
		return castError(item, "CompoundType")
	}
	return nil
}

func opPopItem(v *VM, ctx *Context, _ opcode.Opcode, _ []byte) error {
	arr, err := popAs[*stackitem.Array](ctx.estack, "Array")
	if err != nil {
		return err
	}
	n := arr.Len()
	if n == 0 {
		return invalidOp("Index was out of range. Must be non-negative and less than the size of the collection.")
	}
	last := arr.Get(n - 1)
	ctx.estack.Push(last)
	if err := arr.RemoveAt(n - 1); err != nil {
		return err
	}
	if stackitem.IsReferenced(arr) {
		v.refs.Remove(last)
	}
	return nil
}

// newArray makes an Array, or a Struct if isStruct.
func newArray(isStruct bool, items []stackitem.Item) *stackitem.Array {
	if isStruct {
		return stackitem.NewStruct(items)
	}
	return stackitem.NewArray(items)
}

// cloneIfStruct returns a clone of item if it is a Struct (cloned true),
// else item itself: what C# does with a value stored into a container.
func cloneIfStruct(item stackitem.Item) (stackitem.Item, bool, error) {
	s, ok := item.(*stackitem.Array)
	if !ok || !s.IsStruct() {
		return item, false, nil
	}
	c, _, err := s.Clone()
	if err != nil {
		return nil, false, err
	}
	return c, true, nil
}

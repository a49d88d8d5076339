package vm

import "github.com/n3node/n3node/pkg/vm/stackitem"

// The typed pops of the instruction handlers. Each is one C# Pop<T>/PopX
// call: a failure leaves the stack as C# leaves it (the item is gone for a
// conversion error, still there for a cast checked before the pop), which
// matters because a FAULT result reports the stack.

// popInteger pops the top item and converts it with GetInteger.
func (s *Stack) popInteger() (*stackitem.Integer, error) {
	n := len(s.items)
	if n == 0 {
		return nil, underflow()
	}
	item := s.items[n-1]
	s.items = s.items[:n-1]
	if i, ok := item.(*stackitem.Integer); ok {
		s.refs.Inc(-1)
		return i, nil
	}
	s.refs.Remove(item)
	return stackitem.ToInteger(item)
}

// popInt32 pops an integer and converts it to int as C# (int)BigInteger does.
func (s *Stack) popInt32() (int, error) {
	i, err := s.popInteger()
	if err != nil {
		return 0, err
	}
	return toInt32(i)
}

// popBool pops the top item and converts it with GetBoolean.
func (s *Stack) popBool() (bool, error) {
	n := len(s.items)
	if n == 0 {
		return false, underflow()
	}
	item := s.items[n-1]
	s.items = s.items[:n-1]
	if b, ok := item.(stackitem.Bool); ok {
		s.refs.Inc(-1)
		return bool(b), nil
	}
	s.refs.Remove(item)
	return item.TryBool()
}

// popBytes pops the top item and returns GetSpan.
func (s *Stack) popBytes() ([]byte, error) {
	item, err := s.Pop()
	if err != nil {
		return nil, err
	}
	return item.TryBytes()
}

// popPrimitive is C# Pop<PrimitiveType>: the type is checked before the item
// leaves the stack.
func (s *Stack) popPrimitive(noRef bool) (stackitem.Item, error) {
	item, err := s.Peek(0)
	if err != nil {
		return nil, err
	}
	if !item.Type().IsPrimitive() {
		return nil, castError(item, "PrimitiveType")
	}
	if noRef {
		return s.PopNoRef()
	}
	return s.Pop()
}

// popIntegerPair pops the two operands of a binary integer instruction:
// x2 (the top) first, then x1.
func (s *Stack) popIntegerPair() (x1, x2 *stackitem.Integer, err error) {
	if x2, err = s.popInteger(); err != nil {
		return nil, nil, err
	}
	if x1, err = s.popInteger(); err != nil {
		return nil, nil, err
	}
	return x1, x2, nil
}

// popPair pops two items: x2 (the top) first, then x1.
func (s *Stack) popPair() (x1, x2 stackitem.Item, err error) {
	if x2, err = s.Pop(); err != nil {
		return nil, nil, err
	}
	if x1, err = s.Pop(); err != nil {
		return nil, nil, err
	}
	return x1, x2, nil
}

// popKeyed pops the key (a primitive) and then the item it indexes, the
// operands of HASKEY, PICKITEM, SETITEM and REMOVE.
func (s *Stack) popKeyed() (key, x stackitem.Item, err error) {
	if key, err = s.popPrimitive(false); err != nil {
		return nil, nil, err
	}
	if x, err = s.Pop(); err != nil {
		return nil, nil, err
	}
	return key, x, nil
}

// popString pops an item and reads it as C# GetString (strict UTF-8); the
// item is returned too.
func (s *Stack) popString() (stackitem.Item, string, error) {
	item, err := s.Pop()
	if err != nil {
		return nil, "", err
	}
	msg, err := getString(item)
	return item, msg, err
}

// popAs is C# Pop<T> for a compound or pointer type: the type is checked
// before the item leaves the stack; name is the C# type name of the cast
// error.
func popAs[T stackitem.Item](s *Stack, name string) (T, error) {
	var zero T
	item, err := s.Peek(0)
	if err != nil {
		return zero, err
	}
	t, ok := item.(T)
	if !ok {
		return zero, castError(item, name)
	}
	_, _ = s.Pop()
	return t, nil
}

// pushResult pushes the result of an integer operation unless it failed.
func (s *Stack) pushResult(r stackitem.Item, err error) error {
	if err != nil {
		return err
	}
	s.pushPrimitive(r)
	return nil
}

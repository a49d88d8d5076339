package stackitem

import "fmt"

// Equal is the comparison of the EQUAL and NOTEQUAL opcodes (C#
// StackItem.Equals(other, ExecutionEngineLimits)). ByteString comparisons are
// limited to MaxComparableSize bytes and Struct comparisons to MaxItems
// items and MaxComparableSize units in total; exceeding a limit is an error
// (ErrLimit), which faults the VM.
//
// The order of checks follows C#: a comparison may report false before it
// would have reached an item that exceeds the limits.
func Equal(a, b Item) (bool, error) {
	switch x := a.(type) {
	case *ByteString:
		budget := uint32(MaxComparableSize)
		return byteStringEqual(x, b, &budget)
	case *Array:
		if x.isStruct {
			return structEqual(x, b)
		}
	}
	return a.Equals(b), nil
}

// byteStringEqual is C# ByteString.Equals(other, ref limits).
func byteStringEqual(s *ByteString, other Item, budget *uint32) (bool, error) {
	size := uint32(len(s.b))
	if size > *budget || *budget == 0 {
		return false, fmt.Errorf("%w: The operand exceeds the maximum comparable size, %d/%d", ErrLimit, size, *budget)
	}
	compared := uint32(1)
	defer func() { *budget -= compared }()
	t, ok := other.(*ByteString)
	if !ok {
		return false, nil
	}
	compared = max(size, uint32(len(t.b)), compared)
	if s == t {
		return true, nil
	}
	if uint32(len(t.b)) > *budget {
		return false, fmt.Errorf("%w: The operand exceeds the maximum comparable size, %d/%d", ErrLimit, len(t.b), *budget)
	}
	return string(s.b) == string(t.b), nil
}

// structEqual is C# Struct.Equals(other, limits).
func structEqual(s *Array, other Item) (bool, error) {
	o, ok := other.(*Array)
	if !ok || !o.isStruct {
		return false, nil
	}
	stack1 := []Item{s}
	stack2 := []Item{o}
	count := uint32(MaxItems)
	budget := uint32(MaxComparableSize)
	for len(stack1) > 0 {
		if count == 0 {
			return false, fmt.Errorf("%w: Too many struct items to compare in struct comparison", ErrLimit)
		}
		count--
		a := stack1[len(stack1)-1]
		stack1 = stack1[:len(stack1)-1]
		b := stack2[len(stack2)-1]
		stack2 = stack2[:len(stack2)-1]
		if bs, ok := a.(*ByteString); ok {
			eq, err := byteStringEqual(bs, b, &budget)
			if err != nil || !eq {
				return false, err
			}
			continue
		}
		if budget == 0 {
			return false, fmt.Errorf("%w: The operand exceeds the maximum comparable size in struct comparison", ErrLimit)
		}
		budget--
		if sa, ok := a.(*Array); ok && sa.isStruct {
			if a == b {
				continue
			}
			sb, ok := b.(*Array)
			if !ok || !sb.isStruct || len(sa.items) != len(sb.items) {
				return false, nil
			}
			stack1 = append(stack1, sa.items...)
			stack2 = append(stack2, sb.items...)
			continue
		}
		if !a.Equals(b) {
			return false, nil
		}
	}
	return true, nil
}

package vm

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ErrStackUnderflow is returned when an operation needs more items than the
// evaluation stack holds.
var ErrStackUnderflow = errors.New("stack underflow")

// Stack is an evaluation stack (C# EvaluationStack). Every push and pop
// updates the VM's reference counter. Index 0 is the top.
type Stack struct {
	items []stackitem.Item // bottom first
	refs  *stackitem.RefCounter
}

func newStack(refs *stackitem.RefCounter) *Stack {
	return &Stack{items: make([]stackitem.Item, 0, 16), refs: refs}
}

// Len returns the number of items.
func (s *Stack) Len() int { return len(s.items) }

// Items returns the items bottom first; callers must not modify the slice.
func (s *Stack) Items() []stackitem.Item { return s.items }

// Push pushes item and counts the new reference.
func (s *Stack) Push(item stackitem.Item) {
	s.items = append(s.items, item)
	s.refs.Add(item)
}

// pushPrimitive pushes an item that is known not to be compound.
func (s *Stack) pushPrimitive(item stackitem.Item) {
	s.items = append(s.items, item)
	s.refs.Inc(1)
}

// pushCounted pushes item and adds n to the counter without touching the
// item (C# PushItemCounted).
func (s *Stack) pushCounted(item stackitem.Item, n int) {
	s.items = append(s.items, item)
	s.refs.Inc(n)
}

// pushNew pushes a compound item just made (PACK, NEWARRAY, KEYS, ...): the
// item counts one reference from the stack and n is added to the counter.
func (s *Stack) pushNew(item stackitem.Item, n int) {
	stackitem.AdjustRefs(item, 1)
	s.pushCounted(item, n)
}

// pushNoRef appends item without any counting (C# CopyTo).
func (s *Stack) pushNoRef(item stackitem.Item) {
	s.items = append(s.items, item)
}

// Peek returns the item n positions below the top.
func (s *Stack) Peek(n int) (stackitem.Item, error) {
	if n < 0 || n >= len(s.items) {
		return nil, fmt.Errorf("%w: Peek index is out of stack bounds: %d/%d", ErrStackUnderflow, n, len(s.items))
	}
	return s.items[len(s.items)-1-n], nil
}

// Pop removes the top item and uncounts its reference.
func (s *Stack) Pop() (stackitem.Item, error) {
	item, err := s.PopNoRef()
	if err != nil {
		return nil, err
	}
	s.refs.Remove(item)
	return item, nil
}

// PopNoRef removes the top item without uncounting it (the caller moves the
// reference elsewhere).
func (s *Stack) PopNoRef() (stackitem.Item, error) {
	n := len(s.items)
	if n == 0 {
		return nil, fmt.Errorf("%w: Out of stack bounds: 0/0", ErrStackUnderflow)
	}
	item := s.items[n-1]
	s.items = s.items[:n-1] // the stale slot is overwritten by the next push or cleared by reset
	return item, nil
}

// RemoveAt removes the item n positions below the top and uncounts it.
func (s *Stack) RemoveAt(n int) (stackitem.Item, error) {
	if n < 0 || n >= len(s.items) {
		return nil, fmt.Errorf("%w: Out of stack bounds: %d/%d", ErrStackUnderflow, n, len(s.items))
	}
	i := len(s.items) - 1 - n
	item := s.items[i]
	copy(s.items[i:], s.items[i+1:])
	s.items[len(s.items)-1] = nil
	s.items = s.items[:len(s.items)-1]
	s.refs.Remove(item)
	return item, nil
}

// Insert puts item n positions below the top (0 = push) and counts it.
func (s *Stack) Insert(n int, item stackitem.Item) error {
	if n < 0 || n > len(s.items) {
		return fmt.Errorf("%w: Insert index is out of stack bounds: %d/%d", ErrStackUnderflow, n, len(s.items))
	}
	i := len(s.items) - n
	s.items = append(s.items, nil)
	copy(s.items[i+1:], s.items[i:])
	s.items[i] = item
	s.refs.Add(item)
	return nil
}

// Clear removes all items, uncounting each.
func (s *Stack) Clear() {
	for i, item := range s.items {
		s.refs.Remove(item)
		s.items[i] = nil
	}
	s.items = s.items[:0]
}

// reset drops all items without counting (the counter is reset
// separately), clearing stale slots above the top too.
func (s *Stack) reset() {
	s.items = s.items[:cap(s.items)]
	clear(s.items)
	s.items = s.items[:0]
}

// Swap exchanges the items at positions n and m below the top.
func (s *Stack) Swap(n, m int) error {
	if n < 0 || m < 0 || n >= len(s.items) || m >= len(s.items) {
		return fmt.Errorf("%w: Swap index is out of stack bounds: %d/%d", ErrStackUnderflow, max(n, m), len(s.items))
	}
	l := len(s.items) - 1
	s.items[l-n], s.items[l-m] = s.items[l-m], s.items[l-n]
	return nil
}

// Roll moves the item n positions below the top to the top.
func (s *Stack) Roll(n int) error {
	if n < 0 || n >= len(s.items) {
		return fmt.Errorf("%w: Out of stack bounds: %d/%d", ErrStackUnderflow, n, len(s.items))
	}
	if n == 0 {
		return nil
	}
	l := len(s.items) - 1
	item := s.items[l-n]
	copy(s.items[l-n:], s.items[l-n+1:])
	s.items[l] = item
	return nil
}

// Reverse reverses the order of the top n items.
func (s *Stack) Reverse(n int) error {
	if n < 0 || n > len(s.items) {
		return fmt.Errorf("%w: Out of stack bounds: %d/%d", ErrStackUnderflow, n, len(s.items))
	}
	for i, j := len(s.items)-n, len(s.items)-1; i < j; i, j = i+1, j-1 {
		s.items[i], s.items[j] = s.items[j], s.items[i]
	}
	return nil
}

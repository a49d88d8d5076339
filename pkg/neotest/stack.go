package neotest

import (
	"math/big"

	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Stack is the result stack of a test run (TestInvoke, TestInvokeScript),
// with the calls of neo-go's vm.Stack that contract tests make: Pop, Peek
// and Top return an Element (no error: an empty stack panics, as
// neo-go's). The top is the last item of Items.
type Stack struct {
	items []stackitem.Item
}

// newStack copies items (bottom first); iterators become *Iterator.
func newStack(items []stackitem.Item) *Stack {
	s := &Stack{items: make([]stackitem.Item, len(items))}
	for i, it := range items {
		if in, ok := it.(*stackitem.Interop); ok {
			if iter, ok := in.Value().(interop.Iterator); ok {
				it = stackitem.NewInterop(&Iterator{iter: iter})
			}
		}
		s.items[i] = it
	}
	return s
}

// Len returns the number of items.
func (s *Stack) Len() int { return len(s.items) }

// Items returns the items, bottom first (owned by the stack).
func (s *Stack) Items() []stackitem.Item { return s.items }

// ToArray returns the items, bottom first (neo-go's name).
func (s *Stack) ToArray() []stackitem.Item { return s.items }

// Pop removes and returns the top item.
func (s *Stack) Pop() Element {
	it := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return Element{it}
}

// Peek returns the item n places below the top.
func (s *Stack) Peek(n int) Element { return Element{s.items[len(s.items)-1-n]} }

// Top returns the top item.
func (s *Stack) Top() Element { return s.Peek(0) }

// Element is one item of a Stack, with neo-go's vm.Element accessors.
// The conversions panic on items that do not convert, as neo-go's do.
type Element struct {
	item stackitem.Item
}

// Item returns the stack item.
func (e Element) Item() stackitem.Item { return e.item }

// Value returns the item's Go value.
func (e Element) Value() any { return e.item.Value() }

// BigInt converts the item to an integer.
func (e Element) BigInt() *big.Int {
	v, err := e.item.TryInteger()
	if err != nil {
		panic(err)
	}
	return v
}

// Bool converts the item to a boolean.
func (e Element) Bool() bool {
	v, err := e.item.TryBool()
	if err != nil {
		panic(err)
	}
	return v
}

// Bytes converts the item to bytes.
func (e Element) Bytes() []byte {
	v, err := e.item.TryBytes()
	if err != nil {
		panic(err)
	}
	return v
}

// Array returns the items of an Array or Struct.
func (e Element) Array() []stackitem.Item {
	if x, ok := e.item.(*stackitem.Array); ok {
		return x.Value().([]stackitem.Item)
	}
	panic("neotest: element is not an array")
}

// Interop returns an InteropInterface item.
func (e Element) Interop() *stackitem.Interop {
	in, ok := e.item.(*stackitem.Interop)
	if !ok {
		panic("neotest: element is not an interop")
	}
	return in
}

// Iterator is the value of an iterator a test run returned (neo-go's
// *storage.Iterator as tests use it): Next advances, Value is the current
// item. It reads the run's storage view, which stays open until the test
// ends.
type Iterator struct {
	iter interop.Iterator
}

// Next advances the iterator and reports whether there is a value.
func (i *Iterator) Next() bool { return i.iter.Next() }

// Value returns the current item (nil when there is none).
func (i *Iterator) Value() stackitem.Item {
	v, err := i.iter.Value()
	if err != nil {
		return nil
	}
	return v
}

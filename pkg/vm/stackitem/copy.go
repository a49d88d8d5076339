package stackitem

import (
	"fmt"
	"slices"
)

// Clone is C# Struct.Clone: a copy of the struct in which nested structs are
// copied too and every other element is shared. It copies at most
// MaxItems-1 elements in total (ErrLimit beyond) and also returns the number
// of cloned items the C# code reports (MaxItems minus the unused budget).
func (a *Array) Clone() (*Array, int, error) {
	count := MaxItems - 1
	result := NewStruct(nil)
	queue := []*Array{result, a}
	for len(queue) > 0 {
		dst, src := queue[0], queue[1]
		queue = queue[2:]
		dst.items = make([]Item, 0, len(src.items))
		for _, it := range src.items {
			count--
			if count < 0 {
				return nil, 0, fmt.Errorf("%w: Beyond struct subitem clone limits", ErrLimit)
			}
			if s, ok := it.(*Array); ok && s.isStruct {
				d := NewStruct(nil)
				dst.items = append(dst.items, d)
				queue = append(queue, d, s)
			} else {
				dst.items = append(dst.items, it)
			}
		}
	}
	return result, MaxItems - count, nil
}

// DeepCopy is C# StackItem.DeepCopy(asImmutable): compound items and buffers
// are copied recursively, keeping shared and cyclic references shared. With
// asImmutable, the copied compounds are read-only and buffers become
// ByteStrings; read-only compounds stay read-only either way.
func DeepCopy(item Item, asImmutable bool) Item {
	return deepCopy(item, make(map[Item]Item), asImmutable)
}

func deepCopy(item Item, seen map[Item]Item, asImmutable bool) Item {
	switch x := item.(type) {
	case *Array:
		if c, ok := seen[x]; ok {
			return c
		}
		res := &Array{isStruct: x.isStruct, items: make([]Item, 0, len(x.items))}
		seen[x] = res
		for _, it := range x.items {
			res.items = append(res.items, deepCopy(it, seen, asImmutable))
		}
		res.readOnly = x.readOnly || asImmutable
		return res
	case *Map:
		if c, ok := seen[x]; ok {
			return c
		}
		res := NewMapWithCap(len(x.elems))
		seen[x] = res
		for _, e := range x.elems {
			_ = res.Set(e.Key, deepCopy(e.Value, seen, asImmutable))
		}
		res.readOnly = x.readOnly || asImmutable
		return res
	case *Buffer:
		if c, ok := seen[x]; ok {
			return c
		}
		var res Item
		if asImmutable {
			res = NewByteString(slices.Clone(x.b))
		} else {
			res = NewBuffer(slices.Clone(x.b))
		}
		seen[x] = res
		return res
	}
	return item
}

// MakeReadOnly marks a compound item read-only (shallowly).
func MakeReadOnly(item Item) {
	switch x := item.(type) {
	case *Array:
		x.readOnly = true
	case *Map:
		x.readOnly = true
	}
}

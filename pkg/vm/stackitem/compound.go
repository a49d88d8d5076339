package stackitem

import (
	"math/big"
	"reflect"
	"strconv"
)

// comparableEqual compares two values with == when that cannot panic.
func comparableEqual(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() {
		return !va.IsValid() && !vb.IsValid()
	}
	if va.Type() != vb.Type() || !va.Comparable() {
		return false
	}
	return va.Equal(vb)
}

// Array is the Array item, and the Struct item when created by NewStruct.
type Array struct {
	items    []Item
	refs     int // stack references (C# CompoundType.StackReferences)
	readOnly bool
	isStruct bool
}

// NewArray returns an Array holding items (not copied).
func NewArray(items []Item) *Array { return &Array{items: items} }

// NewStruct returns a Struct holding items (not copied).
func NewStruct(items []Item) *Array { return &Array{items: items, isStruct: true} }

// Type implements Item: ArrayT or StructT.
func (a *Array) Type() Type {
	if a.isStruct {
		return StructT
	}
	return ArrayT
}

// IsStruct reports whether a is a Struct.
func (a *Array) IsStruct() bool { return a.isStruct }

// Items returns the elements; callers must not modify the slice.
func (a *Array) Items() []Item { return a.items }

// Len returns the number of elements.
func (a *Array) Len() int { return len(a.items) }

// Get returns element i; it panics if i is out of range.
func (a *Array) Get(i int) Item { return a.items[i] }

// IsReadOnly reports whether a is read-only.
func (a *Array) IsReadOnly() bool { return a.readOnly }

// Append adds an element (C# Array.Add).
func (a *Array) Append(it Item) error {
	if a.readOnly {
		return ErrReadOnly
	}
	a.items = append(a.items, it)
	return nil
}

// Set replaces element i (C# indexer set); it panics if i is out of range.
func (a *Array) Set(i int, it Item) error {
	if a.readOnly {
		return ErrReadOnly
	}
	a.items[i] = it
	return nil
}

// RemoveAt removes element i, keeping the order.
func (a *Array) RemoveAt(i int) error {
	if a.readOnly {
		return ErrReadOnly
	}
	copy(a.items[i:], a.items[i+1:])
	a.items[len(a.items)-1] = nil
	a.items = a.items[:len(a.items)-1]
	return nil
}

// Clear removes all elements.
func (a *Array) Clear() error {
	if a.readOnly {
		return ErrReadOnly
	}
	clear(a.items)
	a.items = a.items[:0]
	return nil
}

// Reverse reverses the elements in place.
func (a *Array) Reverse() error {
	if a.readOnly {
		return ErrReadOnly
	}
	for i, j := 0, len(a.items)-1; i < j; i, j = i+1, j-1 {
		a.items[i], a.items[j] = a.items[j], a.items[i]
	}
	return nil
}

// StackRefs returns the number of stack references the VM counts for a.
func (a *Array) StackRefs() int { return a.refs }

// TryBool implements Item: always true.
func (*Array) TryBool() (bool, error) { return true, nil }

// TryBytes implements Item: ErrInvalidCast.
func (*Array) TryBytes() ([]byte, error) { return nil, ErrInvalidCast }

// TryInteger implements Item: ErrInvalidCast.
func (*Array) TryInteger() (*big.Int, error) { return nil, ErrInvalidCast }

// Equals implements Item: identity. For Struct deep equality use Equal.
func (a *Array) Equals(o Item) bool {
	b, ok := o.(*Array)
	if !ok {
		return false
	}
	if a.isStruct && a != b {
		eq, err := Equal(a, b)
		return err == nil && eq
	}
	return a == b
}

// String implements Item: the element count.
func (a *Array) String() string { return strconv.Itoa(len(a.items)) }

// Value implements Item.
func (a *Array) Value() any { return a.items }
func (*Array) sealed()      {}

// MapElement is a key-value pair of a Map.
type MapElement struct {
	Key   Item
	Value Item
}

// indexThreshold is the map size from which a hash index is kept.
const indexThreshold = 8

// Map is the Map item: an insertion-ordered dictionary with primitive keys.
type Map struct {
	elems    []MapElement
	index    map[string]int // key encoding -> position; nil for small maps
	refs     int
	readOnly bool
}

// NewMap returns an empty Map.
func NewMap() *Map { return &Map{} }

// NewMapWithCap returns an empty Map with room for n elements.
func NewMapWithCap(n int) *Map { return &Map{elems: make([]MapElement, 0, n)} }

// Type implements Item.
func (*Map) Type() Type { return MapT }

// Len returns the number of entries.
func (m *Map) Len() int { return len(m.elems) }

// Elements returns the entries in insertion order; callers must not modify
// the slice.
func (m *Map) Elements() []MapElement { return m.elems }

// IsReadOnly reports whether m is read-only.
func (m *Map) IsReadOnly() bool { return m.readOnly }

// StackRefs returns the number of stack references the VM counts for m.
func (m *Map) StackRefs() int { return m.refs }

// CheckKey returns ErrInvalidKey if key is not a primitive item of at most
// MaxKeySize bytes (the checks of the C# Map indexer and its callers).
func CheckKey(key Item) error {
	_, err := keySize(key)
	return err
}

func keySize(key Item) (int, error) {
	var n int
	switch k := key.(type) {
	case *Integer:
		n = k.Size()
	case *ByteString:
		n = len(k.b)
	case Bool:
		n = 1
	default:
		return 0, ErrInvalidKey
	}
	if n > MaxKeySize {
		return n, ErrInvalidKey
	}
	return n, nil
}

// appendKey appends the index encoding of a primitive key: type byte, then
// the value bytes.
func appendKey(dst []byte, key Item) []byte {
	switch k := key.(type) {
	case *Integer:
		return k.AppendBytes(append(dst, byte(IntegerT)))
	case *ByteString:
		return append(append(dst, byte(ByteStringT)), k.b...)
	case Bool:
		if k {
			return append(dst, byte(BooleanT), 1)
		}
		return append(dst, byte(BooleanT), 0)
	}
	return dst
}

// keyEqual is the key equality of the C# dictionary (PrimitiveType.Equals).
func keyEqual(a, b Item) bool {
	switch x := a.(type) {
	case *Integer:
		return x.Equals(b)
	case *ByteString:
		y, ok := b.(*ByteString)
		return ok && string(x.b) == string(y.b)
	case Bool:
		y, ok := b.(Bool)
		return ok && x == y
	}
	return false
}

// find returns the position of key or -1. key must be valid.
func (m *Map) find(key Item) int {
	if m.index != nil {
		var buf [MaxKeySize + 2]byte
		if i, ok := m.index[string(appendKey(buf[:0], key))]; ok {
			return i
		}
		return -1
	}
	for i := range m.elems {
		if keyEqual(m.elems[i].Key, key) {
			return i
		}
	}
	return -1
}

// Index returns the position of key in insertion order, or -1 if absent.
// It returns ErrInvalidKey for an invalid key.
func (m *Map) Index(key Item) (int, error) {
	if _, err := keySize(key); err != nil {
		return -1, err
	}
	return m.find(key), nil
}

// Get returns the value stored under key.
func (m *Map) Get(key Item) (Item, bool, error) {
	i, err := m.Index(key)
	if err != nil || i < 0 {
		return nil, false, err
	}
	return m.elems[i].Value, true, nil
}

// Has reports whether key is present (C# ContainsKey).
func (m *Map) Has(key Item) (bool, error) {
	i, err := m.Index(key)
	return i >= 0, err
}

// Set stores value under key. An existing key keeps its position.
func (m *Map) Set(key, value Item) error {
	_, _, err := m.Replace(key, value)
	return err
}

// Replace is Set that also returns the value it replaced, if any.
func (m *Map) Replace(key, value Item) (old Item, replaced bool, err error) {
	if _, err := keySize(key); err != nil {
		return nil, false, err
	}
	if m.readOnly {
		return nil, false, ErrReadOnly
	}
	if i := m.find(key); i >= 0 {
		old = m.elems[i].Value
		m.elems[i].Value = value
		return old, true, nil
	}
	m.elems = append(m.elems, MapElement{Key: key, Value: value})
	if m.index != nil {
		m.index[string(appendKey(nil, key))] = len(m.elems) - 1
	} else if len(m.elems) > indexThreshold {
		m.buildIndex()
	}
	return nil, false, nil
}

func (m *Map) buildIndex() {
	m.index = make(map[string]int, 2*len(m.elems))
	var buf [MaxKeySize + 2]byte
	for i := range m.elems {
		m.index[string(appendKey(buf[:0], m.elems[i].Key))] = i
	}
}

// Remove deletes key, keeping the order of the other entries. It returns the
// removed value and its former position, or (nil, -1) if key was absent.
func (m *Map) Remove(key Item) (Item, int, error) {
	if _, err := keySize(key); err != nil {
		return nil, -1, err
	}
	if m.readOnly {
		return nil, -1, ErrReadOnly
	}
	i := m.find(key)
	if i < 0 {
		return nil, -1, nil
	}
	old := m.elems[i].Value
	m.Drop(i)
	return old, i, nil
}

// Drop removes the entry at position i; it panics if i is out of range. It
// does not check the read-only flag.
func (m *Map) Drop(i int) {
	if m.index != nil {
		var buf [MaxKeySize + 2]byte
		delete(m.index, string(appendKey(buf[:0], m.elems[i].Key)))
		for j := i + 1; j < len(m.elems); j++ {
			m.index[string(appendKey(buf[:0], m.elems[j].Key))] = j - 1
		}
	}
	copy(m.elems[i:], m.elems[i+1:])
	m.elems[len(m.elems)-1] = MapElement{}
	m.elems = m.elems[:len(m.elems)-1]
}

// Clear removes all entries.
func (m *Map) Clear() error {
	if m.readOnly {
		return ErrReadOnly
	}
	clear(m.elems)
	m.elems = m.elems[:0]
	m.index = nil
	return nil
}

// TryBool implements Item: always true.
func (*Map) TryBool() (bool, error) { return true, nil }

// TryBytes implements Item: ErrInvalidCast.
func (*Map) TryBytes() ([]byte, error) { return nil, ErrInvalidCast }

// TryInteger implements Item: ErrInvalidCast.
func (*Map) TryInteger() (*big.Int, error) { return nil, ErrInvalidCast }

// Equals implements Item: identity.
func (m *Map) Equals(o Item) bool { n, ok := o.(*Map); return ok && n == m }

// String implements Item: the entry count.
func (m *Map) String() string { return strconv.Itoa(len(m.elems)) }

// Value implements Item.
func (m *Map) Value() any { return m.elems }
func (*Map) sealed()      {}

package stackitem

import (
	"bytes"
	"errors"
	"math/big"
	"testing"
)

func TestConvert(t *testing.T) {
	big33 := NewByteString(bytes.Repeat([]byte{1}, 33))
	cases := []struct {
		in   Item
		to   Type
		want Item // nil = error
	}{
		{NewInt(0), ByteStringT, NewByteString([]byte{})},
		{NewInt(-1), ByteStringT, NewByteString([]byte{0xff})},
		{NewInt(128), BufferT, NewBuffer([]byte{0x80, 0})},
		{NewInt(5), BooleanT, Bool(true)},
		{NewInt(5), IntegerT, NewInt(5)},
		{NewInt(5), ArrayT, nil},
		{Bool(true), IntegerT, NewInt(1)},
		{Bool(false), ByteStringT, NewByteString([]byte{0})},
		{NewByteString([]byte{0xff, 0x00}), IntegerT, NewInt(255)},
		{big33, IntegerT, nil},
		{big33, BooleanT, nil},
		{NewByteString([]byte{0, 0}), BooleanT, Bool(false)},
		{NewBuffer([]byte{1}), IntegerT, NewInt(1)},
		{NewBuffer(bytes.Repeat([]byte{1}, 33)), IntegerT, nil},
		{NewBuffer([]byte{1}), ByteStringT, NewByteString([]byte{1})},
		{NewBuffer(nil), BooleanT, Bool(true)},
		{NewBuffer(nil), MapT, nil},
		{Null{}, IntegerT, Null{}},
		{Null{}, AnyT, nil},
		{Null{}, Type(0x01), nil},
		{NewArray([]Item{NewInt(1)}), StructT, NewStruct([]Item{NewInt(1)})},
		{NewStruct([]Item{NewInt(1)}), ArrayT, NewArray([]Item{NewInt(1)})},
		{NewMap(), BooleanT, Bool(true)},
		{NewMap(), ArrayT, nil},
		{NewPointer(1, nil), BooleanT, Bool(true)},
		{NewInterop(1), IntegerT, nil},
	}
	for _, c := range cases {
		got, err := Convert(c.in, c.to)
		if c.want == nil {
			if err == nil {
				t.Errorf("Convert(%s %v, %s) = %v, want error", c.in.Type(), c.in, c.to, got)
			}
			continue
		}
		if err != nil || !Equals(got, c.want) {
			t.Errorf("Convert(%s %v, %s) = %v %v, want %v", c.in.Type(), c.in, c.to, got, err, c.want)
		}
	}
	// Same-type conversion returns the item itself; Buffer copies.
	b := NewBuffer([]byte{1})
	if got, _ := Convert(b, BufferT); got != Item(b) {
		t.Error("Buffer to Buffer copied")
	}
	s, _ := Convert(b, ByteStringT)
	b.Bytes()[0] = 2
	if s.(*ByteString).Bytes()[0] != 1 {
		t.Error("Buffer to ByteString aliases")
	}
	// Buffer has no GetInteger.
	if _, err := ToInteger(NewBuffer([]byte{1})); !errors.Is(err, ErrInvalidCast) {
		t.Errorf("ToInteger(Buffer): %v", err)
	}
}

func TestIntegerLimits(t *testing.T) {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(1))
	min := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 255))
	for _, x := range []*big.Int{max, min} {
		i, err := TryNewBigInteger(x)
		if err != nil || i.Size() != 32 {
			t.Errorf("%s: %v size %d", x, err, i.Size())
		}
	}
	for _, x := range []*big.Int{new(big.Int).Add(max, big.NewInt(1)), new(big.Int).Sub(min, big.NewInt(1))} {
		if _, err := TryNewBigInteger(x); !errors.Is(err, ErrIntegerTooBig) {
			t.Errorf("%s: %v", x, err)
		}
	}
	if i, _ := TryNewBigInteger(big.NewInt(-1)); i.Big() != nil {
		t.Error("small value kept as big.Int")
	}
	a, b := NewBigInteger(new(big.Int).Set(max)), NewBigInteger(new(big.Int).Set(max))
	if !a.Equals(b) || a.Cmp(b) != 0 || a.Equals(NewInt(1)) || a.Cmp(NewInt(1)) != 1 {
		t.Error("big comparison")
	}
}

func TestEqual(t *testing.T) {
	long := NewByteString(make([]byte, MaxComparableSize+1))
	s1 := NewStruct([]Item{NewInt(1), NewByteString([]byte("a"))})
	s2 := NewStruct([]Item{NewInt(1), NewByteString([]byte("a"))})
	arr := NewArray(nil)
	cases := []struct {
		a, b Item
		eq   bool
		err  bool
	}{
		{NewInt(1), NewInt(1), true, false},
		{NewInt(1), NewByteString([]byte{1}), false, false},
		{NewByteString([]byte{1}), NewInt(1), false, false},
		{Bool(true), NewInt(1), false, false},
		{Null{}, Null{}, true, false},
		{long, NewInt(1), false, true},
		{NewInt(1), long, false, false},
		{NewByteString([]byte("x")), long, false, true},
		{s1, s2, true, false},
		{s1, NewArray([]Item{NewInt(1), NewByteString([]byte("a"))}), false, false},
		{arr, arr, true, false},
		{NewArray(nil), NewArray(nil), false, false},
		{NewBuffer([]byte{1}), NewBuffer([]byte{1}), false, false},
		{NewPointer(3, "s"), NewPointer(3, "s"), true, false},
		{NewPointer(3, "s"), NewPointer(3, "t"), false, false},
	}
	for i, c := range cases {
		eq, err := Equal(c.a, c.b)
		if eq != c.eq || (err != nil) != c.err {
			t.Errorf("case %d: Equal = %v %v", i, eq, err)
		}
	}
	// A struct with more than MaxItems items to compare fails.
	items := make([]Item, MaxItems)
	for i := range items {
		items[i] = NewInt(1)
	}
	if _, err := Equal(NewStruct(items), NewStruct(append([]Item(nil), items...))); !errors.Is(err, ErrLimit) {
		t.Errorf("big struct: %v", err)
	}
	// Comparison stops at the first difference (from the last element).
	items2 := append([]Item(nil), items...)
	items2[len(items2)-1] = NewInt(2)
	if eq, err := Equal(NewStruct(items), NewStruct(items2)); eq || err != nil {
		t.Errorf("early difference: %v %v", eq, err)
	}
}

func TestMap(t *testing.T) {
	m := NewMap()
	for i := range 20 {
		if err := m.Set(NewInt(int64(i)), NewInt(int64(i*10))); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Set(NewByteString([]byte{5}), Bool(true)); err != nil {
		t.Fatal(err)
	}
	if m.Len() != 21 {
		t.Fatal(m.Len())
	}
	v, ok, _ := m.Get(NewInt(5))
	if !ok || !v.Equals(NewInt(50)) {
		t.Errorf("Get(5) = %v %v", v, ok)
	}
	v, ok, _ = m.Get(NewByteString([]byte{5}))
	if !ok || v != Item(Bool(true)) {
		t.Errorf("Get(0x05) = %v %v", v, ok)
	}
	if _, ok, _ := m.Get(Bool(true)); ok {
		t.Error("true found")
	}
	old, idx, _ := m.Remove(NewInt(3))
	if idx != 3 || !old.Equals(NewInt(30)) {
		t.Errorf("Remove = %v %d", old, idx)
	}
	if i, _ := m.Index(NewInt(4)); i != 3 {
		t.Errorf("Index after remove = %d", i)
	}
	_ = m.Set(NewInt(4), NewInt(0))
	if i, _ := m.Index(NewInt(4)); i != 3 || m.Elements()[3].Value.(*Integer).Sign() != 0 {
		t.Error("overwrite moved the key")
	}
	if err := m.Set(NewByteString(make([]byte, 65)), Null{}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("65-byte key: %v", err)
	}
	if err := m.Set(NewBuffer(nil), Null{}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("buffer key: %v", err)
	}
	MakeReadOnly(m)
	if err := m.Set(NewInt(100), Null{}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only: %v", err)
	}
}

func TestCloneAndDeepCopy(t *testing.T) {
	inner := NewStruct([]Item{NewInt(1)})
	arr := NewArray(nil)
	s := NewStruct([]Item{inner, arr})
	c, n, err := s.Clone()
	if err != nil || n != 4 { // C# reports elements + 1
		t.Fatalf("Clone: %v, %d", err, n)
	}
	if c.Get(0) == Item(inner) || c.Get(1) != Item(arr) {
		t.Error("Clone must copy structs and share the rest")
	}
	self := NewStruct(nil)
	_ = self.Append(self)
	if _, _, err := self.Clone(); !errors.Is(err, ErrLimit) {
		t.Errorf("cyclic clone: %v", err)
	}

	buf := NewBuffer([]byte{1})
	root := NewArray([]Item{buf, buf})
	_ = root.Append(root)
	cp := DeepCopy(root, true).(*Array)
	if cp.Get(0) != cp.Get(1) || cp.Get(2) != Item(cp) || cp.Get(0).Type() != ByteStringT || !cp.IsReadOnly() {
		t.Error("DeepCopy must keep sharing, convert buffers and mark read-only")
	}
}

func TestRefCounter(t *testing.T) {
	var rc RefCounter
	child := NewArray([]Item{NewInt(1), NewInt(2)})
	parent := NewArray([]Item{child, child})
	rc.Add(parent)
	// parent 1 + child twice (its sub-items counted once) + 2 ints.
	if rc.Count() != 5 {
		t.Fatalf("count %d", rc.Count())
	}
	rc.Add(parent)
	if rc.Count() != 6 {
		t.Fatalf("count %d", rc.Count())
	}
	rc.Remove(parent)
	rc.Remove(parent)
	if rc.Count() != 0 || parent.StackRefs() != 0 || child.StackRefs() != 0 {
		t.Fatalf("count %d", rc.Count())
	}
	// Removing an unreferenced compound is a no-op.
	rc.Remove(parent)
	if rc.Count() != 0 {
		t.Fatal("underflow")
	}
	self := NewArray(nil)
	_ = self.Append(self)
	rc.Add(self)
	rc.Remove(self)
	if rc.Count() != 1 {
		// The cycle keeps its own reference, as in C#.
		t.Fatalf("cycle count %d", rc.Count())
	}
}

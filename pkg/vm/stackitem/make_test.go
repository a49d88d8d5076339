package stackitem

import (
	"math/big"
	"testing"
)

func TestMake(t *testing.T) {
	h := [3]byte{1, 2, 3} // a fixed-size byte array, as a hash is
	cases := []struct {
		in   any
		want Item
	}{
		{nil, Null{}},
		{true, Bool(true)},
		{7, NewInt(7)},
		{int64(-1), NewInt(-1)},
		{uint64(1) << 63, NewBigInteger(new(big.Int).SetUint64(1 << 63))},
		{"ab", NewByteString([]byte("ab"))},
		{[]byte{9}, NewByteString([]byte{9})},
		{h, NewByteString([]byte{1, 2, 3})},
		{[]any{1, "x"}, NewArray([]Item{NewInt(1), NewByteString([]byte("x"))})},
	}
	for _, c := range cases {
		got := Make(c.in)
		if got.Type() != c.want.Type() || !got.Equals(c.want) && got.Type() != ArrayT {
			t.Errorf("Make(%#v) = %v, want %v", c.in, got, c.want)
		}
	}
	if NewBool(true) != Bool(true) {
		t.Error("NewBool")
	}
	m := NewMap()
	m.Add(NewByteString([]byte("k")), NewInt(1))
	if v, ok, _ := m.Get(NewByteString([]byte("k"))); !ok || !v.Equals(NewInt(1)) {
		t.Error("Map.Add")
	}
	defer func() {
		if recover() == nil {
			t.Error("Make of a channel does not panic")
		}
	}()
	Make(make(chan int))
}

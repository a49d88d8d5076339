package stackitem

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
)

func TestJSONVectors(t *testing.T) {
	f := loadVectors(t)
	n := 0
	for _, c := range f.StdLib {
		switch c.Method {
		case "jsonSerialize":
			n++
			var arg any
			if err := json.Unmarshal(c.Args[0], &arg); err != nil {
				t.Fatal(err)
			}
			var want string
			if err := json.Unmarshal(c.Result, &want); err != nil {
				t.Fatal(err)
			}
			got, err := ToJSON(goToItem(arg))
			if err != nil || string(got) != want {
				t.Errorf("jsonSerialize(%s) = %s %v, want %s", c.Args[0], got, err, want)
			}
		case "jsonDeserialize":
			n++
			var arg string
			if err := json.Unmarshal(c.Args[0], &arg); err != nil {
				t.Fatal(err)
			}
			got, err := FromJSON([]byte(arg), MaxItems, true)
			if string(c.Result) == `"FAULT"` {
				if err == nil {
					t.Errorf("jsonDeserialize(%q) = %v, want FAULT", arg, got)
				}
				continue
			}
			if err != nil {
				t.Errorf("jsonDeserialize(%q): %v", arg, err)
				continue
			}
			var want any
			_ = json.Unmarshal(c.Result, &want)
			if !Equals(got, goToItem(want)) {
				t.Errorf("jsonDeserialize(%q) = %v, want %s", arg, got, c.Result)
			}
		}
	}
	if n == 0 {
		t.Fatal("no JSON vectors ran")
	}
}

// goToItem converts a decoded JSON value into an item (numbers as integers).
func goToItem(v any) Item {
	switch x := v.(type) {
	case nil:
		return Null{}
	case bool:
		return Bool(x)
	case float64:
		return NewInt(int64(x))
	case string:
		return NewByteString([]byte(x))
	case []any:
		items := make([]Item, len(x))
		for i := range x {
			items[i] = goToItem(x[i])
		}
		return NewArray(items)
	case map[string]any:
		m := NewMap()
		for k, e := range x {
			_ = m.Set(NewByteString([]byte(k)), goToItem(e))
		}
		return m
	}
	panic("unexpected")
}

// Equals compares two item trees by value (a test helper).
func Equals(a, b Item) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch x := a.(type) {
	case *Array:
		y := b.(*Array)
		if x.Len() != y.Len() {
			return false
		}
		for i := range x.items {
			if !Equals(x.items[i], y.items[i]) {
				return false
			}
		}
		return true
	case *Map:
		y := b.(*Map)
		if x.Len() != y.Len() {
			return false
		}
		for i := range x.elems {
			if !Equals(x.elems[i].Key, y.elems[i].Key) || !Equals(x.elems[i].Value, y.elems[i].Value) {
				return false
			}
		}
		return true
	case *Buffer:
		return string(x.b) == string(b.(*Buffer).b)
	}
	return a.Equals(b)
}

func TestToJSONDotNet(t *testing.T) {
	m := NewMap()
	_ = m.Set(NewByteString([]byte("a<b")), NewArray([]Item{NewInt(1), Bool(false), Null{}}))
	_ = m.Set(NewByteString([]byte("")), NewStruct(nil))
	cases := []struct {
		item Item
		want string
	}{
		{NewInt(0), "0"},
		{NewInt(-5), "-5"},
		{NewInt(100000000000000), "100000000000000"},
		{NewInt(999999999999999), "999999999999999"},
		{NewInt(1000000000000000), "1E+15"},
		{NewInt(-1000000000000000), "-1E+15"},
		{NewInt(1200000000000000), "1.2E+15"},
		{NewInt(1234567890123456), "1234567890123456"},
		{NewInt(9007199254740990), "9.00719925474099E+15"},
		{NewInt(9007199254740991), "9007199254740991"},
		{NewByteString([]byte("\"\\/\b\f\n\r\t\x01\x7f")), `"\u0022\\/\b\f\n\r\t\u0001\u007F"`},
		{NewByteString([]byte("&'+<>`")), `"\u0026\u0027\u002B\u003C\u003E\u0060"`},
		{NewByteString([]byte("é€🦆")), `"\u00E9\u20AC\uD83E\uDD86"`},
		{NewBuffer([]byte("ab")), `"ab"`},
		{m, `{"a\u003Cb":[1,false,null],"":[]}`},
		{NewArray([]Item{NewArray(nil), NewMap(), NewByteString(nil)}), `[[],{},""]`},
	}
	for _, c := range cases {
		got, err := ToJSON(c.item)
		if err != nil || string(got) != c.want {
			t.Errorf("ToJSON(%v) = %s %v, want %s", c.item, got, err, c.want)
		}
	}
	bad := map[string]Item{
		"2^53":        NewInt(1 << 53),
		"-2^53":       NewInt(-(1 << 53)),
		"invalid utf": NewByteString([]byte{0xff}),
		"interop":     NewInterop(1),
		"pointer":     NewPointer(0, nil),
	}
	intKey := NewMap()
	_ = intKey.Set(NewInt(1), NewInt(1))
	bad["int key"] = intKey
	self := NewArray(nil)
	_ = self.Append(self)
	bad["self"] = self
	deep := Item(NewArray(nil))
	for range 1000 {
		deep = NewArray([]Item{deep})
	}
	bad["1001 deep"] = deep
	bad["too big"] = NewByteString([]byte(strings.Repeat("+", MaxSize/6+1)))
	for name, item := range bad {
		if _, err := ToJSON(item); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := Item(NewArray(nil))
	for range 999 {
		ok = NewArray([]Item{ok})
	}
	if _, err := ToJSON(ok); err != nil {
		t.Errorf("1000 deep: %v", err)
	}
}

func TestFromJSONDotNet(t *testing.T) {
	good := []struct {
		in   string
		want string // RPC JSON of the result
	}{
		{`123`, `{"type":"Integer","value":"123"}`},
		{` -0 `, `{"type":"Integer","value":"0"}`},
		{`1e2`, `{"type":"Integer","value":"100"}`},
		{`1.0`, `{"type":"Integer","value":"1"}`},
		{`1e-400`, `{"type":"Integer","value":"0"}`},
		{`null`, `{"type":"Any"}`},
		{`/* c */ [true, /*x*/ null] // end`, `{"type":"Array","value":[{"type":"Boolean","value":true},{"type":"Any"}]}`},
		{`{"a":"\u00e9\ud83e\udd86","b":{}}`, `{"type":"Map","value":[{"key":{"type":"ByteString","value":"YQ=="},"value":{"type":"ByteString","value":"w6nwn6aG"}},{"key":{"type":"ByteString","value":"Yg=="},"value":{"type":"Map","value":[]}}]}`},
		{`[[[[[[[[[[1]]]]]]]]]]`, ``},
		{`12345678901234567890`, `{"type":"Integer","value":"12345678901234567000"}`},
	}
	for _, c := range good {
		item, err := FromJSON([]byte(c.in), MaxItems, true)
		if err != nil {
			t.Errorf("FromJSON(%s): %v", c.in, err)
			continue
		}
		if c.want == "" {
			continue
		}
		got, _ := ToJSONWithTypes(item, -1)
		if string(got) != c.want {
			t.Errorf("FromJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	// Before Basilisk the double's exact value is used.
	item, err := FromJSON([]byte(`12345678901234567890`), MaxItems, false)
	if err != nil || item.(*Integer).String() != "12345678901234567168" {
		t.Errorf("pre-Basilisk: %v %v", item, err)
	}
	bad := []string{
		``, ` `, `***`, `123.45`, `[1,]`, `{"a":1,}`, `{"a":1,"a":2}`, `[[[[[[[[[[[1]]]]]]]]]]]`,
		`01`, `+1`, `.5`, `1.`, `-`, `1e`, `1e400`, `"\ud800"`, `"\udc00x"`, `"a` + "\x01" + `"`,
		"\"\xff\"", `tru`, `nul`, `[1 2]`, `1 2`, `/* x`, "\xef\xbb\xbf1", `"\x"`, `{1:2}`, `1e77`,
		`1x`,
	}
	for _, in := range bad {
		if item, err := FromJSON([]byte(in), MaxItems, true); err == nil {
			t.Errorf("FromJSON(%q) = %v, want error", in, item)
		}
	}
	// Item budget: an array of n elements costs n+1; a property costs 2.
	arr := "[" + strings.Repeat("1,", MaxItems-2) + "1]"
	if _, err := FromJSON([]byte(arr), MaxItems, true); err != nil {
		t.Errorf("array of %d: %v", MaxItems-1, err)
	}
	arr = "[" + strings.Repeat("1,", MaxItems-1) + "1]"
	if _, err := FromJSON([]byte(arr), MaxItems, true); err == nil {
		t.Errorf("array of %d accepted", MaxItems)
	}
	if _, err := FromJSON([]byte(`{"a":1}`), 3, true); err != nil {
		t.Errorf("object in budget 3: %v", err)
	}
	if _, err := FromJSON([]byte(`{"a":1}`), 2, true); err == nil {
		t.Error("object in budget 2 accepted")
	}
}

func TestRPCJSON(t *testing.T) {
	m := NewMap()
	_ = m.Set(NewInt(1), NewBuffer([]byte{1, 2}))
	_ = m.Set(Bool(true), NewStruct([]Item{Null{}, NewByteString([]byte("x"))}))
	x, _ := new(big.Int).SetString("-57896044618658097711785492504343953926634992332820282019728792003956564819968", 10)
	item := NewArray([]Item{m, NewBigInteger(x), Bool(false)})
	data, err := ToJSONWithTypes(item, -1)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"Array","value":[{"type":"Map","value":[{"key":{"type":"Integer","value":"1"},"value":{"type":"Buffer","value":"AQI="}},{"key":{"type":"Boolean","value":true},"value":{"type":"Struct","value":[{"type":"Any"},{"type":"ByteString","value":"eA=="}]}}]},{"type":"Integer","value":"-57896044618658097711785492504343953926634992332820282019728792003956564819968"},{"type":"Boolean","value":false}]}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
	if !json.Valid(data) {
		t.Error("invalid JSON")
	}
	back, err := FromJSONWithTypes(data)
	if err != nil || !Equals(back, item) {
		t.Errorf("round trip: %v %v", back, err)
	}
	self := NewArray(nil)
	_ = self.Append(self)
	if _, err := ToJSONWithTypes(self, -1); !errors.Is(err, ErrCircular) {
		t.Errorf("self: %v", err)
	}
	shared := NewArray(nil)
	if _, err := ToJSONWithTypes(NewArray([]Item{shared, shared}), -1); err != nil {
		t.Errorf("shared: %v", err)
	}
	if _, err := ToJSONWithTypes(NewInt(1), 10); err == nil {
		t.Error("size limit ignored")
	}
	p, _ := ToJSONWithTypes(NewPointer(7, nil), -1)
	i, _ := ToJSONWithTypes(NewInterop(1), -1)
	if string(p) != `{"type":"Pointer","value":7}` || string(i) != `{"type":"InteropInterface"}` {
		t.Errorf("pointer %s interop %s", p, i)
	}
}

func FuzzFromJSON(f *testing.F) {
	for _, s := range []string{`123`, `null`, `[1,"a",{"b":true}]`, `{"a":{"b":[null]}}`, `/*c*/1`, `"\u00e9"`, `1e5`, `[[[[]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		item, err := FromJSON(data, MaxItems, true)
		if err != nil {
			return
		}
		if json.Valid(data) == false && !strings.Contains(string(data), "/") {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		out, err := ToJSON(item)
		if err != nil {
			// Numbers beyond 2^53 parse but do not serialize; nothing else fails.
			return
		}
		back, err := FromJSON(out, MaxItems, true)
		if err != nil {
			t.Fatalf("re-parse %s: %v", out, err)
		}
		if !Equals(item, back) {
			t.Fatalf("round trip %q -> %s changed the item", data, out)
		}
	})
}

package stackitem

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"
)

type vectorItem struct {
	Type     string          `json:"type"`
	Value    json.RawMessage `json:"value"`
	ValueHex *string         `json:"value_hex"`
}

type vectorMapEntry struct {
	Key   vectorItem `json:"key"`
	Value vectorItem `json:"value"`
}

func (v vectorItem) item(t *testing.T) Item {
	t.Helper()
	switch v.Type {
	case "Any":
		return Null{}
	case "Boolean":
		var b bool
		if err := json.Unmarshal(v.Value, &b); err != nil {
			t.Fatal(err)
		}
		return Bool(b)
	case "Integer":
		var s string
		if err := json.Unmarshal(v.Value, &s); err != nil {
			t.Fatal(err)
		}
		x, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("bad integer %q", s)
		}
		return NewBigInteger(x)
	case "ByteString", "Buffer":
		b, err := hex.DecodeString(*v.ValueHex)
		if err != nil {
			t.Fatal(err)
		}
		if v.Type == "Buffer" {
			return NewBuffer(b)
		}
		return NewByteString(b)
	case "Array", "Struct":
		var items []vectorItem
		if err := json.Unmarshal(v.Value, &items); err != nil {
			t.Fatal(err)
		}
		res := make([]Item, len(items))
		for i := range items {
			res[i] = items[i].item(t)
		}
		if v.Type == "Struct" {
			return NewStruct(res)
		}
		return NewArray(res)
	case "Map":
		var entries []vectorMapEntry
		if err := json.Unmarshal(v.Value, &entries); err != nil {
			t.Fatal(err)
		}
		m := NewMap()
		for _, e := range entries {
			if err := m.Set(e.Key.item(t), e.Value.item(t)); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	t.Fatalf("unknown type %s", v.Type)
	return nil
}

type vectorFile struct {
	Vectors []struct {
		Case string     `json:"case"`
		Item vectorItem `json:"item"`
		Hex  string     `json:"hex"`
	} `json:"vectors"`
	Errors []struct {
		Case     string `json:"case"`
		Hex      string `json:"hex"`
		Expected string `json:"expected"`
	} `json:"error_and_edge_cases"`
	StdLib []struct {
		Method string            `json:"method"`
		Args   []json.RawMessage `json:"args"`
		Result json.RawMessage   `json:"result"`
	} `json:"stdlib_other"`
}

func loadVectors(t *testing.T) vectorFile {
	data, err := os.ReadFile("testdata/stackitem_serialization.json")
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSerializationVectors(t *testing.T) {
	f := loadVectors(t)
	if len(f.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	for _, v := range f.Vectors {
		item := v.Item.item(t)
		got, err := Serialize(item)
		if err != nil {
			t.Errorf("%s: %v", v.Case, err)
			continue
		}
		if hex.EncodeToString(got) != v.Hex {
			t.Errorf("%s: got %x, want %s", v.Case, got, v.Hex)
		}
		back, err := Deserialize(got)
		if err != nil {
			t.Errorf("%s: deserialize: %v", v.Case, err)
			continue
		}
		again, err := Serialize(back)
		if err != nil || !bytes.Equal(again, got) {
			t.Errorf("%s: round trip %x, %v", v.Case, again, err)
		}
		if back.Type() != item.Type() {
			t.Errorf("%s: round trip type %s", v.Case, back.Type())
		}
	}
	t.Logf("%d serialization vectors", len(f.Vectors))
}

func TestSerializationEdgeCases(t *testing.T) {
	f := loadVectors(t)
	n := 0
	for _, c := range f.Errors {
		if c.Hex == "" {
			continue
		}
		n++
		b, _ := hex.DecodeString(c.Hex)
		item, err := Deserialize(b)
		accepted := strings.HasPrefix(c.Expected, "accepted")
		if accepted {
			if err != nil {
				t.Errorf("%s: %v", c.Case, err)
			} else if i, ok := item.(*Integer); !ok || i.String() != "1" {
				t.Errorf("%s: got %v", c.Case, item)
			}
		} else if err == nil {
			t.Errorf("%s: accepted, want %s", c.Case, c.Expected)
		}
	}
	if n == 0 {
		t.Fatal("no edge cases ran")
	}

	// Serialization failures.
	self := NewArray(nil)
	_ = self.Append(self)
	selfMap := NewMap()
	_ = selfMap.Set(NewInt(1), selfMap)
	shared := NewArray(nil)
	for name, item := range map[string]Item{
		"interop":          NewInterop(1),
		"pointer":          NewPointer(1, nil),
		"self array":       self,
		"self map":         selfMap,
		"same array twice": NewArray([]Item{shared, shared}),
	} {
		if _, err := Serialize(item); !errors.Is(err, ErrNotSupported) {
			t.Errorf("%s: %v, want ErrNotSupported", name, err)
		}
	}
	// Size limit: a ByteString of n > 65535 bytes takes 1+5+n bytes.
	if _, err := Serialize(NewByteString(make([]byte, MaxSize))); !errors.Is(err, ErrTooBig) {
		t.Errorf("big: %v", err)
	}
	if _, err := Serialize(NewByteString(make([]byte, MaxSize-6))); err != nil {
		t.Errorf("fits: %v", err)
	}
	// Item count limit: an array of MaxItems-1 elements is MaxItems items.
	big := make([]Item, MaxItems-1)
	for i := range big {
		big[i] = Null{}
	}
	data, err := Serialize(NewArray(big))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Deserialize(data); err != nil {
		t.Errorf("deserialize %d items: %v", MaxItems, err)
	}
	big = append(big, Null{})
	if _, err := Serialize(NewArray(big)); err == nil {
		t.Error("serialized MaxItems+1 items")
	}
	// A hand-made encoding with MaxItems+1 items fails to deserialize.
	enc := append([]byte{0x40, 0xfd}, byte(MaxItems&0xff), byte(MaxItems>>8))
	enc = append(enc, make([]byte, MaxItems)...)
	if _, err := Deserialize(enc); err == nil {
		t.Error("deserialized MaxItems+1 items")
	}
	// Map keys must be primitive.
	if _, err := Deserialize([]byte{0x48, 0x01, 0x40, 0x00, 0x00}); err == nil {
		t.Error("array map key accepted")
	}
	// A map key of 65 bytes is rejected.
	enc = append([]byte{0x48, 0x01, 0x28, 65}, make([]byte, 65)...)
	enc = append(enc, 0x00)
	if _, err := Deserialize(enc); err == nil {
		t.Error("65-byte map key accepted")
	}
	// A ByteString longer than the input is rejected before allocation.
	if _, err := Deserialize([]byte{0x28, 0xfe, 0xff, 0xff, 0xff, 0x00}); err == nil {
		t.Error("oversized length accepted")
	}
}

func FuzzDeserialize(f *testing.F) {
	for _, s := range []string{"2001", "210101", "4001210101", "4801210102210101", "480228016120012101014000", "2002", "400101", "00"} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		item, err := Deserialize(data)
		if err != nil {
			return
		}
		enc, err := Serialize(item)
		if err != nil {
			// Deserialized items can always be serialized again (no
			// shared compounds, no interop), within the same limits.
			t.Fatalf("re-serialize %x: %v", data, err)
		}
		back, err := Deserialize(enc)
		if err != nil {
			t.Fatalf("deserialize canonical %x: %v", enc, err)
		}
		enc2, err := Serialize(back)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("unstable encoding %x vs %x (%v)", enc, enc2, err)
		}
	})
}

// TestSerializeManyCompounds: past the compound items kept in place, a
// repeated one is still found (the map), and distinct ones still pass.
func TestSerializeManyCompounds(t *testing.T) {
	subs := make([]Item, 20)
	for i := range subs {
		subs[i] = NewArray([]Item{NewBigInteger(big.NewInt(int64(i)))})
	}
	if _, err := Serialize(NewArray(subs)); err != nil {
		t.Fatalf("20 distinct arrays: %v", err)
	}
	for _, dup := range []int{2, 15} {
		withDup := append(append([]Item(nil), subs...), subs[dup])
		if _, err := Serialize(NewArray(withDup)); !errors.Is(err, ErrNotSupported) {
			t.Fatalf("array %d twice: %v, want ErrNotSupported", dup, err)
		}
	}
}

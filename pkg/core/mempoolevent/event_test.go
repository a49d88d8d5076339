package mempoolevent

import (
	"encoding/json"
	"testing"
)

func TestTypeJSON(t *testing.T) {
	for _, typ := range []Type{TransactionAdded, TransactionRemoved} {
		b, err := json.Marshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		var got Type
		if err := json.Unmarshal(b, &got); err != nil || got != typ {
			t.Fatalf("%s: got %v, %v", b, got, err)
		}
	}
	if Type(7).String() != "unknown" {
		t.Fatal("unknown type name")
	}
	var x Type
	if err := json.Unmarshal([]byte(`"bogus"`), &x); err == nil {
		t.Fatal("bogus name accepted")
	}
	if err := json.Unmarshal([]byte(`1`), &x); err == nil {
		t.Fatal("number accepted")
	}
}

package vmstate

import (
	"encoding/json"
	"testing"
)

func TestState(t *testing.T) {
	for _, s := range []State{None, Halt, Fault, Break} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var got State
		if err := json.Unmarshal(b, &got); err != nil || got != s {
			t.Errorf("%s: round trip %s -> %s %v", s, b, got, err)
		}
	}
	if s, err := FromString("halt"); err != nil || s != Halt {
		t.Error(s, err)
	}
	if _, err := FromString("x"); err == nil {
		t.Error("accepted x")
	}
	if !Fault.HasFlag(Fault) || Halt.HasFlag(Fault) {
		t.Error("HasFlag")
	}
}

package neotest

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// decodeStack fills aer.Stack from its stored JSON form when the result
// was read back from storage.
func decodeStack(aer *state.AppExecResult) error {
	if aer.Stack != nil {
		return nil
	}
	raw := aer.StackJSON()
	items := make([]stackitem.Item, len(raw))
	for i, r := range raw {
		it, err := stackitem.FromJSONWithTypes(r)
		if err != nil {
			return fmt.Errorf("item %d: %w", i, err)
		}
		items[i] = it
	}
	aer.Stack = items
	return nil
}

// sameItem reports whether a and b are of one type with equal contents,
// compared through their typed JSON form (items that have none, such as
// interop items, are compared deeply).
func sameItem(a, b stackitem.Item) bool {
	if a.Type() != b.Type() {
		return false
	}
	ja, errA := stackitem.ToJSONWithTypes(a, stackitem.MaxSize)
	jb, errB := stackitem.ToJSONWithTypes(b, stackitem.MaxSize)
	if errA != nil || errB != nil {
		return reflect.DeepEqual(a, b)
	}
	return bytes.Equal(ja, jb)
}

func itemString(it stackitem.Item) string {
	if j, err := stackitem.ToJSONWithTypes(it, stackitem.MaxSize); err == nil {
		return string(j)
	}
	return fmt.Sprintf("%#v", it)
}

// requireItems fails t unless got equals want item by item.
func requireItems(t testing.TB, want, got []stackitem.Item, what string) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("neotest: %s has %d items, want %d", what, len(got), len(want))
	}
	for i := range want {
		if !sameItem(want[i], got[i]) {
			t.Fatalf("neotest: %s item %d:\n  got  %s\n  want %s", what, i, itemString(got[i]), itemString(want[i]))
		}
	}
}

// requireEvent fails t unless got is the notification want.
func requireEvent(t testing.TB, want, got state.NotificationEvent, i int) {
	t.Helper()
	if want.ScriptHash != got.ScriptHash || want.Name != got.Name {
		t.Fatalf("neotest: notification %d is %s from %s, want %s from %s", i,
			got.Name, got.ScriptHash.StringLE(), want.Name, want.ScriptHash.StringLE())
	}
	requireItems(t, []stackitem.Item{want.Item}, []stackitem.Item{got.Item}, fmt.Sprintf("notification %d (%s)", i, want.Name))
}

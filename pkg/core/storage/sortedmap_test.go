package storage

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortedMapAgainstModel drives the index through adds, removals,
// re-adds and compactions, checking after each step that an ordered walk
// yields exactly the model's keys.
func TestSortedMapAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var s sortedMap
	model := map[string][]byte{}
	for step := range 3000 {
		k := string([]byte{byte(r.IntN(40))})
		if r.IntN(3) == 0 {
			k += string([]byte{byte(r.IntN(4))})
		}
		if r.IntN(3) == 0 {
			s.remove(k)
			delete(model, k)
		} else {
			v := []byte{byte(step)}
			s.set(k, v)
			model[k] = v
		}
		if r.IntN(5) != 0 {
			continue
		}
		s.order()
		if !slices.IsSorted(s.keys) {
			t.Fatalf("step %d: index not sorted", step)
		}
		var got []string
		for _, e := range s.snapshot(nil, nil, false, false) {
			got = append(got, e.k)
			if string(e.v) != string(model[e.k]) {
				t.Fatalf("step %d: %q = %x, want %x", step, e.k, e.v, model[e.k])
			}
		}
		if want := slices.Sorted(maps.Keys(model)); !slices.Equal(got, want) {
			t.Fatalf("step %d: walk %q, want %q", step, got, want)
		}
		if len(s.keys) > 2*len(model)+len(s.fresh)+8 {
			t.Fatalf("step %d: index holds %d keys for %d live ones", step, len(s.keys), len(model))
		}
	}
}

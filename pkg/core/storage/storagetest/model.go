package storagetest

import (
	"bytes"
	"maps"
	"slices"
	"strings"

	"github.com/n3node/n3node/pkg/core/storage"
)

// Model is a reference implementation of the Store semantics, written as
// plainly as possible (a map, sorted on every walk) to check real stores
// against.
type Model map[string][]byte

// Apply applies a change set: nil deletes, anything else (including an empty
// value) stores a copy.
func (m Model) Apply(puts map[string][]byte) {
	for k, v := range puts {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = bytes.Clone(v)
		}
	}
}

// Clone returns a deep copy.
func (m Model) Clone() Model {
	c := make(Model, len(m))
	for k, v := range m {
		c[k] = bytes.Clone(v)
	}
	return c
}

// InRange reports whether key k is visited by a Seek over rng.
func InRange(rng storage.SeekRange, k string) bool {
	p := string(rng.Prefix)
	if !strings.HasPrefix(k, p) {
		return false
	}
	start := p + string(rng.Start)
	if !rng.Backwards {
		return k >= start
	}
	return k <= start || strings.HasPrefix(k, start)
}

// KV is one key-value pair.
type KV struct {
	Key, Value string
}

// Seek returns the pairs a Seek over rng visits, in order.
func (m Model) Seek(rng storage.SeekRange) []KV {
	var out []KV
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if InRange(rng, k) {
			out = append(out, KV{k, string(m[k])})
		}
	}
	if rng.Backwards {
		slices.Reverse(out)
	}
	return out
}

// Collect walks s over rng and returns the pairs it yields (copied).
func Collect(s storage.Store, rng storage.SeekRange) []KV {
	var out []KV
	s.Seek(rng, func(k, v []byte) bool {
		out = append(out, KV{string(k), string(v)})
		return true
	})
	return out
}

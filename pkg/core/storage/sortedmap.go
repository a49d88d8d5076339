package storage

import (
	"slices"
	"sort"
	"unsafe"
)

// kv is one entry of a snapshot taken from a sortedMap. In a cache layer a
// nil v marks a deleted key.
type kv struct {
	k string
	v []byte
}

// sortedMap is a hash map with an ordered key index beside it. Point reads
// and writes cost one map operation; the index is brought up to date only
// when a walk needs it, by sorting the keys added since the last walk and
// merging them into the sorted index in one linear pass. A run of walks with
// no writes between them pays nothing; a walk after k new keys pays
// O(k log k + n) instead of a full O(n log n) sort.
//
// sortedMap is not synchronized; its owner locks around it.
type sortedMap struct {
	m     map[string][]byte
	keys  []string // ascending, unique; may hold keys since removed from m
	spare []string // buffer the next merge writes into
	fresh []string // keys added to m since the last merge, in insertion order
	stale int      // upper bound on the keys of `keys` missing from m
	// hint sizes m and fresh when the first key after a reset arrives:
	// the size of the map reset dropped (a layer that takes a block's
	// records takes about as many for the next block), so that a large
	// map is allocated once instead of grown step by step.
	hint int
}

func (s *sortedMap) len() int { return len(s.m) }

func (s *sortedMap) get(k string) ([]byte, bool) {
	v, ok := s.m[k]
	return v, ok
}

// set stores v (which the map then owns) under k.
func (s *sortedMap) set(k string, v []byte) {
	if s.m == nil {
		s.m = make(map[string][]byte, s.hint)
		if s.fresh == nil && s.hint > 0 {
			s.fresh = make([]string, 0, s.hint)
		}
	}
	if _, ok := s.m[k]; !ok {
		s.fresh = append(s.fresh, k)
	}
	s.m[k] = v
}

// remove deletes k from the map; the index drops it lazily.
func (s *sortedMap) remove(k string) {
	if _, ok := s.m[k]; ok {
		delete(s.m, k)
		s.stale++
	}
}

// reset empties the map, keeping small buffers for reuse; a large map (or
// one made large by its hint) is dropped, and the size it had is the next
// one's hint.
func (s *sortedMap) reset() {
	n := len(s.m)
	if n > 1024 || s.hint > 1024 {
		s.m = nil
		s.keys, s.spare, s.fresh = nil, nil, nil
	} else {
		clear(s.m)
		s.keys, s.spare, s.fresh = s.keys[:0], s.spare[:0], s.fresh[:0]
	}
	s.hint = n
	s.stale = 0
}

// compactDue reports whether enough removed keys linger in the index to
// make the next order() drop them.
func (s *sortedMap) compactDue() bool { return s.stale > 0 && s.stale*2 >= len(s.keys) }

// isOrdered reports whether order() would do nothing.
func (s *sortedMap) isOrdered() bool { return len(s.fresh) == 0 && !s.compactDue() }

// order brings the key index up to date.
func (s *sortedMap) order() {
	if s.isOrdered() {
		return
	}
	compact := s.compactDue()
	fresh := s.fresh
	if s.stale > 0 {
		// A key added and removed again since the last merge is not in m.
		n := 0
		for _, k := range fresh {
			if _, ok := s.m[k]; ok {
				fresh[n] = k
				n++
			}
		}
		fresh = fresh[:n]
	}
	slices.Sort(fresh)
	out := slices.Grow(s.spare[:0], len(s.keys)+len(fresh))
	i, j := 0, 0
	for i < len(s.keys) || j < len(fresh) {
		var k string
		switch {
		case j == len(fresh) || (i < len(s.keys) && s.keys[i] < fresh[j]):
			k = s.keys[i]
			i++
			if compact {
				if _, ok := s.m[k]; !ok {
					continue
				}
			}
		case i == len(s.keys) || fresh[j] < s.keys[i]:
			k = fresh[j]
			j++
		default: // equal: a removed key that came back
			k = s.keys[i]
			i++
			j++
		}
		if n := len(out); n > 0 && out[n-1] == k {
			continue // added, removed and added again before a merge
		}
		out = append(out, k)
	}
	clear(s.keys) // let the old array stop pinning strings
	s.spare, s.keys = s.keys[:0], out
	s.fresh = s.fresh[:0]
	if compact {
		s.stale = 0
	}
}

// span returns the index positions [i, j) of the keys in [lo, hi). The index
// must be ordered.
func (s *sortedMap) span(lo, hi []byte) (int, int) {
	l, h := bstr(lo), bstr(hi)
	i := sort.SearchStrings(s.keys, l)
	j := len(s.keys)
	if hi != nil {
		j = i + sort.SearchStrings(s.keys[i:], h)
	}
	return i, j
}

// snapshot copies the entries with keys in [lo, hi) in walk order. With
// tombstones, deleted keys (nil values) are included. The index must be
// ordered.
func (s *sortedMap) snapshot(lo, hi []byte, backwards, tombstones bool) []kv {
	i, j := s.span(lo, hi)
	if i >= j {
		return nil
	}
	out := make([]kv, 0, j-i)
	add := func(k string) {
		v, ok := s.m[k]
		if !ok || (v == nil && !tombstones) {
			return
		}
		out = append(out, kv{k, v})
	}
	if !backwards {
		for _, k := range s.keys[i:j] {
			add(k)
		}
	} else {
		for x := j - 1; x >= i; x-- {
			add(s.keys[x])
		}
	}
	return out
}

// bstr views b as a string without copying; the string must not outlive b's
// contents staying unchanged.
func bstr(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// sbytes views s as a byte slice without copying; the slice must not be
// modified.
func sbytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

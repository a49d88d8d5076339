package storagetest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/n3node/n3node/pkg/core/storage"
)

// Harness describes one Store implementation for the conformance suite.
type Harness struct {
	// Name names the subtests.
	Name string
	// Open returns a new, empty store. The suite closes it (through the
	// last store Reopen returned).
	Open func(t testing.TB) storage.Store
	// Reopen, for persistent stores, closes s and opens the same database
	// again. Nil for stores that forget their data on Close.
	Reopen func(t testing.TB, s storage.Store) storage.Store
	// NoWriteInSeek marks a store whose Seek callbacks must not write to it
	// (BoltDB); the snapshot case then writes from outside the walk only.
	NoWriteInSeek bool
}

type testCase struct {
	name string
	run  func(t *testing.T, h Harness, s storage.Store) storage.Store
}

// cases is the conformance suite. A case returns the store it ends with
// (Reopen replaces it), which Run closes.
var cases = []testCase{
	{"GetMissing", testGetMissing},
	{"PutGetOverwrite", testPutGetOverwrite},
	{"EmptyValueVsDeleted", testEmptyValueVsDeleted},
	{"DeleteMissing", testDeleteMissing},
	{"Ownership", testOwnership},
	{"EmptyChangeSet", testEmptyChangeSet},
	{"EmptyKey", testEmptyKey},
	{"SeekAllSorted", testSeekAllSorted},
	{"PrefixBoundaries", testPrefixBoundaries},
	{"StartInsidePrefix", testStartInsidePrefix},
	{"EarlyStop", testEarlyStop},
	{"ReadInsideSeek", testReadInsideSeek},
	{"SeekIsSnapshot", testSeekIsSnapshot},
	{"RandomAgainstModel", testRandomAgainstModel},
	{"LargeChangeSet", testLargeChangeSet},
	{"SeekGC", testSeekGC},
	{"Reopen", testReopen},
	{"Closed", testClosed},
}

// Run runs the conformance suite over every harness. It fails if hs is
// empty or if no case ran.
func Run(t *testing.T, hs []Harness) {
	t.Helper()
	if len(hs) == 0 {
		t.Fatal("storagetest.Run: no store implementation to check")
	}
	ran := 0
	for _, h := range hs {
		t.Run(h.Name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					s := h.Open(t)
					s = c.run(t, h, s)
					if s != nil {
						if err := s.Close(); err != nil {
							t.Errorf("Close: %v", err)
						}
					}
					ran++
				})
			}
		})
	}
	if ran == 0 {
		t.Fatal("storagetest.Run: no case ran")
	}
}

// Cases returns the names of the conformance cases, in order.
func Cases() []string {
	names := make([]string, len(cases))
	for i, c := range cases {
		names[i] = c.name
	}
	return names
}

func put(t testing.TB, s storage.Store, puts map[string][]byte) {
	t.Helper()
	if err := s.PutChangeSet(puts); err != nil {
		t.Fatalf("PutChangeSet: %v", err)
	}
}

func mustGet(t testing.TB, s storage.Store, k string, want []byte) {
	t.Helper()
	got, err := s.Get([]byte(k))
	if err != nil {
		t.Fatalf("Get(%x): %v", k, err)
	}
	if !bytes.Equal(got, want) || got == nil {
		t.Fatalf("Get(%x) = %x (nil: %v), want %x", k, got, got == nil, want)
	}
}

func mustMiss(t testing.TB, s storage.Store, k string) {
	t.Helper()
	v, err := s.Get([]byte(k))
	if !errors.Is(err, storage.ErrKeyNotFound) {
		t.Fatalf("Get(%x) = %x, %v; want ErrKeyNotFound", k, v, err)
	}
}

// check compares every seek in rngs, and a Get of every key, with m.
func check(t testing.TB, s storage.Store, m Model, rngs ...storage.SeekRange) {
	t.Helper()
	for _, rng := range rngs {
		got, want := Collect(s, rng), m.Seek(rng)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Seek(prefix %x, start %x, back %v):\n got %q\nwant %q",
				rng.Prefix, rng.Start, rng.Backwards, got, want)
		}
	}
	for k, v := range m {
		mustGet(t, s, k, v)
	}
}

func testGetMissing(t *testing.T, _ Harness, s storage.Store) storage.Store {
	mustMiss(t, s, "\x01missing")
	put(t, s, map[string][]byte{"\x01a": []byte("1")})
	mustMiss(t, s, "\x01")
	mustMiss(t, s, "\x01a\x00")
	return s
}

func testPutGetOverwrite(t *testing.T, _ Harness, s storage.Store) storage.Store {
	put(t, s, map[string][]byte{"\x01a": []byte("1"), "\x01b": []byte("2")})
	mustGet(t, s, "\x01a", []byte("1"))
	put(t, s, map[string][]byte{"\x01a": []byte("one")})
	mustGet(t, s, "\x01a", []byte("one"))
	mustGet(t, s, "\x01b", []byte("2"))
	return s
}

func testEmptyValueVsDeleted(t *testing.T, _ Harness, s storage.Store) storage.Store {
	put(t, s, map[string][]byte{"\x01e": {}, "\x01d": []byte("x")})
	mustGet(t, s, "\x01e", []byte{})
	put(t, s, map[string][]byte{"\x01d": nil})
	mustMiss(t, s, "\x01d")
	got := Collect(s, storage.SeekRange{Prefix: []byte{1}})
	if want := []KV{{"\x01e", ""}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Seek = %q, want %q", got, want)
	}
	// An empty value can be deleted, and a deleted key can come back empty.
	put(t, s, map[string][]byte{"\x01e": nil, "\x01d": {}})
	mustMiss(t, s, "\x01e")
	mustGet(t, s, "\x01d", []byte{})
	return s
}

func testDeleteMissing(t *testing.T, _ Harness, s storage.Store) storage.Store {
	put(t, s, map[string][]byte{"\x01a": []byte("1")})
	put(t, s, map[string][]byte{"\x01nope": nil, "\x01b": []byte("2")})
	mustMiss(t, s, "\x01nope")
	check(t, s, Model{"\x01a": []byte("1"), "\x01b": []byte("2")}, storage.SeekRange{})
	return s
}

func testOwnership(t *testing.T, _ Harness, s storage.Store) storage.Store {
	v := []byte("value")
	puts := map[string][]byte{"\x01a": v}
	put(t, s, puts)
	// The store must have copied the value and must not keep the map.
	v[0] = 'X'
	puts["\x01b"] = v
	delete(puts, "\x01a")
	got, err := s.Get([]byte("\x01a"))
	if err != nil || string(got) != "value" {
		t.Fatalf("Get = %q, %v; want the value as written", got, err)
	}
	got[0] = 'Y' // the returned slice belongs to the caller
	mustGet(t, s, "\x01a", []byte("value"))
	mustMiss(t, s, "\x01b")
	return s
}

func testEmptyChangeSet(t *testing.T, _ Harness, s storage.Store) storage.Store {
	put(t, s, map[string][]byte{})
	put(t, s, nil)
	check(t, s, Model{}, storage.SeekRange{})
	return s
}

func testEmptyKey(t *testing.T, _ Harness, s storage.Store) storage.Store {
	err := s.PutChangeSet(map[string][]byte{"": []byte("x"), "\x01a": []byte("1")})
	if !errors.Is(err, storage.ErrEmptyKey) {
		t.Fatalf("PutChangeSet with an empty key: %v, want ErrEmptyKey", err)
	}
	check(t, s, Model{}, storage.SeekRange{})
	return s
}

// boundaryKeys straddle the edges of prefixes 0x01 and 0xff.
var boundaryKeys = []string{
	"\x00", "\x00\xff", "\x00\xff\xff",
	"\x01", "\x01\x00", "\x01\x00\x00", "\x01\x01", "\x01\x7f", "\x01\xfe\xff", "\x01\xff", "\x01\xff\x00", "\x01\xff\xff", "\x01\xff\xff\xff",
	"\x02", "\x02\x00",
	"\xfe\xff", "\xff", "\xff\x00", "\xff\xff", "\xff\xff\x01",
}

func boundaryModel(t testing.TB, s storage.Store) Model {
	m := Model{}
	puts := map[string][]byte{}
	for i, k := range boundaryKeys {
		puts[k] = fmt.Appendf(nil, "v%d", i)
	}
	put(t, s, puts)
	m.Apply(puts)
	return m
}

func testSeekAllSorted(t *testing.T, _ Harness, s storage.Store) storage.Store {
	m := boundaryModel(t, s)
	check(t, s, m, storage.SeekRange{}, storage.SeekRange{Backwards: true})
	return s
}

func testPrefixBoundaries(t *testing.T, _ Harness, s storage.Store) storage.Store {
	m := boundaryModel(t, s)
	var rngs []storage.SeekRange
	for _, p := range []string{"\x00", "\x01", "\x01\x00", "\x01\xff", "\x01\xff\xff", "\x02", "\x03", "\xfe", "\xff", "\xff\xff", "\xff\xff\xff"} {
		for _, back := range []bool{false, true} {
			rngs = append(rngs, storage.SeekRange{Prefix: []byte(p), Backwards: back})
		}
	}
	check(t, s, m, rngs...)
	// The exact expectation for the edge the brief names: prefix 0x01
	// covers 0x01ff.. and stops before 0x02.
	got := Collect(s, storage.SeekRange{Prefix: []byte{0x01}})
	if len(got) != 10 || got[0].Key != "\x01" || got[9].Key != "\x01\xff\xff\xff" {
		t.Fatalf("prefix 0x01 walk = %q", got)
	}
	return s
}

func testStartInsidePrefix(t *testing.T, _ Harness, s storage.Store) storage.Store {
	m := boundaryModel(t, s)
	var rngs []storage.SeekRange
	for _, p := range []string{"", "\x01", "\xff"} {
		for _, st := range []string{"", "\x00", "\x01", "\x7f", "\x80", "\xfe", "\xff", "\xff\x00", "\xff\xff", "\xff\xff\xff\xff"} {
			for _, back := range []bool{false, true} {
				rngs = append(rngs, storage.SeekRange{Prefix: []byte(p), Start: []byte(st), Backwards: back})
			}
		}
	}
	check(t, s, m, rngs...)
	// Backwards from Start includes the subtree under Prefix+Start.
	got := Collect(s, storage.SeekRange{Prefix: []byte{1}, Start: []byte{0xff}, Backwards: true})
	if len(got) == 0 || got[0].Key != "\x01\xff\xff\xff" {
		t.Fatalf("backward walk from 0x01ff starts at %q, want 0x01ffffff", got)
	}
	got = Collect(s, storage.SeekRange{Prefix: []byte{1}, Start: []byte{0xff}})
	if len(got) == 0 || got[0].Key != "\x01\xff" {
		t.Fatalf("forward walk from 0x01ff starts at %q, want 0x01ff", got)
	}
	return s
}

func testEarlyStop(t *testing.T, _ Harness, s storage.Store) storage.Store {
	boundaryModel(t, s)
	for _, back := range []bool{false, true} {
		n := 0
		s.Seek(storage.SeekRange{Prefix: []byte{1}, Backwards: back}, func(k, v []byte) bool {
			n++
			return n < 3
		})
		if n != 3 {
			t.Fatalf("backwards=%v: f called %d times after returning false at 3", back, n)
		}
	}
	return s
}

func testReadInsideSeek(t *testing.T, _ Harness, s storage.Store) storage.Store {
	m := boundaryModel(t, s)
	s.Seek(storage.SeekRange{Prefix: []byte{1}}, func(k, v []byte) bool {
		mustGet(t, s, string(k), m[string(k)])
		mustMiss(t, s, "\x05absent")
		return true
	})
	return s
}

func testSeekIsSnapshot(t *testing.T, h Harness, s storage.Store) storage.Store {
	m := boundaryModel(t, s)
	change := map[string][]byte{
		"\x01\x7f":     []byte("changed"),
		"\x01\xff":     nil,
		"\x01\x80":     []byte("new"),
		"\x01\xff\xff": nil,
		"\x01\x00\x00": []byte("changed"),
	}
	for _, back := range []bool{false, true} {
		rng := storage.SeekRange{Prefix: []byte{1}, Backwards: back}
		want := m.Seek(rng)
		var got []KV
		s.Seek(rng, func(k, v []byte) bool {
			if len(got) == 0 && !h.NoWriteInSeek {
				put(t, s, change) // after the walk began: must not be seen
			}
			got = append(got, KV{string(k), string(v)})
			return true
		})
		if h.NoWriteInSeek {
			put(t, s, change)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("backwards=%v: walk saw writes made after it began:\n got %q\nwant %q", back, got, want)
		}
		m.Apply(change)
		check(t, s, m, rng)
		// Restore for the other direction.
		undo := map[string][]byte{"\x01\x80": nil}
		for _, k := range boundaryKeys {
			if _, ok := change[k]; ok {
				undo[k] = []byte("restored")
			}
		}
		put(t, s, undo)
		m.Apply(undo)
	}
	return s
}

func randKey(r *rand.Rand) string {
	// A small alphabet and short keys make prefixes collide often.
	n := 1 + r.IntN(4)
	b := make([]byte, n)
	for i := range b {
		b[i] = []byte{0x00, 0x01, 0x02, 0x7f, 0xfe, 0xff}[r.IntN(6)]
	}
	return string(b)
}

func testRandomAgainstModel(t *testing.T, _ Harness, s storage.Store) storage.Store {
	r := rand.New(rand.NewPCG(1, 2))
	m := Model{}
	for round := range 30 {
		puts := map[string][]byte{}
		for range 1 + r.IntN(40) {
			k := randKey(r)
			switch r.IntN(4) {
			case 0:
				puts[k] = nil
			case 1:
				puts[k] = []byte{}
			default:
				puts[k] = fmt.Appendf(nil, "%d", r.IntN(1000))
			}
		}
		put(t, s, puts)
		m.Apply(puts)
		var rngs []storage.SeekRange
		for range 8 {
			rng := storage.SeekRange{Backwards: r.IntN(2) == 0}
			if r.IntN(4) != 0 {
				p := randKey(r)
				rng.Prefix = []byte(p[:min(len(p), 1+r.IntN(2))])
			}
			if r.IntN(2) == 0 {
				rng.Start = []byte(randKey(r))
			}
			rngs = append(rngs, rng)
		}
		if round%10 == 9 {
			rngs = append(rngs, storage.SeekRange{}, storage.SeekRange{Backwards: true})
		}
		check(t, s, m, rngs...)
	}
	return s
}

func testLargeChangeSet(t *testing.T, _ Harness, s storage.Store) storage.Store {
	const n = 20000
	puts := make(map[string][]byte, n)
	for i := range n {
		puts[fmt.Sprintf("\x10%08d", i*7919%n)] = fmt.Appendf(nil, "value-%d", i)
	}
	put(t, s, puts)
	count := 0
	prev := ""
	s.Seek(storage.SeekRange{Prefix: []byte{0x10}}, func(k, v []byte) bool {
		if string(k) <= prev {
			t.Fatalf("unsorted: %q after %q", k, prev)
		}
		if !bytes.Equal(v, puts[string(k)]) {
			t.Fatalf("%q = %q, want %q", k, v, puts[string(k)])
		}
		prev = string(k)
		count++
		return true
	})
	if count != n {
		t.Fatalf("Seek found %d keys, want %d", count, n)
	}
	mustGet(t, s, "\x1000012345", puts["\x1000012345"])
	del := make(map[string][]byte, n)
	for k := range puts {
		if k != "\x1000000007" {
			del[k] = nil
		}
	}
	put(t, s, del)
	check(t, s, Model{"\x1000000007": puts["\x1000000007"]}, storage.SeekRange{}, storage.SeekRange{Backwards: true})
	return s
}

func testSeekGC(t *testing.T, _ Harness, s storage.Store) storage.Store {
	m := boundaryModel(t, s)
	for _, back := range []bool{false, true} {
		var visited []string
		dropOdd := func(k, v []byte) bool {
			visited = append(visited, string(k))
			return len(k)%2 == 0
		}
		rng := storage.SeekRange{Prefix: []byte{1}, Start: []byte{0x01}, Backwards: back}
		if err := s.SeekGC(rng, dropOdd); err != nil {
			t.Fatalf("SeekGC: %v", err)
		}
		var want []string
		for _, kv := range m.Seek(rng) {
			want = append(want, kv.Key)
			if len(kv.Key)%2 != 0 {
				delete(m, kv.Key)
			}
		}
		if !reflect.DeepEqual(visited, want) {
			t.Fatalf("SeekGC visited %q, want %q", visited, want)
		}
		check(t, s, m, storage.SeekRange{}, storage.SeekRange{Backwards: true})
	}
	// Keeping everything changes nothing.
	if err := s.SeekGC(storage.SeekRange{}, func(k, v []byte) bool { return true }); err != nil {
		t.Fatalf("SeekGC: %v", err)
	}
	check(t, s, m, storage.SeekRange{})
	return s
}

func testReopen(t *testing.T, h Harness, s storage.Store) storage.Store {
	if h.Reopen == nil {
		t.Skip("not persistent")
	}
	m := boundaryModel(t, s)
	puts := map[string][]byte{"\x01\x01": nil, "\x02": {}, "\x05new": []byte("n")}
	put(t, s, puts)
	m.Apply(puts)
	s = h.Reopen(t, s)
	check(t, s, m, storage.SeekRange{}, storage.SeekRange{Backwards: true})
	mustMiss(t, s, "\x01\x01")
	mustGet(t, s, "\x02", []byte{})
	put(t, s, map[string][]byte{"\x05new": nil})
	s = h.Reopen(t, s)
	mustMiss(t, s, "\x05new")
	return s
}

func testClosed(t *testing.T, _ Harness, s storage.Store) storage.Store {
	put(t, s, map[string][]byte{"\x01a": []byte("1")})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := s.Get([]byte("\x01a")); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("Get after Close: %v, want ErrClosed", err)
	}
	if err := s.PutChangeSet(map[string][]byte{"\x01b": nil}); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("PutChangeSet after Close: %v, want ErrClosed", err)
	}
	s.Seek(storage.SeekRange{}, func(k, v []byte) bool {
		t.Fatalf("Seek after Close yielded %q", k)
		return false
	})
	if err := s.SeekGC(storage.SeekRange{}, func(k, v []byte) bool { return false }); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("SeekGC after Close: %v, want ErrClosed", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	return nil
}

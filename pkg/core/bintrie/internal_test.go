package bintrie

import (
	"crypto/sha256"
	"math/rand/v2"
	"reflect"
	"testing"
)

// hasPointers reports whether values of type t contain Go pointers.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func,
		reflect.Interface, reflect.String, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// The node pools and the value arena must be pointer-free so that the
// runtime puts them in spans the garbage collector does not scan.
func TestPoolsArePointerFree(t *testing.T) {
	for _, v := range []any{internalChunk{}, stemChunk{}, hashedChunk{}, valueChunk{}, nodeRef(0)} {
		if typ := reflect.TypeOf(v); hasPointers(typ) {
			t.Errorf("%s contains pointers", typ)
		}
	}
}

// checkFlags walks the loaded part of the tree and checks the flag
// invariants: recompute implies dirty, and a flag on a node is also on its
// parent. It returns the node's flags.
func checkFlags(t *testing.T, tr *Tree, ref nodeRef, depth int) uint8 {
	t.Helper()
	switch ref.kind() {
	case kindInternal:
		c, i := tr.p.in(ref.index())
		f := c.flags[i]
		if f&flagRecompute != 0 && f&flagDirty == 0 {
			t.Fatalf("internal node at depth %d: recompute without dirty", depth)
		}
		for _, k := range c.kids[i] {
			if kf := checkFlags(t, tr, k, depth+1); kf&^f != 0 {
				t.Fatalf("node at depth %d has flags %b, parent %b", depth+1, kf, f)
			}
		}
		if c.kids[i] == [2]nodeRef{} {
			t.Fatalf("internal node at depth %d has no children", depth)
		}
		return f
	case kindStem:
		c, i := tr.p.st(ref.index())
		f := c.flags[i]
		if f&flagRecompute != 0 && f&flagDirty == 0 {
			t.Fatalf("stem at depth %d: recompute without dirty", depth)
		}
		if bitmapCount(&c.bitmap[i]) == 0 {
			t.Fatalf("stem at depth %d has no values", depth)
		}
		return f
	}
	return 0
}

func TestFlagInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	tr := New(Options{})
	var keys []Key
	for step := range 4000 {
		var k Key
		if len(keys) > 0 && rng.IntN(3) == 0 {
			k = keys[rng.IntN(len(keys))]
			k[31] = byte(rng.Uint32())
		} else {
			k = sha256.Sum256([]byte{byte(step), byte(step >> 8), 1})
		}
		keys = append(keys, k)
		if err := tr.Put(k, Value{byte(step)}); err != nil {
			t.Fatal(err)
		}
		if step < 300 || step%13 == 0 {
			checkFlags(t, tr, tr.root, 0)
		}
		switch rng.IntN(20) {
		case 0:
			tr.Hash()
			if f := checkFlags(t, tr, tr.root, 0); f&flagRecompute != 0 {
				t.Fatal("recompute flag left after Hash")
			}
		case 1:
			tr.Commit()
			if f := checkFlags(t, tr, tr.root, 0); f != 0 {
				t.Fatalf("flags %b left after Commit", f)
			}
		}
	}
}

// sha256Iface is SHA-256 behind the Hasher interface (not the devirtualized
// fast path), to check that the pluggable path gives the same roots.
type sha256Iface struct{}

func (sha256Iface) Hash32(in [32]byte) Hash { return sha256.Sum256(in[:]) }
func (sha256Iface) Hash64(in [64]byte) Hash { return sha256.Sum256(in[:]) }

// doubleSHA is a different H, standing in for the EIP's final choice.
type doubleSHA struct{}

func (doubleSHA) Hash32(in [32]byte) Hash { return sha256.Sum256(sha256.New().Sum(in[:])) }
func (doubleSHA) Hash64(in [64]byte) Hash { return sha256.Sum256(sha256.New().Sum(in[:])) }

func TestPluggableHasher(t *testing.T) {
	build := func(h Hasher) *Tree {
		tr := New(Options{Hasher: h})
		for i := range 500 {
			k := Key(sha256.Sum256([]byte{byte(i), byte(i >> 8)}))
			if err := tr.Put(k, Value{byte(i)}); err != nil {
				t.Fatal(err)
			}
		}
		return tr
	}
	def, iface, other := build(nil), build(sha256Iface{}), build(doubleSHA{})
	if iface.h.isSHA {
		t.Fatal("interface hasher took the SHA-256 fast path")
	}
	if def.Hash() != iface.Hash() {
		t.Fatal("SHA-256 through the interface gives another root")
	}
	if def.Hash() == other.Hash() {
		t.Fatal("another hash function gives the same root")
	}
	addr := Address{1, 2, 3}
	if NewKeys(sha256Iface{}).BasicData(addr) != BasicDataKey(addr) {
		t.Fatal("key derivation differs through the interface")
	}
	if NewKeys(doubleSHA{}).BasicData(addr) == BasicDataKey(addr) {
		t.Fatal("key derivation ignores the hasher")
	}
}

// Hashing must not allocate: the scratch arrays stay on the stack.
func TestHashDoesNotAllocate(t *testing.T) {
	tr := New(Options{})
	var k Key
	for s := range 256 {
		k[31] = byte(s)
		_ = tr.Put(k, Value{byte(s)})
	}
	k2 := Key{0x80}
	_ = tr.Put(k2, Value{1})
	tr.Hash()
	allocs := testing.AllocsPerRun(100, func() {
		k[31]++
		_ = tr.Put(k, Value{k[31], 7})
		_ = tr.Put(k2, Value{k[31], 9})
		tr.Hash()
	})
	if allocs != 0 {
		t.Fatalf("Put+Hash allocated %.1f times", allocs)
	}
}

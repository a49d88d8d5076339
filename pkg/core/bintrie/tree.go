package bintrie

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/storage"
)

// Sizes from EIP-7864 (32-byte-key revision).
const (
	StemSize      = 31           // bytes of a key that select the stem
	KeySize       = 32           // tree key: stem || suffix
	ValueSize     = 32           // every value is 32 bytes
	StemNodeWidth = 256          // value slots per stem
	MaxDepth      = StemSize * 8 // a stem sits at most 248 bits deep
	bitmapSize    = StemNodeWidth / 8
)

// Stem is the first 31 bytes of a key; all keys with one stem share a stem node.
type Stem [StemSize]byte

// Key is a 32-byte tree key: a stem and a one-byte suffix (the slot).
type Key [KeySize]byte

// Stem returns the key's stem.
func (k *Key) Stem() *Stem { return (*Stem)(k[:StemSize]) }

// Suffix returns the key's slot within its stem.
func (k *Key) Suffix() byte { return k[StemSize] }

// Value is a 32-byte leaf value. A present value of 32 zero bytes is not
// the same as an absent slot.
type Value [ValueSize]byte

// Errors callers can branch on.
var (
	// ErrMissingNode: a node the tree needs is not in the store.
	ErrMissingNode = errors.New("bintrie: node missing from store")
	// ErrCorruptNode: a stored node does not decode, or does not hash to
	// the hash its parent records.
	ErrCorruptNode = errors.New("bintrie: corrupt node")
)

// NodeReader is what the tree needs of a store: storage.Store satisfies it.
// Get must return storage.ErrKeyNotFound (possibly wrapped) for a missing key.
type NodeReader interface {
	Get(key []byte) ([]byte, error)
}

// Options configure a tree.
type Options struct {
	// Hasher is H; nil means SHA256.
	Hasher Hasher
	// Prefix is prepended to every storage key the tree reads and writes,
	// so that the tree can share a store with other data.
	Prefix []byte
	// TrustStore skips checking each loaded node against the hash its
	// parent records (go-ethereum's behaviour). Verification costs one hash
	// per internal node and a stem rehash per stem loaded, most of a cold
	// read; skip it only for a store this process wrote itself.
	TrustStore bool
}

// Tree is an EIP-7864 binary tree. It is not safe for concurrent use; Get
// mutates the tree when it loads nodes from the store.
type Tree struct {
	p       pools
	root    nodeRef
	h       hashFn
	reader  NodeReader
	prefix  []byte
	trust   bool
	pending int // values changed since the last Hash
}

// New returns an empty in-memory tree.
func New(opts Options) *Tree {
	return &Tree{h: newHashFn(opts.Hasher), prefix: append([]byte(nil), opts.Prefix...), trust: opts.TrustStore}
}

// Open returns the tree with the given root whose nodes are in r (as written
// by Commit). The root node is loaded eagerly, the rest on demand. A zero
// root opens an empty tree.
func Open(r NodeReader, root Hash, opts Options) (*Tree, error) {
	t := New(opts)
	t.reader = r
	if root.IsZero() {
		return t, nil
	}
	t.root = t.p.newHashed(&root)
	var path Stem
	ref, err := t.resolve(t.root, &path, 0)
	if err != nil {
		return nil, err
	}
	t.root = ref
	return t, nil
}

// Copy returns an independent deep copy sharing only the store.
func (t *Tree) Copy() *Tree {
	return &Tree{
		p:       t.p.copy(),
		root:    t.root,
		h:       t.h,
		reader:  t.reader,
		prefix:  t.prefix,
		trust:   t.trust,
		pending: t.pending,
	}
}

func bitAt(s *Stem, depth int) int {
	return int(s[depth>>3]>>(7-uint(depth&7))) & 1
}

// Get returns the value stored under k and whether the slot is present.
// An error means a node could not be loaded from the store.
func (t *Tree) Get(k Key) (Value, bool, error) {
	stem := k.Stem()
	slot := &t.root
	depth := 0
	for {
		ref := *slot
		switch ref.kind() {
		case kindEmpty:
			return Value{}, false, nil
		case kindInternal:
			if depth >= MaxDepth {
				return Value{}, false, fmt.Errorf("%w: internal node below depth %d", ErrCorruptNode, MaxDepth)
			}
			c, i := t.p.in(ref.index())
			slot = &c.kids[i][bitAt(stem, depth)]
			depth++
		case kindStem:
			c, i := t.p.st(ref.index())
			// A stem node answers only for its own stem.
			if c.stem[i] != *stem {
				return Value{}, false, nil
			}
			bm := &c.bitmap[i]
			s := k.Suffix()
			if !bitmapHas(bm, s) {
				return Value{}, false, nil
			}
			r := bitmapRank(bm, s)
			return Value(t.p.values.block(c.vals[i])[r*ValueSize:]), true, nil
		case kindHashed:
			r, err := t.resolve(ref, stem, depth)
			if err != nil {
				return Value{}, false, err
			}
			*slot = r
		}
	}
}

// Put stores v under k, creating the slot (and its stem) if needed.
// Writing the value a slot already holds changes nothing. An error means a
// node could not be loaded from the store; the tree is then unchanged.
func (t *Tree) Put(k Key, v Value) error {
	stem := k.Stem()
	var path [MaxDepth]uint32 // internal nodes from the root down
	np := 0
	slot := &t.root
	depth := 0
	for {
		ref := *slot
		switch ref.kind() {
		case kindInternal:
			if depth >= MaxDepth {
				return fmt.Errorf("%w: internal node below depth %d", ErrCorruptNode, MaxDepth)
			}
			c, i := t.p.in(ref.index())
			path[np] = ref.index()
			np++
			slot = &c.kids[i][bitAt(stem, depth)]
			depth++
		case kindEmpty:
			idx := t.p.newStem(stem)
			t.setValue(idx, k.Suffix(), &v)
			*slot = makeRef(kindStem, idx)
			t.markPath(path[:np])
			return nil
		case kindStem:
			idx := ref.index()
			c, i := t.p.st(idx)
			if c.stem[i] == *stem {
				if t.setValue(idx, k.Suffix(), &v) {
					t.markPath(path[:np])
				}
				return nil
			}
			*slot = t.split(ref, stem, depth, k.Suffix(), &v)
			t.markPath(path[:np])
			return nil
		case kindHashed:
			r, err := t.resolve(ref, stem, depth)
			if err != nil {
				return err
			}
			*slot = r
		}
	}
}

// Delete writes a zero value under k. This is go-ethereum's delete: the
// slot stays present (and hashes as H(0^32)); deleting a key that was never
// written creates it.
func (t *Tree) Delete(k Key) error {
	return t.Put(k, Value{})
}

// markPath flags the internal nodes on a root-to-node path as needing a
// new hash and a new blob. It stops early at a node already flagged both
// ways: by the flag invariants, its ancestors are flagged too.
func (t *Tree) markPath(path []uint32) {
	for j := len(path) - 1; j >= 0; j-- {
		c, i := t.p.in(path[j])
		if c.flags[i] == flagBoth {
			return
		}
		c.flags[i] = flagBoth
	}
}

// setValue writes v into slot s of stem idx and reports whether anything
// changed. It marks the stem stale (hash and blob) itself, so no caller can
// forget to.
func (t *Tree) setValue(idx uint32, s byte, v *Value) bool {
	c, i := t.p.st(idx)
	bm := &c.bitmap[i]
	r := bitmapRank(bm, s) * ValueSize
	a := &t.p.values
	if bitmapHas(bm, s) {
		dst := a.block(c.vals[i])[r : r+ValueSize]
		if Value(dst) == *v {
			return false
		}
		copy(dst, v[:])
	} else {
		n := bitmapCount(bm) * ValueSize
		h := c.vals[i]
		switch {
		case h == noBlock:
			h = a.alloc(0)
			copy(a.block(h), v[:])
			c.vals[i] = h
		case n < len(a.block(h)):
			b := a.block(h)
			copy(b[r+ValueSize:n+ValueSize], b[r:n])
			copy(b[r:], v[:])
		default:
			nh := a.alloc(blockClass(h) + 1)
			nb, ob := a.block(nh), a.block(h)
			copy(nb, ob[:r])
			copy(nb[r:], v[:])
			copy(nb[r+ValueSize:], ob[r:n])
			a.release(h)
			c.vals[i] = nh
		}
		bitmapSet(bm, s)
	}
	c.flags[i] |= flagBoth
	t.pending++
	return true
}

// split replaces the stem node ref met at depth by the chain of internal
// nodes that separates it from the new stem, puts v at slot s of a new stem
// node, and returns the chain's head.
func (t *Tree) split(ref nodeRef, stem *Stem, depth int, s byte, v *Value) nodeRef {
	oc, oi := t.p.st(ref.index())
	old := &oc.stem[oi]
	p := firstDiffBit(old, stem)
	// The old stem keeps its hash but moves deeper: its blob must be
	// rewritten at the new path.
	oc.flags[oi] |= flagDirty

	nidx := t.p.newStem(stem)
	t.setValue(nidx, s, v)

	bottom := t.p.newInternal()
	c, i := t.p.in(bottom)
	c.kids[i][bitAt(old, p)] = ref
	c.kids[i][bitAt(stem, p)] = makeRef(kindStem, nidx)
	c.flags[i] = flagBoth
	head := makeRef(kindInternal, bottom)
	for d := p - 1; d >= depth; d-- {
		idx := t.p.newInternal()
		c, i := t.p.in(idx)
		c.kids[i][bitAt(stem, d)] = head
		c.flags[i] = flagBoth
		head = makeRef(kindInternal, idx)
	}
	return head
}

// firstDiffBit returns the index of the first bit where a and b differ
// (MaxDepth if equal).
func firstDiffBit(a, b *Stem) int {
	for j := range StemSize {
		if x := a[j] ^ b[j]; x != 0 {
			return j*8 + leadingZeros8(x)
		}
	}
	return MaxDepth
}

func leadingZeros8(x byte) int {
	n := 0
	for x&0x80 == 0 {
		x <<= 1
		n++
	}
	return n
}

// samePrefix reports whether a and b agree on their first n bits.
func samePrefix(a, b *Stem, n int) bool {
	return firstDiffBit(a, b) >= n
}

// resolve loads the node that hashed ref stands for. The node sits at
// depth on the path given by the leading bits of stem.
func (t *Tree) resolve(ref nodeRef, stem *Stem, depth int) (nodeRef, error) {
	hidx := ref.index()
	want := *t.p.hashedHash(hidx)
	if t.reader == nil {
		return ref, fmt.Errorf("%w: tree has no store", ErrMissingNode)
	}
	var kb [64]byte
	key := appendNodeKey(kb[:0], t.prefix, stem, depth)
	blob, err := t.reader.Get(key)
	if err != nil {
		if errors.Is(err, storage.ErrKeyNotFound) {
			return ref, fmt.Errorf("%w: path %x depth %d", ErrMissingNode, key[len(t.prefix):], depth)
		}
		return ref, fmt.Errorf("bintrie: load node at depth %d: %w", depth, err)
	}
	n, err := DecodeNode(blob)
	if err != nil {
		return ref, fmt.Errorf("%w: depth %d: %w", ErrCorruptNode, depth, err)
	}
	var out nodeRef
	switch n.Kind {
	case NodeInternal:
		if depth >= MaxDepth {
			return ref, fmt.Errorf("%w: internal node at depth %d", ErrCorruptNode, depth)
		}
		if !t.trust {
			if got := t.h.pair(&n.Children[0], &n.Children[1]); got != want {
				return ref, fmt.Errorf("%w: internal node at depth %d hashes to %x, want %x", ErrCorruptNode, depth, got, want)
			}
		}
		idx := t.p.newInternal()
		c, i := t.p.in(idx)
		for b := range 2 {
			if n.Present[b] {
				c.kids[i][b] = t.p.newHashed(&n.Children[b])
			}
		}
		c.hash[i] = want
		out = makeRef(kindInternal, idx)
	case NodeStem:
		if !samePrefix(&n.Stem, stem, depth) {
			return ref, fmt.Errorf("%w: stem %x stored off its path at depth %d", ErrCorruptNode, n.Stem, depth)
		}
		if !t.trust {
			if got := t.h.stemHash(&n.Stem, &n.bitmap, n.Values); got != want {
				return ref, fmt.Errorf("%w: stem %x hashes to %x, want %x", ErrCorruptNode, n.Stem, got, want)
			}
		}
		idx := t.p.newStem(&n.Stem)
		c, i := t.p.st(idx)
		c.bitmap[i] = n.bitmap
		h := t.p.values.alloc(classFor(len(n.Values) / ValueSize))
		copy(t.p.values.block(h), n.Values)
		c.vals[i] = h
		c.hash[i] = want
		out = makeRef(kindStem, idx)
	}
	t.p.freeHashedNode(hidx)
	return out, nil
}

// Stats describes the tree's memory.
type Stats struct {
	InternalNodes int // internal nodes in memory
	StemNodes     int // stem nodes in memory
	HashedNodes   int // unloaded nodes known by hash
	Values        int // present value slots in memory
	ArenaBytes    int // bytes held by the node pools and the value arena
}

// Stats returns counts of the nodes and values held in memory.
func (t *Tree) Stats() Stats {
	s := Stats{
		InternalNodes: int(t.p.nInternal),
		StemNodes:     int(t.p.nStems),
		HashedNodes:   int(t.p.nHashed) - len(t.p.freeHashed),
	}
	for idx := range t.p.nStems {
		c, i := t.p.st(idx)
		s.Values += bitmapCount(&c.bitmap[i])
	}
	s.ArenaBytes = len(t.p.internal)*sizeofInternalChunk +
		len(t.p.stems)*sizeofStemChunk + len(t.p.hashed)*sizeofHashedChunk
	for k := range t.p.values.classes {
		s.ArenaBytes += len(t.p.values.classes[k].chunks) * valueChunkBytes
	}
	return s
}

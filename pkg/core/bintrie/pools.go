package bintrie

import (
	"math/bits"
	"unsafe"
)

// Node flags. Invariants: an ancestor of a node with flagRecompute has
// flagRecompute, and an ancestor of a node with flagDirty has flagDirty;
// flagRecompute implies flagDirty. Nodes loaded from storage carry neither.
const (
	flagRecompute uint8 = 1 << iota // the cached hash is stale
	flagDirty                       // the stored blob is stale (or absent)
	flagBoth      = flagRecompute | flagDirty
)

// Pool chunks hold poolChunkSize nodes in parallel arrays. None of the chunk
// types contains a Go pointer, so the runtime allocates them in noscan spans.
const (
	poolChunkShift = 10
	poolChunkSize  = 1 << poolChunkShift
	poolChunkMask  = poolChunkSize - 1
	maxPoolIndex   = refIndexMask // nodeRef index limit
)

// internalChunk stores internal nodes. The topology (kids) is kept apart
// from the hashes so that a descent touches 8 bytes per level.
type internalChunk struct {
	kids  [poolChunkSize][2]nodeRef
	flags [poolChunkSize]uint8
	hash  [poolChunkSize]Hash
}

// stemChunk stores stem nodes. bitmap word w bit 63-b marks slot 64w+b as
// present (MSB-first, as serialized); vals is the handle of the value block
// holding the present values packed in slot order.
type stemChunk struct {
	stem   [poolChunkSize]Stem
	bitmap [poolChunkSize][4]uint64
	vals   [poolChunkSize]uint32
	flags  [poolChunkSize]uint8
	hash   [poolChunkSize]Hash
}

type hashedChunk [poolChunkSize]Hash

// pools is the tree's node arena.
type pools struct {
	internal   []*internalChunk
	nInternal  uint32
	stems      []*stemChunk
	nStems     uint32
	hashed     []*hashedChunk
	nHashed    uint32
	freeHashed []uint32
	values     valueArena
}

func (p *pools) newInternal() uint32 {
	idx := p.nInternal
	if idx > maxPoolIndex {
		panic("bintrie: internal node pool overflow")
	}
	if int(idx>>poolChunkShift) == len(p.internal) {
		p.internal = append(p.internal, new(internalChunk))
	}
	p.nInternal++
	c := p.internal[idx>>poolChunkShift]
	i := idx & poolChunkMask
	c.kids[i] = [2]nodeRef{}
	c.flags[i] = 0
	return idx
}

// in returns the chunk and in-chunk position of internal node idx.
func (p *pools) in(idx uint32) (*internalChunk, uint32) {
	return p.internal[idx>>poolChunkShift], idx & poolChunkMask
}

func (p *pools) newStem(stem *Stem) uint32 {
	idx := p.nStems
	if idx > maxPoolIndex {
		panic("bintrie: stem node pool overflow")
	}
	if int(idx>>poolChunkShift) == len(p.stems) {
		p.stems = append(p.stems, new(stemChunk))
	}
	p.nStems++
	c := p.stems[idx>>poolChunkShift]
	i := idx & poolChunkMask
	c.stem[i] = *stem
	c.bitmap[i] = [4]uint64{}
	c.vals[i] = noBlock
	c.flags[i] = 0
	return idx
}

func (p *pools) st(idx uint32) (*stemChunk, uint32) {
	return p.stems[idx>>poolChunkShift], idx & poolChunkMask
}

func (p *pools) newHashed(h *Hash) nodeRef {
	var idx uint32
	if n := len(p.freeHashed); n > 0 {
		idx = p.freeHashed[n-1]
		p.freeHashed = p.freeHashed[:n-1]
	} else {
		idx = p.nHashed
		if idx > maxPoolIndex {
			panic("bintrie: hashed node pool overflow")
		}
		if int(idx>>poolChunkShift) == len(p.hashed) {
			p.hashed = append(p.hashed, new(hashedChunk))
		}
		p.nHashed++
	}
	p.hashed[idx>>poolChunkShift][idx&poolChunkMask] = *h
	return makeRef(kindHashed, idx)
}

func (p *pools) hashedHash(idx uint32) *Hash {
	return &p.hashed[idx>>poolChunkShift][idx&poolChunkMask]
}

func (p *pools) freeHashedNode(idx uint32) {
	p.freeHashed = append(p.freeHashed, idx)
}

// copy returns a deep copy.
func (p *pools) copy() pools {
	q := pools{
		nInternal:  p.nInternal,
		nStems:     p.nStems,
		nHashed:    p.nHashed,
		freeHashed: append([]uint32(nil), p.freeHashed...),
		values:     p.values.copy(),
	}
	q.internal = make([]*internalChunk, len(p.internal))
	for i, c := range p.internal {
		n := *c
		q.internal[i] = &n
	}
	q.stems = make([]*stemChunk, len(p.stems))
	for i, c := range p.stems {
		n := *c
		q.stems[i] = &n
	}
	q.hashed = make([]*hashedChunk, len(p.hashed))
	for i, c := range p.hashed {
		n := *c
		q.hashed[i] = &n
	}
	return q
}

// Value blocks. A stem's present values are packed, in slot order, into one
// block of 2^class 32-byte slots taken from a pointer-free arena. A block
// handle is class<<28 | index. Blocks grow by doubling as slots fill; freed
// blocks go to a per-class free list.
const (
	valueClasses     = 9 // 1, 2, 4, ..., 256 values
	valueChunkBytes  = 16 << 10
	blockClassShift  = 28
	blockIndexMask   = 1<<blockClassShift - 1
	noBlock          = ^uint32(0)
	maxBlocksInClass = blockIndexMask
)

type valueChunk [valueChunkBytes]byte

type valueClass struct {
	chunks []*valueChunk
	n      uint32
	free   []uint32
}

type valueArena struct {
	classes [valueClasses]valueClass
}

// classFor returns the smallest class whose blocks hold n values (n >= 1).
func classFor(n int) uint32 {
	return uint32(bits.Len(uint(n - 1)))
}

func (a *valueArena) alloc(class uint32) uint32 {
	c := &a.classes[class]
	if n := len(c.free); n > 0 {
		idx := c.free[n-1]
		c.free = c.free[:n-1]
		return class<<blockClassShift | idx
	}
	idx := c.n
	if idx > maxBlocksInClass {
		panic("bintrie: value arena overflow")
	}
	perChunk := uint32(valueChunkBytes >> (5 + class))
	if idx/perChunk == uint32(len(c.chunks)) {
		c.chunks = append(c.chunks, new(valueChunk))
	}
	c.n++
	return class<<blockClassShift | idx
}

// block returns the bytes of block h (32 << class bytes).
func (a *valueArena) block(h uint32) []byte {
	class := h >> blockClassShift
	idx := h & blockIndexMask
	shift := 5 + class
	perChunkShift := 14 - shift // log2(valueChunkBytes) - shift
	chunk := a.classes[class].chunks[idx>>perChunkShift]
	off := (idx & (1<<perChunkShift - 1)) << shift
	return chunk[off : off+1<<shift : off+1<<shift]
}

func (a *valueArena) release(h uint32) {
	class := h >> blockClassShift
	a.classes[class].free = append(a.classes[class].free, h&blockIndexMask)
}

func blockClass(h uint32) uint32 { return h >> blockClassShift }

func (a *valueArena) copy() valueArena {
	var b valueArena
	for k := range a.classes {
		src := &a.classes[k]
		dst := &b.classes[k]
		dst.n = src.n
		dst.free = append([]uint32(nil), src.free...)
		dst.chunks = make([]*valueChunk, len(src.chunks))
		for i, c := range src.chunks {
			n := *c
			dst.chunks[i] = &n
		}
	}
	return b
}

// Bitmap helpers (MSB-first within 64-bit words).

func bitmapHas(bm *[4]uint64, s byte) bool {
	return bm[s>>6]>>(63-(s&63))&1 != 0
}

func bitmapSet(bm *[4]uint64, s byte) {
	bm[s>>6] |= 1 << (63 - (s & 63))
}

// bitmapRank returns the number of present slots below s.
func bitmapRank(bm *[4]uint64, s byte) int {
	w := int(s >> 6)
	r := 0
	for i := range w {
		r += bits.OnesCount64(bm[i])
	}
	// Slots 64w .. s-1 are the top (s&63) bits of the word.
	return r + bits.OnesCount64(bm[w]>>(64-uint(s&63)))
}

func bitmapCount(bm *[4]uint64) int {
	return bits.OnesCount64(bm[0]) + bits.OnesCount64(bm[1]) +
		bits.OnesCount64(bm[2]) + bits.OnesCount64(bm[3])
}

var (
	sizeofInternalChunk = int(unsafe.Sizeof(internalChunk{}))
	sizeofStemChunk     = int(unsafe.Sizeof(stemChunk{}))
	sizeofHashedChunk   = int(unsafe.Sizeof(hashedChunk{}))
)

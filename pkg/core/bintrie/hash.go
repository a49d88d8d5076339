package bintrie

import (
	"math/bits"
	"runtime"
	"sync"
)

// parallelThreshold is the number of changed values since the last Hash
// above which Hash splits the top of the tree across goroutines.
const parallelThreshold = 2048

// Hash returns the root hash, recomputing only nodes whose hash is stale.
// The empty tree's root is 32 zero bytes.
func (t *Tree) Hash() Hash {
	par := 0
	if t.pending >= parallelThreshold {
		par = min(bits.Len(uint(runtime.GOMAXPROCS(0)))-1, 4)
	}
	t.pending = 0
	return t.hashRef(t.root, par)
}

// stale reports whether ref's hash must be recomputed.
func (t *Tree) stale(ref nodeRef) bool {
	switch ref.kind() {
	case kindInternal:
		c, i := t.p.in(ref.index())
		return c.flags[i]&flagRecompute != 0
	case kindStem:
		c, i := t.p.st(ref.index())
		return c.flags[i]&flagRecompute != 0
	}
	return false
}

// hashRef returns ref's hash, recomputing it if stale. par > 0 allows
// hashing the two children of a stale internal node in parallel, par
// levels deep. Concurrent calls touch disjoint nodes only.
func (t *Tree) hashRef(ref nodeRef, par int) Hash {
	switch ref.kind() {
	case kindInternal:
		c, i := t.p.in(ref.index())
		if c.flags[i]&flagRecompute == 0 {
			return c.hash[i]
		}
		kids := c.kids[i]
		var l, r Hash
		if par > 0 && t.stale(kids[0]) && t.stale(kids[1]) {
			l, r = t.hashPair(kids, par-1)
		} else {
			l = t.hashRef(kids[0], par)
			r = t.hashRef(kids[1], par)
		}
		h := t.h.pair(&l, &r)
		c.hash[i] = h
		c.flags[i] &^= flagRecompute
		return h
	case kindStem:
		c, i := t.p.st(ref.index())
		if c.flags[i]&flagRecompute == 0 {
			return c.hash[i]
		}
		h := t.h.stemHash(&c.stem[i], &c.bitmap[i], t.stemValues(c, i))
		c.hash[i] = h
		c.flags[i] &^= flagRecompute
		return h
	case kindHashed:
		return *t.p.hashedHash(ref.index())
	}
	return Hash{}
}

// hashPair hashes two subtrees concurrently (kept out of hashRef so that
// the closure's captures do not move hashRef's locals to the heap).
func (t *Tree) hashPair(kids [2]nodeRef, par int) (l, r Hash) {
	var wg sync.WaitGroup
	wg.Go(func() { l = t.hashRef(kids[0], par) })
	r = t.hashRef(kids[1], par)
	wg.Wait()
	return l, r
}

// stemValues returns the packed present values of a stem.
func (t *Tree) stemValues(c *stemChunk, i uint32) []byte {
	h := c.vals[i]
	if h == noBlock {
		return nil
	}
	return t.p.values.block(h)[:bitmapCount(&c.bitmap[i])*ValueSize]
}

// stemHash computes a stem node's hash: the 8-level Merkle tree over the 256
// slot hashes (H(value) for a present slot, zero for an absent one, and
// hash(0^64) = 0), then H(stem || 0x00 || subtree root). It works on the
// present slots only, so a stem with n values costs n leaf hashes plus one
// hash per non-empty inner node. The scratch arrays stay on the stack; a
// small variant avoids zeroing 8 KB for the common sparse stem.
func (f hashFn) stemHash(stem *Stem, bm *[4]uint64, vals []byte) Hash {
	const small = 16
	if bitmapCount(bm) <= small {
		var hs [small]Hash
		var ix [small]uint8
		return f.stemHashInto(hs[:], ix[:], stem, bm, vals)
	}
	var hs [StemNodeWidth]Hash
	var ix [StemNodeWidth]uint8
	return f.stemHashInto(hs[:], ix[:], stem, bm, vals)
}

// stemHashInto is stemHash with caller-provided scratch space for at least
// as many entries as the stem has values.
func (f hashFn) stemHashInto(hs []Hash, ix []uint8, stem *Stem, bm *[4]uint64, vals []byte) Hash {
	n := 0
	for w := range 4 {
		word := bm[w]
		for word != 0 {
			b := bits.LeadingZeros64(word)
			word &^= 1 << (63 - uint(b))
			ix[n] = uint8(w*64 + b)
			hs[n] = f.sum32((*[32]byte)(vals[n*ValueSize:]))
			n++
		}
	}
	var buf [64]byte
	for range 8 {
		m := 0
		for j := 0; j < n; {
			s := ix[j]
			if s&1 == 0 {
				copy(buf[:32], hs[j][:])
				if j+1 < n && ix[j+1] == s|1 {
					copy(buf[32:], hs[j+1][:])
					j += 2
				} else {
					clear(buf[32:])
					j++
				}
			} else {
				clear(buf[:32])
				copy(buf[32:], hs[j][:])
				j++
			}
			hs[m] = f.sum64(&buf)
			ix[m] = s >> 1
			m++
		}
		n = m
	}
	copy(buf[:StemSize], stem[:])
	buf[StemSize] = 0
	if n == 0 {
		clear(buf[32:])
	} else {
		copy(buf[32:], hs[0][:])
	}
	return f.sum64(&buf)
}

package bintrie

import "unsafe"

// Commit hashes the tree and returns the root and the blobs of every node
// whose stored form is stale, keyed by storage key, ready for one
// storage.Store.PutChangeSet. Only root-to-node paths of changed nodes are
// written; a Commit with nothing changed returns a nil map. Afterwards the
// tree treats its nodes as stored.
//
// The returned map and its slices belong to the caller. All keys share one
// allocation and all blobs another.
func (t *Tree) Commit() (Hash, map[string][]byte) {
	root := t.Hash()
	if !t.dirty(t.root) {
		return root, nil
	}
	var cnt commitSize
	t.sizeDirty(t.root, 0, &cnt)
	e := emitter{
		t:     t,
		keys:  make([]byte, 0, cnt.keys),
		blobs: make([]byte, 0, cnt.blobs),
		out:   make(map[string][]byte, cnt.nodes),
	}
	var path Stem
	e.emit(t.root, &path, 0)
	return root, e.out
}

func (t *Tree) dirty(ref nodeRef) bool {
	switch ref.kind() {
	case kindInternal:
		c, i := t.p.in(ref.index())
		return c.flags[i]&flagDirty != 0
	case kindStem:
		c, i := t.p.st(ref.index())
		return c.flags[i]&flagDirty != 0
	}
	return false
}

type commitSize struct {
	nodes, keys, blobs int
}

func (t *Tree) sizeDirty(ref nodeRef, depth int, cnt *commitSize) {
	switch ref.kind() {
	case kindInternal:
		c, i := t.p.in(ref.index())
		if c.flags[i]&flagDirty == 0 {
			return
		}
		kids := c.kids[i]
		cnt.nodes++
		cnt.keys += nodeKeySize(t.prefix, depth)
		cnt.blobs += internalBlobSize(childMask(kids))
		t.sizeDirty(kids[0], depth+1, cnt)
		t.sizeDirty(kids[1], depth+1, cnt)
	case kindStem:
		c, i := t.p.st(ref.index())
		if c.flags[i]&flagDirty == 0 {
			return
		}
		cnt.nodes++
		cnt.keys += nodeKeySize(t.prefix, depth)
		cnt.blobs += stemHeaderSize + bitmapCount(&c.bitmap[i])*ValueSize
	}
}

func childMask(kids [2]nodeRef) byte {
	var m byte
	if kids[0] != emptyRef {
		m |= 1
	}
	if kids[1] != emptyRef {
		m |= 2
	}
	return m
}

// emitter writes blobs into two preallocated buffers; since they never
// grow, the map keys can be strings over the key buffer.
type emitter struct {
	t     *Tree
	keys  []byte
	blobs []byte
	out   map[string][]byte
}

func (e *emitter) put(path *Stem, depth int, blobStart int) {
	ks := len(e.keys)
	e.keys = appendNodeKey(e.keys, e.t.prefix, path, depth)
	key := unsafe.String(&e.keys[ks], len(e.keys)-ks)
	e.out[key] = e.blobs[blobStart:len(e.blobs):len(e.blobs)]
}

// childHash returns the (already computed) hash of a child.
func (t *Tree) childHash(ref nodeRef) Hash {
	switch ref.kind() {
	case kindInternal:
		c, i := t.p.in(ref.index())
		return c.hash[i]
	case kindStem:
		c, i := t.p.st(ref.index())
		return c.hash[i]
	case kindHashed:
		return *t.p.hashedHash(ref.index())
	}
	return Hash{}
}

// emit writes the dirty nodes under ref. path holds the first depth bits
// of ref's position; bits past depth are zero on entry and on return.
func (e *emitter) emit(ref nodeRef, path *Stem, depth int) {
	t := e.t
	switch ref.kind() {
	case kindInternal:
		c, i := t.p.in(ref.index())
		if c.flags[i]&flagDirty == 0 {
			return
		}
		c.flags[i] &^= flagDirty
		kids := c.kids[i]
		l, r := t.childHash(kids[0]), t.childHash(kids[1])
		start := len(e.blobs)
		e.blobs = appendInternal(e.blobs, childMask(kids), &l, &r)
		e.put(path, depth, start)
		e.emit(kids[0], path, depth+1)
		bit := byte(0x80) >> (depth & 7)
		path[depth>>3] |= bit
		e.emit(kids[1], path, depth+1)
		path[depth>>3] &^= bit
	case kindStem:
		c, i := t.p.st(ref.index())
		if c.flags[i]&flagDirty == 0 {
			return
		}
		c.flags[i] &^= flagDirty
		start := len(e.blobs)
		e.blobs = appendStem(e.blobs, &c.stem[i], &c.bitmap[i], t.stemValues(c, i))
		e.put(path, depth, start)
	}
}

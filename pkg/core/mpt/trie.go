package mpt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Mode is the storage mode of a trie; it decides what a flush writes. The
// values and the stored formats are neo-go's (mpt.TrieMode).
type Mode byte

// Storage modes.
const (
	// ModeAll keeps every node ever flushed (archival): the value is the
	// node encoding, nothing is ever deleted.
	ModeAll Mode = 0
	// ModeLatest keeps only nodes reachable from the latest flushed root:
	// each stored value carries a reference count and a node is deleted
	// when its count drops to zero.
	ModeLatest Mode = 0x01
	// ModeGCFlag is the garbage-collection bit of a mode.
	ModeGCFlag Mode = 0x02
	// ModeGC counts references like ModeLatest, but a node whose count
	// drops to zero is kept, marked inactive with the height of the flush,
	// for CollectGarbage to remove later.
	ModeGC Mode = ModeLatest | ModeGCFlag
)

// RC reports whether the mode stores reference counts.
func (m Mode) RC() bool { return m&ModeLatest != 0 }

// GC reports whether the mode marks dead nodes instead of deleting them.
func (m Mode) GC() bool { return m&ModeGCFlag != 0 }

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case ModeAll:
		return "all"
	case ModeLatest:
		return "latest"
	case ModeGC:
		return "gc"
	default:
		return fmt.Sprintf("Mode(%#x)", byte(m))
	}
}

// NodePrefix is the store key prefix of trie nodes: a node is stored under
// NodePrefix followed by its hash (storage.DataMPT, as in neo-go). C# keeps
// its own store with prefix 0xf0 and a var-int reference count.
const NodePrefix = byte(storage.DataMPT)

// refSuffixLen is the length of the reference-count suffix in RC modes: a
// flag byte (1 = active, 0 = dead in GC mode) and a little-endian uint32
// (the reference count if active, the height it died at if dead).
const refSuffixLen = 5

// Errors returned (wrapped) by trie operations.
var (
	// ErrNotFound means the key is not in the trie.
	ErrNotFound = errors.New("key not found in trie")
	// ErrMissingNode means a node needed for the operation is not in the
	// store (a trie opened at a root whose nodes are gone, or a proof that
	// lacks a node).
	ErrMissingNode = errors.New("MPT node missing from store")
	// ErrInvalidKey means a key is empty or longer than MaxKeyLength.
	ErrInvalidKey = errors.New("invalid trie key")
	// ErrValueTooLong means a value is longer than MaxValueLength.
	ErrValueTooLong = errors.New("trie value too long")
	// ErrNilValue is returned by Put for a nil value; use Delete to remove
	// a key and an empty non-nil slice to store an empty value.
	ErrNilValue = errors.New("nil trie value")
	// ErrCorruptStore means a stored node or reference count is not what
	// the trie wrote (a count would go negative, a stored value is too
	// short to hold its count suffix, a node the trie releases is not
	// stored).
	ErrCorruptStore = errors.New("corrupt MPT node store")
)

// NodeKey returns the store key of the node with hash h.
func NodeKey(h hash.Uint256) []byte {
	k := make([]byte, 1+hash.Uint256Size)
	k[0] = NodePrefix
	copy(k[1:], h[:])
	return k
}

// Trie is a Merkle Patricia Trie over a Store. Changes (Put, Delete,
// PutBatch) are applied in memory; StateRoot computes the hashes of changed
// nodes, and Flush writes the nodes that became reachable (and, in RC
// modes, the reference count changes) to the store.
//
// A Trie is not safe for concurrent use; reads (Get, GetProof) load nodes
// into memory and so are writes too. It must be the only writer of trie
// nodes in its store (it reuses reference counts it read since the last
// flush).
type Trie struct {
	store storage.Store
	mode  Mode
	root  *Node

	// Reference changes since the last flush: nodes hashed by commit (each
	// gains a reference) and stored nodes released (each loses one). A
	// hash may appear several times in each.
	cm       committer
	released []hash.Uint256
	// changes counts the changes applied since the last commit, to decide
	// whether hashing is worth spreading over several goroutines.
	changes int
	// known holds, in RC modes, the stored value of nodes loaded since the
	// last flush (the store does not change in between), saving a read
	// when they are released.
	known map[hash.Uint256][]byte
	// collapsed is the depth of the last Collapse (-1: none yet).
	collapsed int
}

// committer hashes dirty nodes, keeping their encodings.
type committer struct {
	arena   arena
	created []createdNode // nodes hashed (each gains a reference)
}

type createdNode struct {
	h   hash.Uint256
	enc []byte
}

// pendingRef is the net reference change of one hash.
type pendingRef struct {
	delta int32
	enc   []byte // node encoding; nil if the node was only released
}

// NewTrie returns a trie whose root is the node with hash root in store;
// the zero hash opens an empty trie. Nothing is read until needed.
func NewTrie(root hash.Uint256, mode Mode, store storage.Store) *Trie {
	t := &Trie{
		store:     store,
		mode:      mode,
		collapsed: -1,
	}
	if !root.IsZero() {
		t.root = newHash(root)
	}
	return t
}

// Mode returns the trie's storage mode.
func (t *Trie) Mode() Mode { return t.mode }

// checkKey validates a trie key (C#: Trie.Put/TryGetValue argument checks).
func checkKey(key []byte) error {
	if len(key) == 0 {
		return fmt.Errorf("%w: empty key", ErrInvalidKey)
	}
	if len(key) > MaxKeyLength {
		return fmt.Errorf("%w: %d bytes, max %d", ErrInvalidKey, len(key), MaxKeyLength)
	}
	return nil
}

// toNibbles appends the nibbles of key (high, low per byte) to dst.
func toNibbles(dst, key []byte) []byte {
	for _, b := range key {
		dst = append(dst, b>>4, b&0x0f)
	}
	return dst
}

// fromNibbles appends the bytes of an even-length nibble path to dst.
func fromNibbles(dst, path []byte) []byte {
	for i := 0; i+1 < len(path); i += 2 {
		dst = append(dst, path[i]<<4|path[i+1])
	}
	return dst
}

// resolve loads the node with hash h from the store.
func (t *Trie) resolve(h hash.Uint256) (*Node, error) {
	n, _, err := t.resolveData(h)
	return n, err
}

// resolveData is resolve also returning the stored value (which the node
// aliases and the caller must not modify).
func (t *Trie) resolveData(h hash.Uint256) (*Node, []byte, error) {
	n, data, err := loadNodeData(t.store, t.mode, h)
	if err != nil {
		return nil, nil, err
	}
	n.flags |= flagVisited
	if t.mode.RC() {
		if t.known == nil {
			t.known = make(map[hash.Uint256][]byte)
		}
		t.known[h] = data
	}
	return n, data, nil
}

// loadNode reads and decodes the node with hash h. In GC mode a dead node
// counts as missing.
func loadNode(store storage.Store, mode Mode, h hash.Uint256) (*Node, error) {
	n, _, err := loadNodeData(store, mode, h)
	return n, err
}

// loadNodeData is loadNode also returning the stored value (which the node
// aliases).
func loadNodeData(store storage.Store, mode Mode, h hash.Uint256) (*Node, []byte, error) {
	var key [1 + hash.Uint256Size]byte
	key[0] = NodePrefix
	copy(key[1:], h[:])
	data, err := store.Get(key[:])
	if err != nil {
		if errors.Is(err, storage.ErrKeyNotFound) {
			return nil, nil, fmt.Errorf("%w: %s", ErrMissingNode, h)
		}
		return nil, nil, fmt.Errorf("reading MPT node %s: %w", h, err)
	}
	enc, err := stripRef(data, mode, h)
	if err != nil {
		return nil, nil, err
	}
	// data is our own copy (Store.Get returns one), so the node may alias it.
	n, err := decodeNode(enc, false)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: node %s: %w", ErrCorruptStore, h, err)
	}
	if n == nil || n.typ == HashT {
		return nil, nil, fmt.Errorf("%w: node %s is stored as %s", ErrCorruptStore, h, n.Type())
	}
	n.hash = h
	return n, data, nil
}

// stripRef returns the node encoding of a stored value.
func stripRef(data []byte, mode Mode, h hash.Uint256) ([]byte, error) {
	if !mode.RC() {
		return data, nil
	}
	if len(data) < refSuffixLen+1 {
		return nil, fmt.Errorf("%w: node %s: value of %d bytes", ErrCorruptStore, h, len(data))
	}
	if mode.GC() && data[len(data)-refSuffixLen] != 1 {
		return nil, fmt.Errorf("%w: %s (dead)", ErrMissingNode, h)
	}
	return data[:len(data)-refSuffixLen], nil
}

// Get returns a copy of the value stored under key, ErrNotFound if there is
// none, or an error wrapping ErrMissingNode if a node on the way cannot be
// loaded. Nodes loaded on the way stay in memory.
func (t *Trie) Get(key []byte) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	var buf [2 * MaxKeyLength]byte
	leaf, err := t.walk(toNibbles(buf[:0], key), nil)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(leaf.data), nil
}

// walk follows path (nibbles) from the root to its leaf, loading the nodes
// on the way, and returns the leaf: ErrNotFound if the path leads nowhere.
// visit, if not nil, gets every node on the way except hash nodes, root
// first, with its stored encoding (which the node aliases) if it was just
// loaded, else nil.
func (t *Trie) walk(path []byte, visit func(n *Node, stored []byte)) (*Node, error) {
	var stored []byte
	slot := &t.root
	for {
		n := *slot
		if n == nil {
			return nil, ErrNotFound
		}
		n.flags |= flagVisited
		if n.typ == HashT {
			r, data, err := t.resolveData(n.hash)
			if err != nil {
				return nil, err
			}
			*slot, stored = r, data
			continue
		}
		if visit != nil {
			visit(n, stored)
		}
		stored = nil
		switch n.typ {
		case LeafT:
			if len(path) != 0 {
				return nil, ErrNotFound
			}
			return n, nil
		case BranchT, ExtensionT:
			next, rest, ok := n.step(path)
			if !ok {
				return nil, ErrNotFound
			}
			slot, path = next, rest
		}
	}
}

// step follows path one node down from branch or extension n: the slot of
// the child it leads to and the rest of the path; ok is false where the
// extension's key is not a prefix of path.
func (n *Node) step(path []byte) (slot **Node, rest []byte, ok bool) {
	if n.typ == BranchT {
		if len(path) == 0 {
			return &n.kids[valueSlot], path, true
		}
		return &n.kids[path[0]], path[1:], true
	}
	if !bytes.HasPrefix(path, n.data) {
		return nil, nil, false
	}
	return &n.next, path[len(n.data):], true
}

// Put stores value under key. An empty value is stored as a leaf with an
// empty value (C# and neo-go do the same; it is not a delete). The trie
// keeps value: the caller must not modify it afterwards.
func (t *Trie) Put(key, value []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if value == nil {
		return ErrNilValue
	}
	if len(value) > MaxValueLength {
		return fmt.Errorf("%w: %d bytes, max %d", ErrValueTooLong, len(value), MaxValueLength)
	}
	var buf [2 * MaxKeyLength]byte
	e := [1]entry{{path: toNibbles(buf[:0], key), value: value}}
	_, err := t.applyRoot(e[:])
	return err
}

// Delete removes key and reports whether it was there.
func (t *Trie) Delete(key []byte) (bool, error) {
	if err := checkKey(key); err != nil {
		return false, err
	}
	var buf [2 * MaxKeyLength]byte
	e := [1]entry{{path: toNibbles(buf[:0], key)}}
	return t.applyRoot(e[:])
}

// PutBatch applies a batch of changes in one pass over the trie. The
// result is the same as applying the changes one by one in any order.
//
// If an error is returned (a node could not be loaded), the in-memory trie
// may be half-changed: discard the Trie and reopen it at the last flushed
// root.
func (t *Trie) PutBatch(b Batch) error {
	if len(b.entries) == 0 {
		return nil
	}
	_, err := t.applyRoot(b.entries)
	return err
}

func (t *Trie) applyRoot(es []entry) (bool, error) {
	t.changes += len(es)
	r, changed, err := t.apply(t.root, es, 0)
	if err != nil {
		return false, err
	}
	t.root = r
	return changed, nil
}

// StateRoot returns the root hash, computing the hashes of changed nodes;
// the zero hash for an empty trie.
func (t *Trie) StateRoot() hash.Uint256 {
	t.commit()
	return t.root.Hash()
}

// commit computes the hashes of dirty nodes from the root down.
func (t *Trie) commit() {
	if t.changes >= parallelCommitMin && runtime.GOMAXPROCS(0) > 1 {
		t.commitParallel()
	}
	t.cm.commit(t.root)
	t.changes = 0
}

// parallelCommitMin is the number of changes from which commit hashes the
// subtrees of the first branch on separate goroutines.
const parallelCommitMin = 2048

// commitParallel hashes the dirty children of the topmost dirty branch
// concurrently, each worker with its own committer. Hashes do not depend
// on the order, so the result is the same as a sequential commit.
func (t *Trie) commitParallel() {
	n := t.root
	for n != nil && n.typ == ExtensionT && n.flags&flagDirty != 0 {
		n = n.next
	}
	if n == nil || n.typ != BranchT || n.flags&flagDirty == 0 {
		return
	}
	var todo []*Node
	for _, c := range n.kids {
		if c != nil && c.flags&flagDirty != 0 {
			todo = append(todo, c)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	if workers < 2 {
		return
	}
	cms := make([]committer, workers)
	var next atomic.Int32
	var wg sync.WaitGroup
	for w := range cms {
		wg.Add(1)
		go func(cm *committer) {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(todo) {
					return
				}
				cm.commit(todo[i])
			}
		}(&cms[w])
	}
	wg.Wait()
	for i := range cms {
		t.cm.created = append(t.cm.created, cms[i].created...)
		t.cm.arena.adopt(&cms[i].arena)
	}
}

// commit computes the hashes of n and its dirty descendants, recording a
// reference gained for each.
func (c *committer) commit(n *Node) {
	if n == nil || n.flags&flagDirty == 0 {
		return
	}
	switch n.typ {
	case BranchT:
		for _, k := range n.kids {
			c.commit(k)
		}
	case ExtensionT:
		c.commit(n.next)
	}
	enc := n.appendEncoding(c.arena.alloc(n.Size())[:0])
	n.hash = hash.Hash256(enc)
	n.flags &^= flagDirty
	c.created = append(c.created, createdNode{n.hash, enc})
}

// release records that a stored (clean) node loses one reference because
// it is being changed or removed, and marks it dirty. It is a no-op for
// nodes already dirty: they hold no reference yet.
func (t *Trie) release(n *Node) {
	if n.flags&flagDirty != 0 {
		return
	}
	t.released = append(t.released, n.hash)
	if n.typ != HashT {
		n.flags |= flagDirty
	}
}

// Flush computes the root (as StateRoot) and writes the node changes since
// the previous flush to the store in one change set. height is the block
// height recorded for nodes that die in ModeGC.
func (t *Trie) Flush(height uint32) error {
	t.commit()
	changes := make(map[string][]byte, len(t.cm.created)+len(t.released))
	if err := t.collect(height, changes); err != nil {
		return err
	}
	if len(changes) != 0 {
		if err := t.store.PutChangeSet(changes); err != nil {
			return fmt.Errorf("writing MPT nodes: %w", err)
		}
	}
	t.clearPending()
	t.cm.arena.reset() // the store keeps no reference to the values
	return nil
}

// FlushTo is Flush that adds the node changes to dst instead of writing
// them, so that the caller can commit them atomically with other data.
// The caller must write dst to the trie's store before the trie (or any
// other trie or Billet on that store) reads or flushes again. Values in dst
// must not be modified. On error, dst may hold part of the changes.
func (t *Trie) FlushTo(height uint32, dst map[string][]byte) error {
	t.commit()
	if err := t.collect(height, dst); err != nil {
		return err
	}
	t.clearPending()
	t.cm.arena = arena{} // dst still references the old chunks
	return nil
}

func (t *Trie) clearPending() {
	clear(t.cm.created) // drop references to encodings
	t.cm.created = t.cm.created[:0]
	t.released = t.released[:0]
	t.known = nil
}

// nodeKeys returns the store keys of n hashes as substrings of one string
// (map keys) and as sub-slices of one buffer (for reads).
func nodeKeys(n int, h func(i int) hash.Uint256) ([]string, []byte) {
	const kl = 1 + hash.Uint256Size
	kb := make([]byte, 0, n*kl)
	for i := range n {
		x := h(i)
		kb = append(kb, NodePrefix)
		kb = append(kb, x[:]...)
	}
	all := string(kb)
	keys := make([]string, n)
	for i := range keys {
		keys[i] = all[i*kl : (i+1)*kl]
	}
	return keys, kb
}

// collect turns pending reference changes into store changes.
func (t *Trie) collect(height uint32, dst map[string][]byte) error {
	if !t.mode.RC() {
		// Store every created node not cancelled by a release of the same
		// hash (a node created and changed again before the flush).
		var rel map[hash.Uint256]int32
		if len(t.released) != 0 {
			rel = make(map[hash.Uint256]int32, len(t.released))
			for _, h := range t.released {
				rel[h]++
			}
		}
		keys, _ := nodeKeys(len(t.cm.created), func(i int) hash.Uint256 { return t.cm.created[i].h })
		for i, c := range t.cm.created {
			if rel != nil {
				if r := rel[c.h]; r > 0 {
					rel[c.h] = r - 1
					continue
				}
			}
			dst[keys[i]] = c.enc
		}
		return nil
	}
	net := make(map[hash.Uint256]pendingRef, len(t.cm.created)+len(t.released))
	for _, c := range t.cm.created {
		p := net[c.h]
		p.delta++
		p.enc = c.enc
		net[c.h] = p
	}
	for _, h := range t.released {
		p := net[h]
		p.delta--
		net[h] = p
	}
	type change struct {
		h hash.Uint256
		p pendingRef
	}
	changes := make([]change, 0, len(net))
	for h, p := range net {
		if p.delta != 0 {
			changes = append(changes, change{h, p})
		}
	}
	keys, kb := nodeKeys(len(changes), func(i int) hash.Uint256 { return changes[i].h })
	const kl = 1 + hash.Uint256Size
	for i, c := range changes {
		v, err := t.refValue(c.h, kb[i*kl:(i+1)*kl:(i+1)*kl], c.p, height)
		if err != nil {
			return err
		}
		dst[keys[i]] = v
	}
	return nil
}

// refValue returns the new stored value (nil to delete) of a node whose
// reference count changes by p.delta.
func (t *Trie) refValue(h hash.Uint256, k []byte, p pendingRef, height uint32) ([]byte, error) {
	var cnt int64
	enc := p.enc
	data, ok := t.known[h]
	var err error
	if !ok {
		data, err = t.store.Get(k)
	}
	switch {
	case err == nil:
		if len(data) < refSuffixLen+1 {
			return nil, fmt.Errorf("%w: node %s: value of %d bytes", ErrCorruptStore, h, len(data))
		}
		// neo-go: in GC mode a dead node counts as absent (it is revived
		// with a fresh count); otherwise the stored count is taken as is.
		if data[len(data)-refSuffixLen] == 1 || !t.mode.GC() {
			cnt = int64(binary.LittleEndian.Uint32(data[len(data)-4:]))
		}
		if enc == nil {
			enc = data[:len(data)-refSuffixLen]
		}
	case errors.Is(err, storage.ErrKeyNotFound):
	default:
		return nil, fmt.Errorf("reading MPT node %s: %w", h, err)
	}
	cnt += int64(p.delta)
	switch {
	case cnt < 0:
		return nil, fmt.Errorf("%w: node %s: reference count would be %d", ErrCorruptStore, h, cnt)
	case cnt > 0xffffffff:
		return nil, fmt.Errorf("%w: node %s: reference count overflow", ErrCorruptStore, h)
	case enc == nil:
		return nil, fmt.Errorf("%w: node %s is released but not stored", ErrCorruptStore, h)
	}
	if cnt == 0 && !t.mode.GC() {
		return nil, nil
	}
	v := t.cm.arena.alloc(len(enc) + refSuffixLen)
	copy(v, enc)
	if cnt == 0 {
		v[len(enc)] = 0
		binary.LittleEndian.PutUint32(v[len(enc)+1:], height)
	} else {
		v[len(enc)] = 1
		binary.LittleEndian.PutUint32(v[len(enc)+1:], uint32(cnt))
	}
	return v, nil
}

// DefaultCollapseDepth is the node depth below which the ledger's trie is
// collapsed to hash nodes after each block (neo-go uses 10, "roughly 1 MB").
const DefaultCollapseDepth = 10

// Collapse replaces every node at depth (counted in nodes, the root being
// at 0) by a hash node, bounding the memory the trie keeps. Nodes with
// unflushed changes are kept; call it after Flush. It walks only the nodes
// created or visited since the previous Collapse (unless depth is smaller
// than then), so its cost follows the block, not the trie.
func (t *Trie) Collapse(depth int) {
	depth = max(depth, 0)
	all := t.collapsed < 0 || depth < t.collapsed
	t.root = collapse(t.root, depth, all)
	t.collapsed = depth
}

func collapse(n *Node, depth int, all bool) *Node {
	if n == nil || n.typ == HashT {
		return n
	}
	if n.flags&flagMoved != 0 {
		all = true
		n.flags &^= flagMoved
	}
	if !all && n.flags&flagVisited == 0 {
		return n
	}
	dirty := n.flags&flagDirty != 0
	if depth == 0 && !dirty {
		return newHash(n.hash)
	}
	if !dirty {
		n.flags &^= flagVisited
	}
	switch n.typ {
	case BranchT:
		for i, c := range n.kids {
			n.kids[i] = collapse(c, max(depth-1, 0), all)
		}
	case ExtensionT:
		n.next = collapse(n.next, max(depth-1, 0), all)
	}
	return n
}

// arena hands out byte slices carved from large chunks, for node encodings
// that live until the next flush. After a reset the chunks are reused.
type arena struct {
	buf  []byte
	used [][]byte // full chunks handed out since the last reset
	free [][]byte // chunks to reuse
}

const (
	arenaChunk = 256 << 10
	// arenaKeep bounds the chunks kept for reuse (4 MiB).
	arenaKeep = 16
)

func (a *arena) alloc(n int) []byte {
	if cap(a.buf)-len(a.buf) < n {
		if n > arenaChunk/4 {
			return make([]byte, n)
		}
		if a.buf != nil {
			a.used = append(a.used, a.buf)
		}
		if k := len(a.free); k > 0 {
			a.buf, a.free = a.free[k-1][:0], a.free[:k-1]
		} else {
			a.buf = make([]byte, 0, arenaChunk)
		}
	}
	l := len(a.buf)
	a.buf = a.buf[:l+n]
	return a.buf[l : l+n : l+n]
}

// adopt takes over the chunks of o (whose slices stay valid).
func (a *arena) adopt(o *arena) {
	a.used = append(a.used, o.used...)
	if o.buf != nil {
		a.used = append(a.used, o.buf)
	}
	*o = arena{}
}

// reset makes all chunks reusable; slices handed out before must no longer
// be in use.
func (a *arena) reset() {
	a.buf = a.buf[:0]
	for _, c := range a.used {
		if len(a.free) < arenaKeep {
			a.free = append(a.free, c[:0])
		}
	}
	clear(a.used)
	a.used = a.used[:0]
}

// CollectGarbage deletes from store the trie nodes that died (ModeGC) at a
// height of at most height, and returns how many it deleted (neo-go:
// stateroot.Module.GC). Nodes of every trie sharing the store are
// considered.
func CollectGarbage(store storage.Store, height uint32) (int, error) {
	removed := 0
	err := store.SeekGC(storage.SeekRange{Prefix: []byte{NodePrefix}}, func(_, v []byte) bool {
		if len(v) > refSuffixLen && v[len(v)-refSuffixLen] == 0 &&
			binary.LittleEndian.Uint32(v[len(v)-4:]) <= height {
			removed++
			return false
		}
		return true
	})
	if err != nil {
		return 0, fmt.Errorf("MPT garbage collection: %w", err)
	}
	return removed, nil
}

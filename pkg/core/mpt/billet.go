package mpt

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// ErrRestoreFailed means a node cannot be restored where it was offered
// (wrong hash, a path through a node that is not restored yet, a node
// restored twice).
var ErrRestoreFailed = errors.New("failed to restore MPT node")

// Billet rebuilds a trie with a known root hash node by node, as state sync
// receives nodes from peers (neo-go: mpt.Billet and the statesync pool).
//
// It starts from the root hash and keeps the set of missing nodes: hashes
// with the paths where they are needed. RestoreNode takes a node received
// for a missing hash, checks it, stores it at every path where that hash is
// missing (in RC modes each path adds one reference: counts only go up) and
// adds its children to the missing set, restoring at once the children the
// store already holds. A subtree whose nodes are all restored collapses
// back to a hash node, so memory holds only the frontier of the sync.
//
// The store must hold no trie nodes except those of an earlier run of a
// Billet for the same root (NewBillet resumes such a run); neo-go clears
// the node prefix before a sync. Writes are buffered until Flush/FlushTo.
type Billet struct {
	store storage.Store
	mode  Mode
	root  *Node

	missing map[hash.Uint256][][]byte // hash -> nibble paths where it is needed
	queue   []hash.Uint256            // missing hashes in discovery order (may hold stale ones)
	writes  map[string][]byte         // unflushed node writes

	// OnLeaf, if set, is called for every leaf restored, with its key and
	// value (both may be kept), so that the caller can store the contract
	// storage item (neo-go writes it under a temporary storage prefix).
	OnLeaf func(key, value []byte)
}

// NewBillet returns a Billet for the trie with the given root. It reads the
// nodes of an earlier, interrupted run from store, if any, to find what is
// still missing. mode must be the mode the nodes are stored in.
func NewBillet(root hash.Uint256, mode Mode, store storage.Store) (*Billet, error) {
	b := &Billet{
		store:   store,
		mode:    mode,
		missing: make(map[hash.Uint256][][]byte),
		writes:  make(map[string][]byte),
	}
	if root.IsZero() {
		return b, nil
	}
	r, err := b.scan(root, nil)
	if err != nil {
		return nil, err
	}
	b.root = r
	return b, nil
}

// scan loads what is stored of the subtree with hash h at path, registering
// missing nodes; it returns the in-memory form (collapsed if complete).
func (b *Billet) scan(h hash.Uint256, path []byte) (*Node, error) {
	n, err := b.GetFromStore(h)
	if errors.Is(err, ErrMissingNode) {
		b.addMissing(h, path)
		return newHash(h), nil
	}
	if err != nil {
		return nil, err
	}
	switch n.typ {
	case BranchT:
		for i, c := range n.kids {
			if c == nil {
				continue
			}
			if n.kids[i], err = b.scan(c.hash, childPath(path, i)); err != nil {
				return nil, err
			}
		}
	case ExtensionT:
		if n.next, err = b.scan(n.next.hash, concat(path, n.data)); err != nil {
			return nil, err
		}
	}
	return tryCollapse(n), nil
}

func childPath(path []byte, i int) []byte {
	if i == valueSlot {
		return path
	}
	return append(append(make([]byte, 0, len(path)+1), path...), byte(i))
}

func (b *Billet) addMissing(h hash.Uint256, path []byte) {
	paths, ok := b.missing[h]
	if !ok {
		b.queue = append(b.queue, h)
	}
	b.missing[h] = append(paths, path)
}

// Missing returns up to max hashes of nodes still needed, in the order
// they were found missing.
func (b *Billet) Missing(max int) []hash.Uint256 {
	// Drop restored hashes from the front of the queue.
	i := 0
	for i < len(b.queue) {
		if _, ok := b.missing[b.queue[i]]; ok {
			break
		}
		i++
	}
	b.queue = b.queue[i:]
	res := make([]hash.Uint256, 0, min(max, len(b.missing)))
	for _, h := range b.queue {
		if len(res) == max {
			break
		}
		if _, ok := b.missing[h]; ok {
			res = append(res, h)
		}
	}
	return res
}

// MissingCount returns the number of distinct hashes still needed.
func (b *Billet) MissingCount() int { return len(b.missing) }

// Paths returns the nibble paths at which the node with hash h is missing.
func (b *Billet) Paths(h hash.Uint256) [][]byte { return b.missing[h] }

// IsComplete reports whether every node of the trie is restored.
func (b *Billet) IsComplete() bool { return len(b.missing) == 0 }

// RestoreNode restores n at every path where its hash is missing. A node
// not missing (already restored, or never asked for) is ignored, since
// peers may send the same node twice. n is not retained.
func (b *Billet) RestoreNode(n *Node) error {
	if n == nil || n.typ == HashT {
		return fmt.Errorf("%w: cannot restore a %s", ErrRestoreFailed, n.Type())
	}
	h := n.Hash()
	paths, ok := b.missing[h]
	if !ok {
		return nil
	}
	delete(b.missing, h)
	var stored []hash.Uint256 // children found in the store
	for _, p := range paths {
		c := cloneShallow(n, h)
		r, err := b.restoreAt(b.root, p, c)
		if err != nil {
			return err
		}
		b.root = r
		if err := b.incRef(h, n); err != nil {
			return err
		}
		if n.typ == LeafT && b.OnLeaf != nil {
			b.OnLeaf(fromNibbles(nil, p), append([]byte{}, n.data...))
		}
		// Children become missing at their paths.
		switch n.typ {
		case BranchT:
			for i, k := range n.kids {
				if k != nil {
					stored = b.need(k.hash, childPath(p, i), stored)
				}
			}
		case ExtensionT:
			stored = b.need(n.next.hash, concat(p, n.data), stored)
		}
	}
	// Children already stored (identical subtrees elsewhere) are restored
	// at their new paths right away.
	for _, ch := range stored {
		if _, ok := b.missing[ch]; !ok {
			continue
		}
		c, err := b.GetFromStore(ch)
		if err != nil {
			return err
		}
		if err := b.RestoreNode(c); err != nil {
			return err
		}
	}
	return nil
}

// need registers child hash h as missing at path and notes it in stored if
// the store holds it.
func (b *Billet) need(h hash.Uint256, path []byte, stored []hash.Uint256) []hash.Uint256 {
	if _, ok := b.missing[h]; !ok {
		if _, err := b.get(h); err == nil {
			stored = append(stored, h)
		}
	}
	b.addMissing(h, path)
	return stored
}

// cloneShallow copies n for one place in the billet: fresh hash nodes for
// its children, so collapsing one copy does not touch another.
func cloneShallow(n *Node, h hash.Uint256) *Node {
	switch n.typ {
	case BranchT:
		c := newBranch()
		c.flags, c.hash = 0, h
		for i, k := range n.kids {
			if k != nil {
				c.kids[i] = newHash(k.hash)
			}
		}
		return c
	case ExtensionT:
		return &Node{typ: ExtensionT, hash: h, data: n.data, next: newHash(n.next.hash)}
	default:
		return &Node{typ: LeafT, hash: h, data: n.data}
	}
}

// restoreAt puts n in place of the hash node at path below cur and returns
// cur's replacement.
func (b *Billet) restoreAt(cur *Node, path []byte, n *Node) (*Node, error) {
	switch cur.Type() {
	case HashT:
		switch {
		case cur.flags&flagCollapsed != 0:
			return nil, fmt.Errorf("%w: path %x is already restored", ErrRestoreFailed, path)
		case len(path) != 0:
			return nil, fmt.Errorf("%w: path leads through missing node %s", ErrRestoreFailed, cur.hash)
		case cur.hash != n.hash:
			return nil, fmt.Errorf("%w: expected node %s, got %s", ErrRestoreFailed, cur.hash, n.hash)
		}
		return tryCollapse(n), nil
	case BranchT:
		i := valueSlot
		if len(path) != 0 {
			i, path = int(path[0]), path[1:]
		}
		r, err := b.restoreAt(cur.kids[i], path, n)
		if err != nil {
			return nil, err
		}
		cur.kids[i] = r
		return tryCollapse(cur), nil
	case ExtensionT:
		if len(path) < len(cur.data) || string(path[:len(cur.data)]) != string(cur.data) {
			return nil, fmt.Errorf("%w: path %x does not follow extension %x", ErrRestoreFailed, path, cur.data)
		}
		r, err := b.restoreAt(cur.next, path[len(cur.data):], n)
		if err != nil {
			return nil, err
		}
		cur.next = r
		return tryCollapse(cur), nil
	default:
		return nil, fmt.Errorf("%w: path reaches a %s", ErrRestoreFailed, cur.Type())
	}
}

// tryCollapse turns a node whose subtree is fully restored into a
// collapsed hash node.
func tryCollapse(n *Node) *Node {
	done := func(c *Node) bool { return c == nil || c.typ == HashT && c.flags&flagCollapsed != 0 }
	switch n.typ {
	case BranchT:
		for _, c := range n.kids {
			if !done(c) {
				return n
			}
		}
	case ExtensionT:
		if !done(n.next) {
			return n
		}
	case HashT:
		return n
	}
	c := newHash(n.hash)
	c.flags = flagCollapsed
	return c
}

// get returns the stored value of node h, unflushed writes first.
func (b *Billet) get(h hash.Uint256) ([]byte, error) {
	k := NodeKey(h)
	if v, ok := b.writes[string(k)]; ok {
		return v, nil
	}
	return b.store.Get(k)
}

// incRef stores one more reference to n (ModeAll: stores n).
func (b *Billet) incRef(h hash.Uint256, n *Node) error {
	k := string(NodeKey(h))
	if !b.mode.RC() {
		b.writes[k] = n.Bytes()
		return nil
	}
	data, err := b.get(h)
	switch {
	case err == nil:
		if len(data) <= refSuffixLen {
			return fmt.Errorf("%w: node %s: value of %d bytes", ErrCorruptStore, h, len(data))
		}
		data = append([]byte(nil), data...)
		cnt := uint64(binary.LittleEndian.Uint32(data[len(data)-4:]))
		if data[len(data)-refSuffixLen] != 1 {
			cnt = 0
		}
		if cnt == 0xffffffff {
			return fmt.Errorf("%w: node %s: reference count overflow", ErrCorruptStore, h)
		}
		data[len(data)-refSuffixLen] = 1
		binary.LittleEndian.PutUint32(data[len(data)-4:], uint32(cnt+1))
	case errors.Is(err, storage.ErrKeyNotFound):
		data = append(n.Bytes(), 1, 1, 0, 0, 0)
	default:
		return fmt.Errorf("reading MPT node %s: %w", h, err)
	}
	b.writes[k] = data
	return nil
}

// Flush writes the restored nodes to the store.
func (b *Billet) Flush() error {
	if len(b.writes) == 0 {
		return nil
	}
	if err := b.store.PutChangeSet(b.writes); err != nil {
		return fmt.Errorf("writing MPT nodes: %w", err)
	}
	b.writes = make(map[string][]byte)
	return nil
}

// FlushTo adds the restored nodes to dst instead of writing them; the
// caller must write dst to the store before the Billet is used again.
func (b *Billet) FlushTo(dst map[string][]byte) {
	for k, v := range b.writes {
		dst[k] = v
	}
	b.writes = make(map[string][]byte)
}

// GetFromStore loads the node with hash h (unflushed writes included).
func (b *Billet) GetFromStore(h hash.Uint256) (*Node, error) {
	data, err := b.get(h)
	if err != nil {
		if errors.Is(err, storage.ErrKeyNotFound) {
			return nil, fmt.Errorf("%w: %s", ErrMissingNode, h)
		}
		return nil, fmt.Errorf("reading MPT node %s: %w", h, err)
	}
	enc, err := stripRef(data, b.mode&^ModeGCFlag, h)
	if err != nil {
		return nil, err
	}
	n, err := decodeNode(enc, true)
	if err != nil || n == nil || n.typ == HashT {
		return nil, fmt.Errorf("%w: node %s: %v", ErrCorruptStore, h, err)
	}
	n.hash = h
	return n, nil
}

// Traverse walks the stored trie from the billet's root in pre-order
// (a branch's value before its other children), calling fn with each
// node's nibble path and the node, until fn returns true. Missing nodes
// are skipped if ignoreMissing, otherwise they end the walk with an error
// wrapping ErrMissingNode. The path is valid only during the call; the node
// may be kept.
func (b *Billet) Traverse(fn func(path []byte, n *Node) bool, ignoreMissing bool) error {
	if b.root == nil {
		return nil
	}
	var walk func(h hash.Uint256, path []byte) error
	walk = func(h hash.Uint256, path []byte) error {
		n, err := b.GetFromStore(h)
		if err != nil {
			if ignoreMissing && errors.Is(err, ErrMissingNode) {
				return nil
			}
			return err
		}
		if fn(path, n) {
			return errStop
		}
		switch n.typ {
		case BranchT:
			if c := n.kids[valueSlot]; c != nil {
				if err := walk(c.hash, path); err != nil {
					return err
				}
			}
			for i, c := range n.kids[:valueSlot] {
				if c != nil {
					if err := walk(c.hash, append(path, byte(i))); err != nil {
						return err
					}
				}
			}
		case ExtensionT:
			return walk(n.next.hash, append(path, n.data...))
		}
		return nil
	}
	err := walk(b.root.hash, make([]byte, 0, MaxPathLength))
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// ChildrenPaths returns, for a node at path, the hashes of its non-empty
// children and the paths where they sit (neo-go: mpt.GetChildrenPaths).
func ChildrenPaths(path []byte, n *Node) map[hash.Uint256][][]byte {
	res := make(map[hash.Uint256][][]byte)
	switch n.Type() {
	case BranchT:
		for i, c := range n.kids {
			if c != nil {
				h := c.Hash()
				res[h] = append(res[h], childPath(path, i))
			}
		}
	case ExtensionT:
		h := n.next.Hash()
		res[h] = append(res[h], concat(path, n.data))
	}
	return res
}

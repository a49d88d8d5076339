package mpt

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// errStop ends a walk early without an error.
var errStop = errors.New("stop")

// Seek calls fn for every key with the given prefix, in ascending key order
// starting at prefix+start (inclusive), or with backwards in descending
// order over the keys that are <= prefix+start or begin with it (all keys
// with the prefix if start is empty), until fn returns false. These are the
// semantics of storage.SeekRange (and neo-go's TrieStore). k and v are
// valid only during the call.
//
// Seek reads nodes it needs from the store without keeping them: it does
// not grow the in-memory trie. It returns an error wrapping ErrMissingNode
// if a node cannot be loaded, after the keys visited before it.
func (t *Trie) Seek(prefix, start []byte, backwards bool, fn func(k, v []byte) bool) error {
	if len(prefix)+len(start) > MaxKeyLength {
		return fmt.Errorf("%w: prefix and start of %d bytes, max %d", ErrInvalidKey, len(prefix)+len(start), MaxKeyLength)
	}
	w := walker{
		store:     t.store,
		mode:      t.mode,
		backwards: backwards,
		bounded:   !backwards || len(start) > 0,
		fn:        fn,
	}
	w.bound = toNibbles(make([]byte, 0, 2*(len(prefix)+len(start))), prefix)
	w.bound = toNibbles(w.bound, start)
	pfx := w.bound[:2*len(prefix)]
	n, path, err := w.descend(t.root, pfx)
	if err != nil || n == nil {
		return err
	}
	w.path = path
	err = w.walk(n)
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// Find returns up to max key-value pairs (copies) whose keys start with
// prefix, in ascending order, starting after prefix+from. With a nil from
// the key equal to prefix is included; with a non-nil from the key
// prefix+from itself is excluded (neo-go Trie.Find; C# Trie.Find takes
// from as a whole key and excludes it too).
func (t *Trie) Find(prefix, from []byte, max int) ([]KeyValue, error) {
	if len(prefix) > MaxKeyLength || len(from) > MaxKeyLength-len(prefix) {
		return nil, fmt.Errorf("%w: prefix and from too long", ErrInvalidKey)
	}
	var res []KeyValue
	if max <= 0 {
		return res, nil
	}
	var skip []byte
	if from != nil {
		skip = append(append([]byte{}, prefix...), from...)
	}
	err := t.Seek(prefix, from, false, func(k, v []byte) bool {
		if skip != nil && bytes.Equal(k, skip) {
			return true
		}
		res = append(res, KeyValue{Key: bytes.Clone(k), Value: bytes.Clone(v)})
		return len(res) < max
	})
	return res, err
}

// walker visits leaves in key order within a bound: forward, keys >= bound;
// backwards, keys <= bound or extending it (when bounded).
type walker struct {
	store     storage.Store
	mode      Mode
	backwards bool
	bounded   bool
	bound     []byte // nibbles
	path      []byte // nibbles of the current node's path
	key       []byte // scratch for the key passed to fn
	fn        func(k, v []byte) bool
}

func (w *walker) load(h hash.Uint256) (*Node, error) {
	return loadNode(w.store, w.mode, h)
}

// descend follows pfx from n and returns the node whose subtree holds
// exactly the keys with that prefix, and its path (which may extend past
// pfx inside an extension key); nil if no key has the prefix.
func (w *walker) descend(n *Node, pfx []byte) (*Node, []byte, error) {
	path := make([]byte, 0, 2*MaxKeyLength)
	rest := pfx
	for {
		if n == nil {
			return nil, nil, nil
		}
		if n.typ == HashT {
			r, err := w.load(n.hash)
			if err != nil {
				return nil, nil, err
			}
			n = r
			continue
		}
		if len(rest) == 0 {
			return n, path, nil
		}
		switch n.typ {
		case LeafT:
			return nil, nil, nil
		case BranchT:
			path = append(path, rest[0])
			n = n.kids[rest[0]]
			rest = rest[1:]
		case ExtensionT:
			switch {
			case bytes.HasPrefix(rest, n.data):
				path = append(path, n.data...)
				rest = rest[len(n.data):]
				n = n.next
			case bytes.HasPrefix(n.data, rest):
				// The prefix ends inside the key: the whole subtree matches.
				return n, path, nil
			default:
				return nil, nil, nil
			}
		}
	}
}

// position of a subtree at path p relative to the bound.
const (
	posSkip    = iota // no key in the subtree is in range
	posPartial        // p is a prefix of the bound: some may be
	posAll            // every key in the subtree is in range
)

func (w *walker) classify(p []byte) int {
	if !w.bounded {
		return posAll
	}
	cp := commonPrefixLen(p, w.bound)
	if cp == len(p) {
		return posPartial
	}
	// Keys that extend the bound are in range both ways: backwards walks
	// include the whole subtree under Prefix+Start (storage.SeekRange).
	if cp == len(w.bound) {
		return posAll
	}
	// p leaves the bound at cp.
	greater := p[cp] > w.bound[cp]
	if greater != w.backwards {
		return posAll
	}
	return posSkip
}

func (w *walker) walk(n *Node) error {
	pos := w.classify(w.path)
	if pos == posSkip {
		return nil
	}
	return w.visit(n, pos)
}

func (w *walker) visit(n *Node, pos int) error {
	if n == nil {
		return nil
	}
	if n.typ == HashT {
		r, err := w.load(n.hash)
		if err != nil {
			return err
		}
		n = r
	}
	switch n.typ {
	case LeafT:
		// A leaf's key is its path: in range if the subtree is, or if it
		// is the bound itself, or (backwards) a prefix of the bound.
		if pos == posAll || w.backwards || len(w.path) == len(w.bound) {
			w.key = fromNibbles(w.key[:0], w.path)
			if !w.fn(w.key, n.data) {
				return errStop
			}
		}
	case ExtensionT:
		l := len(w.path)
		w.path = append(w.path, n.data...)
		var err error
		if pos == posAll {
			err = w.visit(n.next, posAll)
		} else {
			err = w.walk(n.next)
		}
		w.path = w.path[:l]
		return err
	case BranchT:
		if !w.backwards {
			if err := w.visit(n.kids[valueSlot], pos); err != nil {
				return err
			}
		}
		l := len(w.path)
		for k := range 16 {
			i := k
			if w.backwards {
				i = 15 - k
			}
			if n.kids[i] == nil {
				continue
			}
			w.path = append(w.path[:l], byte(i))
			var err error
			if pos == posAll {
				err = w.visit(n.kids[i], posAll)
			} else {
				err = w.walk(n.kids[i])
			}
			if err != nil {
				w.path = w.path[:l]
				return err
			}
		}
		w.path = w.path[:l]
		if w.backwards {
			return w.visit(n.kids[valueSlot], pos)
		}
	}
	return nil
}

package mpt

import (
	"bytes"
	"fmt"
	"iter"
	"slices"
)

// KeyValue is a trie key and its value.
type KeyValue struct {
	Key   []byte
	Value []byte
}

// Batch is a set of changes for PutBatch, sorted by key. A nil value
// deletes the key; an empty non-nil value stores an empty value. A Batch is
// not changed by PutBatch and may be applied to several tries.
type Batch struct {
	entries []entry
}

// entry is one change: the key as nibbles and the value (nil: delete).
type entry struct {
	path  []byte
	value []byte
}

// Len returns the number of changes in b.
func (b Batch) Len() int { return len(b.entries) }

// MapToBatch makes a Batch from a change set keyed by store keys whose
// first prefixLen bytes are not part of the trie key (for example a
// storage-item prefix; 0 if the keys are trie keys: contract id (int32 LE)
// followed by the storage key). The batch keeps the values: the caller must
// not modify them until the batch has been applied.
func MapToBatch(changes map[string][]byte, prefixLen int) (Batch, error) {
	keys := make([]string, 0, len(changes))
	total := 0
	for k, v := range changes {
		if err := checkChange(len(k)-prefixLen, v); err != nil {
			return Batch{}, fmt.Errorf("key %x: %w", k, err)
		}
		total += 2 * (len(k) - prefixLen)
		keys = append(keys, k)
	}
	// Sorting the keys (cheap string compares) sorts their nibble paths
	// when all keys share their first prefixLen bytes, as they should.
	slices.Sort(keys)
	nib := make([]byte, 0, total)
	es := make([]entry, 0, len(changes))
	for _, k := range keys {
		start := len(nib)
		for i := prefixLen; i < len(k); i++ {
			nib = append(nib, k[i]>>4, k[i]&0x0f)
		}
		es = append(es, entry{path: nib[start:len(nib):len(nib)], value: changes[k]})
	}
	return sortedBatch(es)
}

// sortedBatch sorts es by path if needed and refuses duplicate paths.
func sortedBatch(es []entry) (Batch, error) {
	for pass := 0; pass < 2; pass++ {
		sorted := true
		for i := 1; i < len(es); i++ {
			switch bytes.Compare(es[i-1].path, es[i].path) {
			case 0:
				return Batch{}, fmt.Errorf("%w: duplicate key %x in batch", ErrInvalidKey, fromNibbles(nil, es[i].path))
			case 1:
				sorted = false
			}
			if !sorted {
				break
			}
		}
		if sorted {
			return Batch{entries: es}, nil
		}
		slices.SortFunc(es, func(a, b entry) int { return bytes.Compare(a.path, b.path) })
	}
	return Batch{entries: es}, nil
}

// NewBatch makes a Batch from a list of changes (a nil Value deletes the
// key). Keys must be unique. The batch keeps the values.
func NewBatch(kvs []KeyValue) (Batch, error) {
	total := 0
	for _, kv := range kvs {
		if err := checkChange(len(kv.Key), kv.Value); err != nil {
			return Batch{}, fmt.Errorf("key %x: %w", kv.Key, err)
		}
		total += 2 * len(kv.Key)
	}
	nib := make([]byte, 0, total)
	es := make([]entry, 0, len(kvs))
	for _, kv := range kvs {
		start := len(nib)
		nib = toNibbles(nib, kv.Key)
		es = append(es, entry{path: nib[start:len(nib):len(nib)], value: kv.Value})
	}
	return sortedBatch(es)
}

func checkChange(keyLen int, v []byte) error {
	if keyLen <= 0 {
		return fmt.Errorf("%w: empty key", ErrInvalidKey)
	}
	if keyLen > MaxKeyLength {
		return fmt.Errorf("%w: %d bytes, max %d", ErrInvalidKey, keyLen, MaxKeyLength)
	}
	if len(v) > MaxValueLength {
		return fmt.Errorf("%w: %d bytes, max %d", ErrValueTooLong, len(v), MaxValueLength)
	}
	return nil
}

// The batch algorithm. apply(n, es, d) applies the sorted entries es to the
// subtree n sitting at nibble depth d (every entry's path has n's path as
// its first d nibbles) and returns the replacement subtree and whether
// anything changed. The result obeys the trie invariants (a branch has at
// least two children, an extension has a non-empty key and is followed by
// neither an extension nor the empty node), so the root depends only on
// the final set of keys.
//
// Reference accounting: a stored node that is changed or dropped is
// released (one reference lost, the node becomes dirty); new and changed
// nodes gain their reference when commit hashes them. An unchanged subtree
// is returned as is.

func (t *Trie) apply(n *Node, es []entry, d int) (*Node, bool, error) {
	if n == nil {
		r := t.build(es, d)
		return r, r != nil, nil
	}
	n.flags |= flagVisited
	switch n.typ {
	case HashT:
		r, err := t.resolve(n.hash)
		if err != nil {
			return n, false, err
		}
		return t.apply(r, es, d)
	case LeafT:
		return t.applyLeaf(n, es, d)
	case ExtensionT:
		return t.applyExt(n, es, d)
	default:
		return t.applyBranch(n, es, d, false)
	}
}

func (t *Trie) applyLeaf(n *Node, es []entry, d int) (*Node, bool, error) {
	leaf, changed, rest := n, false, es
	if len(es[0].path) == d {
		e := es[0]
		rest = es[1:]
		switch {
		case e.value == nil:
			t.release(n)
			leaf, changed = nil, true
		case !bytes.Equal(e.value, n.data):
			t.release(n)
			leaf, changed = newLeaf(e.value), true
		}
	}
	if !hasPut(rest) {
		return leaf, changed, nil // deletes below a leaf match nothing
	}
	if leaf == nil {
		return t.build(rest, d), true, nil
	}
	b := newBranch()
	b.kids[valueSlot] = leaf
	r, _, err := t.applyBranch(b, rest, d, true)
	return r, true, err
}

func (t *Trie) applyExt(n *Node, es []entry, d int) (*Node, bool, error) {
	key := n.data
	l := len(key)
	// j: the shortest common prefix of the key with a put that leaves it.
	j, lo, hi := l, -1, -1
	for i := range es {
		cp := commonPrefixLen(es[i].path[d:], key)
		if cp == l {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		} else if es[i].value != nil && cp < j {
			j = cp
		}
	}
	if j == l {
		// No put leaves the key; deletes that do match nothing.
		if lo < 0 {
			return n, false, nil
		}
		nn, ch, err := t.apply(n.next, es[lo:hi], d+l)
		if err != nil {
			return n, false, err
		}
		if !ch {
			n.next = nn
			return n, false, nil
		}
		t.release(n)
		switch {
		case nn == nil:
			return nil, true, nil
		case nn.typ == ExtensionT:
			t.release(nn)
			n.data = concat(key, nn.data)
			n.next = nn.next
		default:
			n.next = nn
		}
		return n, true, nil
	}
	// Split the key at j: a branch at depth d+j holds the rest of the
	// extension under key[j] and takes every entry that shares key[:j]
	// (the others are deletes that match nothing). They are contiguous.
	lo, hi = -1, -1
	for i := range es {
		if commonPrefixLen(es[i].path[d:], key) >= j {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	t.release(n)
	tail := n.next
	tail.flags |= flagMoved // now deeper: Collapse must walk all of it
	if l-j-1 > 0 {
		tail = newExt(key[j+1:], n.next)
	}
	b := newBranch()
	b.kids[key[j]] = tail
	r, _, err := t.applyBranch(b, es[lo:hi], d+j, true)
	if err != nil {
		return r, true, err
	}
	r, err = t.mergeExt(key[:j], r)
	return r, true, err
}

// applyBranch applies es to branch b at depth d. A fresh branch is one
// just built by the caller (dirty, not referenced by anyone yet).
func (t *Trie) applyBranch(b *Node, es []entry, d int, fresh bool) (*Node, bool, error) {
	changed := false
	for k, group := range branchGroups(es, d) {
		depth := d + 1
		if k == valueSlot {
			depth = d
		}
		nn, ch, err := t.apply(b.kids[k], group, depth)
		if err != nil {
			return b, false, err
		}
		b.kids[k] = nn
		changed = changed || ch
	}
	if !changed && !fresh {
		return b, false, nil
	}
	t.release(b)
	cnt, last := 0, 0
	for k, c := range b.kids {
		if c != nil {
			cnt++
			last = k
		}
	}
	switch {
	case cnt == 0:
		return nil, true, nil
	case cnt >= 2:
		return b, true, nil
	case last == valueSlot:
		// Only the value is left: the branch becomes its leaf.
		return b.kids[valueSlot], changed, nil
	}
	r, err := t.mergeExt(singleNibble[last][:], b.kids[last])
	return r, true, err
}

// singleNibble holds one-nibble keys for extensions made from a branch
// with one child left; they are shared and never modified.
var singleNibble = [16][1]byte{{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}}

// mergeExt puts prefix in front of sub: an extension sub gets a longer key,
// anything else gets a new extension above it.
func (t *Trie) mergeExt(prefix []byte, sub *Node) (*Node, error) {
	if len(prefix) == 0 || sub == nil {
		return sub, nil
	}
	if sub.typ == HashT {
		r, err := t.resolve(sub.hash)
		if err != nil {
			return sub, err
		}
		sub = r
	}
	if sub.typ == ExtensionT {
		t.release(sub)
		sub.data = concat(prefix, sub.data)
		return sub, nil
	}
	return newExt(prefix, sub), nil
}

// build makes a new subtree at depth d from the puts in es.
func (t *Trie) build(es []entry, d int) *Node {
	for i := range es {
		if es[i].value == nil {
			puts := make([]entry, 0, len(es)-1)
			for _, e := range es {
				if e.value != nil {
					puts = append(puts, e)
				}
			}
			es = puts
			break
		}
	}
	return t.buildPuts(es, d)
}

func (t *Trie) buildPuts(es []entry, d int) *Node {
	switch len(es) {
	case 0:
		return nil
	case 1:
		leaf := newLeaf(es[0].value)
		if len(es[0].path) > d {
			return newExt(bytes.Clone(es[0].path[d:]), leaf)
		}
		return leaf
	}
	first, last := es[0].path[d:], es[len(es)-1].path[d:]
	if c := commonPrefixLen(first, last); c > 0 {
		return newExt(bytes.Clone(first[:c]), t.buildBranch(es, d+c))
	}
	return t.buildBranch(es, d)
}

// branchGroups splits es (sorted, every path at least d nibbles long) by the
// branch slot each goes to at depth d: first the entry whose path ends at d
// (the value slot), then each run of entries that share nibble d.
func branchGroups(es []entry, d int) iter.Seq2[int, []entry] {
	return func(yield func(int, []entry) bool) {
		i := 0
		if len(es[0].path) == d {
			if !yield(valueSlot, es[:1]) {
				return
			}
			i = 1
		}
		for i < len(es) {
			c := es[i].path[d]
			j := i + 1
			for j < len(es) && es[j].path[d] == c {
				j++
			}
			if !yield(int(c), es[i:j]) {
				return
			}
			i = j
		}
	}
}

// buildBranch makes a branch at depth d from at least two puts that do not
// all share the next nibble.
func (t *Trie) buildBranch(es []entry, d int) *Node {
	b := newBranch()
	for k, group := range branchGroups(es, d) {
		if k == valueSlot {
			b.kids[valueSlot] = newLeaf(group[0].value)
		} else {
			b.kids[k] = t.buildPuts(group, d+1)
		}
	}
	return b
}

func hasPut(es []entry) bool {
	for i := range es {
		if es[i].value != nil {
			return true
		}
	}
	return false
}

func commonPrefixLen(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// concat returns a new slice holding a then b.
func concat(a, b []byte) []byte {
	r := make([]byte, len(a)+len(b))
	copy(r, a)
	copy(r[len(a):], b)
	return r
}

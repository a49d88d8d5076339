package mpt

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// NodeType is the first byte of a node's encoding.
type NodeType byte

// Node types (C#: Neo.Cryptography.MPTTrie.NodeType).
// The values are consecutive from 0.
const (
	BranchT NodeType = iota
	ExtensionT
	LeafT
	HashT
	EmptyT
)

// nodeTypeNames are the C# names, indexed by NodeType.
var nodeTypeNames = [...]string{
	BranchT:    "BranchNode",
	ExtensionT: "ExtensionNode",
	LeafT:      "LeafNode",
	HashT:      "HashNode",
	EmptyT:     "Empty",
}

// String returns the C# name of the type.
func (t NodeType) String() string {
	if int(t) < len(nodeTypeNames) {
		return nodeTypeNames[t]
	}
	return fmt.Sprintf("NodeType(%d)", byte(t))
}

// Protocol limits.
const (
	// MaxKeyLength is the longest trie key in bytes: a 4-byte contract id
	// plus the longest storage key (C#: ApplicationEngine.MaxStorageKeySize
	// 64 + sizeof(int); neo-go: mpt.MaxKeyLength).
	MaxKeyLength = 64 + 4
	// MaxPathLength is MaxKeyLength in nibbles, the longest extension key
	// and the deepest node nesting a decoder accepts (C#: Node.MaxKeyLength
	// = 136; neo-go: maxPathLength).
	MaxPathLength = MaxKeyLength * 2
	// MaxValueLength is the longest leaf value (C#: Node.MaxValueLength =
	// 3 + ApplicationEngine.MaxStorageValueSize 65535 + sizeof(bool)).
	MaxValueLength = 3 + 65535 + 1
	// BranchChildCount is the number of child slots in a branch: 16 nibbles
	// and slot 16 for the value stored at the branch's own path (C#:
	// Node.BranchChildCount).
	BranchChildCount = 17
	// valueSlot is the index of the branch slot holding the value.
	valueSlot = BranchChildCount - 1
)

// Sizes of fixed parts of encodings.
const (
	hashChildSize  = 1 + hash.Uint256Size // 0x03 + hash
	emptyChildSize = 1                    // 0x04
	// maxBranchSize is the largest branch encoding: type byte and 17 hash
	// children.
	maxBranchSize = 1 + BranchChildCount*hashChildSize
)

// Errors returned (wrapped) by node decoding.
var (
	// ErrInvalidNode means bytes are not a canonical node encoding.
	ErrInvalidNode = errors.New("invalid MPT node")
)

// node flags.
const (
	flagDirty     uint8 = 1 << iota // hash not computed: node created or changed since the last commit
	flagCollapsed                   // hash node standing for a fully restored subtree (Billet)
	flagVisited                     // in a Trie: created or visited since the last Collapse
	flagMoved                       // in a Trie: subtree moved deeper since the last Collapse
)

// flagNew is the flags of a node created by trie code.
const flagNew = flagDirty | flagVisited

// Node is one trie node. A nil *Node is the empty node. Branch, extension
// and leaf nodes carry their content; a hash node stands for a node by its
// hash only, to be resolved from the store.
//
// Nodes handed out by this package (DecodeNode, Billet, proofs) belong to
// the caller and are never modified by the package afterwards. Nodes inside
// a Trie are the Trie's own.
type Node struct {
	hash  hash.Uint256
	typ   NodeType
	flags uint8
	// data is the extension key (nibbles, one per byte) or the leaf value.
	// Trie code never modifies these bytes in place: a changed key is a new
	// slice, so sub-slices may be shared freely.
	data []byte
	next *Node                    // extension: the child
	kids *[BranchChildCount]*Node // branch: the children; nil entries are empty
}

// branchAlloc keeps a branch node and its children array in one
// allocation.
type branchAlloc struct {
	n    Node
	kids [BranchChildCount]*Node
}

func newBranch() *Node {
	a := new(branchAlloc)
	a.n.typ = BranchT
	a.n.flags = flagNew
	a.n.kids = &a.kids
	return &a.n
}

func newExt(key []byte, next *Node) *Node {
	return &Node{typ: ExtensionT, flags: flagNew, data: key, next: next}
}

func newLeaf(value []byte) *Node {
	return &Node{typ: LeafT, flags: flagNew, data: value}
}

func newHash(h hash.Uint256) *Node {
	return &Node{typ: HashT, hash: h}
}

// NewBranchNode returns a branch node with the given children (nil for
// empty slots; slot 16 holds the value leaf). The node is not checked for
// trie invariants.
func NewBranchNode(children [BranchChildCount]*Node) *Node {
	n := newBranch()
	*n.kids = children
	return n
}

// NewExtensionNode returns an extension node with key (nibbles, each < 16)
// and next. It copies key.
func NewExtensionNode(key []byte, next *Node) *Node {
	return newExt(append([]byte(nil), key...), next)
}

// NewLeafNode returns a leaf node holding value. It copies value.
func NewLeafNode(value []byte) *Node {
	return newLeaf(append([]byte{}, value...))
}

// NewHashNode returns a hash node standing for the node with hash h.
func NewHashNode(h hash.Uint256) *Node { return newHash(h) }

// Type returns the node's type; EmptyT for nil.
func (n *Node) Type() NodeType {
	if n == nil {
		return EmptyT
	}
	return n.typ
}

// IsEmpty reports whether n is the empty node.
func (n *Node) IsEmpty() bool { return n == nil }

// Key returns the nibbles of an extension node (nil for other types). The
// slice must not be modified.
func (n *Node) Key() []byte {
	if n == nil || n.typ != ExtensionT {
		return nil
	}
	return n.data
}

// Next returns the child of an extension node (nil for other types).
func (n *Node) Next() *Node {
	if n == nil || n.typ != ExtensionT {
		return nil
	}
	return n.next
}

// Child returns child i (0..16) of a branch node; nil for an empty slot or
// a node of another type.
func (n *Node) Child(i int) *Node {
	if n == nil || n.typ != BranchT || i < 0 || i >= BranchChildCount {
		return nil
	}
	return n.kids[i]
}

// Value returns the value of a leaf node (nil for other types). The slice
// must not be modified.
func (n *Node) Value() []byte {
	if n == nil || n.typ != LeafT {
		return nil
	}
	return n.data
}

// Hash returns the node's hash: Hash256 of its encoding, or the hash a hash
// node stands for. The empty node has no hash; Hash returns zero for it.
func (n *Node) Hash() hash.Uint256 {
	if n == nil {
		return hash.Uint256{}
	}
	if n.typ == HashT || n.flags&flagDirty == 0 {
		return n.hash
	}
	// A node built by a constructor: hash its encoding without caching, so
	// that callers may treat the node as immutable.
	return hash.Hash256(n.appendEncoding(nil))
}

// Bytes returns the node's canonical encoding (without a reference count),
// as hashed, stored and sent in proofs. It is a fresh slice.
func (n *Node) Bytes() []byte { return n.appendEncoding(nil) }

// Size returns the length of the node's encoding.
func (n *Node) Size() int {
	if n == nil {
		return 1
	}
	switch n.typ {
	case BranchT:
		sz := 1
		for _, c := range n.kids {
			sz += childSize(c)
		}
		return sz
	case ExtensionT:
		return 1 + nio.VarBytesSize(len(n.data)) + childSize(n.next)
	case LeafT:
		return 1 + nio.VarBytesSize(len(n.data))
	case HashT:
		return hashChildSize
	}
	return 1
}

func childSize(c *Node) int {
	if c == nil {
		return emptyChildSize
	}
	return hashChildSize
}

// appendEncoding appends n's encoding to dst. Children must have their
// hashes (they are clean or hash nodes); a dirty child is hashed on the
// fly.
func (n *Node) appendEncoding(dst []byte) []byte {
	if n == nil {
		return append(dst, byte(EmptyT))
	}
	dst = append(dst, byte(n.typ))
	switch n.typ {
	case BranchT:
		for _, c := range n.kids {
			dst = appendChild(dst, c)
		}
	case ExtensionT:
		dst = nio.AppendVarUint(dst, uint64(len(n.data)))
		dst = append(dst, n.data...)
		dst = appendChild(dst, n.next)
	case LeafT:
		dst = nio.AppendVarUint(dst, uint64(len(n.data)))
		dst = append(dst, n.data...)
	case HashT:
		dst = append(dst, n.hash[:]...)
	}
	return dst
}

// appendChild appends the "as child" form: 0x04 for empty, otherwise 0x03
// and the child's hash.
func appendChild(dst []byte, c *Node) []byte {
	if c == nil {
		return append(dst, byte(EmptyT))
	}
	h := c.Hash()
	dst = append(dst, byte(HashT))
	return append(dst, h[:]...)
}

// DecodeNode decodes one canonical node encoding (without a reference
// count) and returns it; the empty encoding 0x04 decodes to nil. The
// returned node's hash is Hash256(b). The node does not alias b.
//
// Decoding is stricter than C#, which accepts any node type nested as a
// child up to depth 136: here children must be hash or empty nodes (the
// only forms an honest trie produces), extension keys must be 1..136 valid
// nibbles followed by a hash child, branches must have two children or
// more, leaf values at most MaxValueLength bytes, lengths minimally
// encoded, and no bytes may follow the node. So a decoded node encodes back
// to exactly its input. A node refused here can never be
// part of a trie built by the reference implementations.
func DecodeNode(b []byte) (*Node, error) {
	n, err := decodeNode(b, true)
	if err != nil {
		return nil, err
	}
	if n != nil && n.typ != HashT {
		n.hash = hash.Hash256(b)
	}
	return n, nil
}

// decodeNode decodes b; the returned node is clean but its hash is not set
// (the caller knows or computes it). With copyData false, a leaf value and
// extension key alias b.
func decodeNode(b []byte, copyData bool) (*Node, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: no data", ErrInvalidNode)
	}
	typ := NodeType(b[0])
	r := nio.NewBinReaderFromBuf(b[1:])
	var n *Node
	switch typ {
	case BranchT:
		n = newBranch()
		n.flags = 0
		// One allocation for all hash children: count them first.
		cnt := 0
		for p := 1; p < len(b) && cnt <= BranchChildCount; cnt++ {
			if b[p] == byte(HashT) {
				p += hashChildSize
			} else {
				p++
			}
		}
		hs := make([]Node, 0, min(cnt, BranchChildCount))
		nonEmpty := 0
		for i := range n.kids {
			t := NodeType(r.ReadU8())
			switch {
			case r.Err != nil:
				return nil, fmt.Errorf("%w: child: %w", ErrInvalidNode, r.Err)
			case t == EmptyT:
				continue
			case t != HashT:
				return nil, fmt.Errorf("%w: child of type %s (only hash or empty children are accepted)", ErrInvalidNode, t)
			}
			var c *Node
			if len(hs) < cap(hs) {
				hs = append(hs, Node{typ: HashT})
				c = &hs[len(hs)-1]
			} else {
				c = &Node{typ: HashT}
			}
			r.ReadBytes(c.hash[:])
			if r.Err != nil {
				return nil, fmt.Errorf("%w: child hash: %w", ErrInvalidNode, r.Err)
			}
			n.kids[i] = c
			nonEmpty++
		}
		if nonEmpty < 2 {
			return nil, fmt.Errorf("%w: branch with %d children", ErrInvalidNode, nonEmpty)
		}
	case ExtensionT:
		key, err := readVarBytes(r, MaxPathLength)
		if err != nil {
			return nil, fmt.Errorf("%w: extension key: %w", ErrInvalidNode, err)
		}
		if len(key) == 0 {
			return nil, fmt.Errorf("%w: extension with an empty key", ErrInvalidNode)
		}
		for _, nb := range key {
			if nb > 0x0f {
				return nil, fmt.Errorf("%w: extension key byte %#x is not a nibble", ErrInvalidNode, nb)
			}
		}
		next, err := readChild(r)
		if err != nil {
			return nil, err
		}
		if next == nil {
			return nil, fmt.Errorf("%w: extension pointing to the empty node", ErrInvalidNode)
		}
		if copyData {
			key = append([]byte(nil), key...)
		}
		n = &Node{typ: ExtensionT, data: key, next: next}
	case LeafT:
		v, err := readVarBytes(r, MaxValueLength)
		if err != nil {
			return nil, fmt.Errorf("%w: leaf value: %w", ErrInvalidNode, err)
		}
		if copyData {
			v = append([]byte{}, v...)
		}
		n = &Node{typ: LeafT, data: v}
	case HashT:
		n = &Node{typ: HashT}
		r.ReadBytes(n.hash[:])
		if r.Err != nil {
			return nil, fmt.Errorf("%w: hash: %w", ErrInvalidNode, r.Err)
		}
	case EmptyT:
	default:
		return nil, fmt.Errorf("%w: unknown type %#x", ErrInvalidNode, byte(typ))
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrInvalidNode, r.Len())
	}
	return n, nil
}

// readVarBytes reads var-bytes of at most max bytes whose length is
// minimally encoded (C# accepts longer forms, but they change the node's
// hash, so no trie node has them). The result aliases the input.
func readVarBytes(r *nio.BinReader, max int) ([]byte, error) {
	start := r.Offset()
	b := r.ReadVarBytesAlias(max)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Offset()-start != nio.VarBytesSize(len(b)) {
		return nil, errors.New("non-minimal length encoding")
	}
	return b, nil
}

// readChild reads a child in "as child" form: a hash node or empty.
func readChild(r *nio.BinReader) (*Node, error) {
	t := NodeType(r.ReadU8())
	if r.Err != nil {
		return nil, fmt.Errorf("%w: child: %w", ErrInvalidNode, r.Err)
	}
	switch t {
	case EmptyT:
		return nil, nil
	case HashT:
		c := &Node{typ: HashT}
		r.ReadBytes(c.hash[:])
		if r.Err != nil {
			return nil, fmt.Errorf("%w: child hash: %w", ErrInvalidNode, r.Err)
		}
		return c, nil
	default:
		return nil, fmt.Errorf("%w: child of type %s (only hash or empty children are accepted)", ErrInvalidNode, t)
	}
}

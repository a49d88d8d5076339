package bintrie

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// Node blobs (this package's storage format; the EIP defines none, and it
// is not consensus data):
//
//	internal: 0x02 | mask (1 byte: bit 0 left, bit 1 right present) | 32-byte hash per present child, left first
//	stem:     0x01 | stem (31) | bitmap (32 bytes, slot i = byte i/8, bit 7-i%8) | 32-byte value per present slot, in slot order
//
// A node is stored under Prefix | path | depth, where path is the node's
// first depth bits packed MSB-first into ceil(depth/8) bytes (unused low
// bits zero) and depth is one byte (0..248). The root's path is empty.

// NodeKind is the kind of a stored node.
type NodeKind uint8

// Node kinds, as the first byte of a blob.
const (
	NodeStem     NodeKind = 1
	NodeInternal NodeKind = 2
)

const (
	internalHeaderSize = 2
	stemHeaderSize     = 1 + StemSize + bitmapSize
)

// ErrInvalidNode is wrapped by every DecodeNode error.
var ErrInvalidNode = errors.New("invalid node blob")

// DecodedNode is a stored node. Values aliases the decoded blob.
type DecodedNode struct {
	Kind NodeKind
	// Internal nodes: the children's hashes; an absent child is zero.
	Children [2]Hash
	Present  [2]bool
	// Stem nodes: the stem and the present values packed in slot order.
	Stem   Stem
	Values []byte
	bitmap [4]uint64
}

// Has reports whether slot s of a decoded stem is present.
func (n *DecodedNode) Has(s byte) bool { return bitmapHas(&n.bitmap, s) }

// Value returns slot s of a decoded stem (aliasing the blob) or nil.
func (n *DecodedNode) Value(s byte) []byte {
	if !n.Has(s) {
		return nil
	}
	r := bitmapRank(&n.bitmap, s) * ValueSize
	return n.Values[r : r+ValueSize : r+ValueSize]
}

// DecodeNode parses a node blob without copying the values. Every error
// wraps ErrInvalidNode; malformed input never panics.
func DecodeNode(blob []byte) (DecodedNode, error) {
	var n DecodedNode
	if len(blob) == 0 {
		return n, fmt.Errorf("%w: empty", ErrInvalidNode)
	}
	switch NodeKind(blob[0]) {
	case NodeInternal:
		if len(blob) < internalHeaderSize {
			return n, fmt.Errorf("%w: internal node of %d bytes", ErrInvalidNode, len(blob))
		}
		mask := blob[1]
		if mask == 0 || mask > 3 {
			return n, fmt.Errorf("%w: internal child mask %#x", ErrInvalidNode, mask)
		}
		want := internalHeaderSize + bits.OnesCount8(mask)*HashSize
		if len(blob) != want {
			return n, fmt.Errorf("%w: internal node of %d bytes, want %d", ErrInvalidNode, len(blob), want)
		}
		off := internalHeaderSize
		for b := range 2 {
			if mask>>b&1 != 0 {
				n.Present[b] = true
				n.Children[b] = Hash(blob[off:])
				if n.Children[b].IsZero() {
					return n, fmt.Errorf("%w: present child with zero hash", ErrInvalidNode)
				}
				off += HashSize
			}
		}
		n.Kind = NodeInternal
	case NodeStem:
		if len(blob) < stemHeaderSize {
			return n, fmt.Errorf("%w: stem node of %d bytes", ErrInvalidNode, len(blob))
		}
		n.Stem = Stem(blob[1:])
		for w := range 4 {
			n.bitmap[w] = binary.BigEndian.Uint64(blob[1+StemSize+8*w:])
		}
		cnt := bitmapCount(&n.bitmap)
		if cnt == 0 {
			return n, fmt.Errorf("%w: stem node without values", ErrInvalidNode)
		}
		if want := stemHeaderSize + cnt*ValueSize; len(blob) != want {
			return n, fmt.Errorf("%w: stem node of %d bytes, want %d", ErrInvalidNode, len(blob), want)
		}
		n.Values = blob[stemHeaderSize:len(blob):len(blob)]
		n.Kind = NodeStem
	default:
		return n, fmt.Errorf("%w: node type %#x", ErrInvalidNode, blob[0])
	}
	return n, nil
}

func internalBlobSize(mask byte) int {
	return internalHeaderSize + bits.OnesCount8(mask)*HashSize
}

func appendInternal(dst []byte, mask byte, l, r *Hash) []byte {
	dst = append(dst, byte(NodeInternal), mask)
	if mask&1 != 0 {
		dst = append(dst, l[:]...)
	}
	if mask&2 != 0 {
		dst = append(dst, r[:]...)
	}
	return dst
}

func appendStem(dst []byte, stem *Stem, bm *[4]uint64, vals []byte) []byte {
	dst = append(dst, byte(NodeStem))
	dst = append(dst, stem[:]...)
	for w := range 4 {
		dst = binary.BigEndian.AppendUint64(dst, bm[w])
	}
	return append(dst, vals...)
}

func nodeKeySize(prefix []byte, depth int) int {
	return len(prefix) + (depth+7)/8 + 1
}

// appendNodeKey appends the storage key of the node at depth on the path
// given by the leading bits of path.
func appendNodeKey(dst, prefix []byte, path *Stem, depth int) []byte {
	dst = append(dst, prefix...)
	full := depth / 8
	dst = append(dst, path[:full]...)
	if rem := depth % 8; rem != 0 {
		dst = append(dst, path[full]&^(0xff>>rem))
	}
	return append(dst, byte(depth))
}

// NodeKey returns the storage key (without the tree's prefix) of the node
// at the given depth on stem's path.
func NodeKey(stem *Stem, depth int) []byte {
	if depth < 0 || depth > MaxDepth {
		return nil
	}
	return appendNodeKey(nil, nil, stem, depth)
}

package bintrie

// nodeKind is the kind tag of a nodeRef.
type nodeKind uint32

const (
	kindEmpty    nodeKind = 0 // no node; the zero nodeRef
	kindInternal nodeKind = 1 // an internal node in the internal pool
	kindStem     nodeKind = 2 // a stem node in the stem pool
	kindHashed   nodeKind = 3 // a node known only by its hash, not yet loaded
)

const (
	refKindShift = 30
	refIndexMask = 1<<refKindShift - 1
)

// nodeRef addresses a node in the tree's pools: a 2-bit kind and a 30-bit
// index. It holds no Go pointer, so nodes that contain NodeRefs live in
// memory the garbage collector does not scan.
type nodeRef uint32

// emptyRef is the empty subtree.
const emptyRef nodeRef = 0

func makeRef(k nodeKind, idx uint32) nodeRef {
	return nodeRef(uint32(k)<<refKindShift | idx)
}

func (r nodeRef) kind() nodeKind { return nodeKind(r >> refKindShift) }
func (r nodeRef) index() uint32  { return uint32(r) & refIndexMask }

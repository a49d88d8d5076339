package statesync

import (
	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// MaxServedBytes bounds the node encodings of one mptdata answer. neo-go
// fills up to the message limit (32 MiB); n3node stops at 4 MiB, so that
// a peer's queued answers stay small (requesters ask again for the rest).
const MaxServedBytes = 4 << 20

// ServeMPTNodes answers a getmptdata request from the chain's trie: for
// each requested hash in order, the subtree under that node in pre-order
// (a branch's value first), each node once, until the answer would exceed
// MaxServedBytes (neo-go handleGetMPTDataCmd). Nodes the store lacks are
// skipped (neo-go drops the requesting peer instead).
func (m *Module) ServeMPTNodes(hashes []hash.Uint256) [][]byte {
	return ServeNodes(m.bc.StateSyncStore(), m.cfg.Mode, hashes, MaxServedBytes)
}

// ServeNodes is ServeMPTNodes over any node store in mode, with a size
// limit (encodings plus their var-int lengths).
func ServeNodes(st storage.Store, mode mpt.Mode, hashes []hash.Uint256, limit int) [][]byte {
	// An empty billet is only a node reader here.
	rd, err := mpt.NewBillet(hash.Uint256{}, mode, st)
	if err != nil {
		return nil
	}
	var (
		out   [][]byte
		added = make(map[hash.Uint256]struct{})
		left  = limit
	)
	var walk func(h hash.Uint256) bool // false: the answer is full
	walk = func(h hash.Uint256) bool {
		n, err := rd.GetFromStore(h)
		if err != nil {
			return true // not stored here: skipped
		}
		if _, ok := added[h]; !ok {
			b := n.Bytes()
			size := nio.VarBytesSize(len(b))
			if size > left {
				return false
			}
			out = append(out, b)
			added[h] = struct{}{}
			left -= size
		}
		switch n.Type() {
		case mpt.BranchT:
			if c := n.Child(mpt.BranchChildCount - 1); !c.IsEmpty() {
				if !walk(c.Hash()) {
					return false
				}
			}
			for i := range mpt.BranchChildCount - 1 {
				if c := n.Child(i); !c.IsEmpty() {
					if !walk(c.Hash()) {
						return false
					}
				}
			}
		case mpt.ExtensionT:
			return walk(n.Next().Hash())
		}
		return true
	}
	for _, h := range hashes {
		if left <= 2 {
			break
		}
		walk(h)
	}
	return out
}

package statesync_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/statesync"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	ngmpt "github.com/nspcc-dev/neo-go/pkg/core/mpt"
	ngstorage "github.com/nspcc-dev/neo-go/pkg/core/storage"
	ngio "github.com/nspcc-dev/neo-go/pkg/io"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"
	"github.com/stretchr/testify/require"
)

// ngServe is neo-go 0.120.0's handleGetMPTDataCmd (with the size limit
// as a parameter) over its own trie.
func ngServe(st *ngstorage.MemCachedStore, hashes []hash.Uint256, capLeft int) [][]byte {
	var out [][]byte
	added := map[ngutil.Uint256]struct{}{}
	for _, h := range hashes {
		if capLeft <= 2 {
			break
		}
		b := ngmpt.NewBillet(ngutil.Uint256(h), ngmpt.ModeAll, ngmpt.DummySTTempStoragePrefix, ngstorage.NewMemCachedStore(st))
		_ = b.Traverse(func(_ []byte, n ngmpt.Node, node []byte) bool {
			if _, ok := added[n.Hash()]; ok {
				return false
			}
			size := len(node) + ngio.GetVarSize(len(node))
			if size > capLeft {
				return true
			}
			out = append(out, node)
			added[n.Hash()] = struct{}{}
			capLeft -= size
			return false
		}, false)
	}
	return out
}

// TestServeNeoGo: a getmptdata answer is the one neo-go gives for the same
// trie, node for node, for the root, inner nodes and several size limits.
func TestServeNeoGo(t *testing.T) {
	src, root := testTrie(t, 300, mpt.ModeAll)
	ngst := ngstorage.NewMemCachedStore(ngstorage.NewMemoryStore())
	ngtr := ngmpt.NewTrie(nil, ngmpt.ModeAll, ngst)
	items := 0
	mpt.NewTrie(root, mpt.ModeAll, src).Seek(nil, nil, false, func(k, v []byte) bool {
		require.NoError(t, ngtr.Put(append([]byte{}, k...), append([]byte{}, v...)))
		items++
		return true
	})
	require.Equal(t, 300, items)
	ngtr.Flush(1)
	require.Equal(t, root, hash.Uint256(ngtr.StateRoot()))

	all := statesync.ServeNodes(src, mpt.ModeAll, []hash.Uint256{root}, 1<<30)
	var inner []hash.Uint256
	for i, n := range all {
		if i%7 == 3 {
			inner = append(inner, hash.Hash256(n))
		}
	}
	for _, hs := range [][]hash.Uint256{{root}, inner, append(inner[3:9], root), {{1, 2}, root}} {
		for _, limit := range []int{1 << 30, 5000, 1000, 100, 3} {
			ours := statesync.ServeNodes(src, mpt.ModeAll, hs, limit)
			theirs := ngServe(ngst, hs, limit)
			require.Equal(t, theirs, ours, "limit %d, %d hashes", limit, len(hs))
			w := nio.NewBufBinWriter()
			for _, n := range ours {
				w.WriteVarBytes(n)
			}
			require.LessOrEqual(t, w.Len(), limit)
		}
	}
}

// BenchmarkServeNodesNeoGo is BenchmarkServeNodes for neo-go 0.120.0's
// answer over its own copy of the trie.
func BenchmarkServeNodesNeoGo(b *testing.B) {
	src, root := testTrie(b, 10000, mpt.ModeAll)
	ngst := ngstorage.NewMemCachedStore(ngstorage.NewMemoryStore())
	ngtr := ngmpt.NewTrie(nil, ngmpt.ModeAll, ngst)
	_ = mpt.NewTrie(root, mpt.ModeAll, src).Seek(nil, nil, false, func(k, v []byte) bool {
		_ = ngtr.Put(append([]byte{}, k...), append([]byte{}, v...))
		return true
	})
	ngtr.Flush(1)
	if _, err := ngst.Persist(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ngServe(ngst, []hash.Uint256{root}, statesync.MaxServedBytes)
	}
}

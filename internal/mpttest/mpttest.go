package mpttest

import (
	"math/rand/v2"
	"testing"

	"github.com/n3node/n3node/pkg/core/mpt"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/stretchr/testify/require"
)

// RandomTrie makes a trie of n random items (keys with shared prefixes,
// so it has extensions and branches; a fixed seed) in a fresh store and returns
// the store and the root.
func RandomTrie(t testing.TB, n int, mode mpt.Mode) (storage.Store, hash.Uint256) {
	st := storage.NewMemoryStore()
	tr := mpt.NewTrie(hash.Uint256{}, mode, st)
	rng := rand.New(rand.NewPCG(3, 5))
	kvs := make([]mpt.KeyValue, 0, n)
	seen := map[string]bool{}
	for len(kvs) < n {
		k := make([]byte, 4+rng.IntN(8))
		for i := range k {
			k[i] = byte(rng.IntN(4)) // shared prefixes: extensions and branches
		}
		if seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		v := make([]byte, rng.IntN(30))
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		kvs = append(kvs, mpt.KeyValue{Key: k, Value: v})
	}
	b, err := mpt.NewBatch(kvs)
	require.NoError(t, err)
	require.NoError(t, tr.PutBatch(b))
	require.NoError(t, tr.Flush(1))
	return st, tr.StateRoot()
}

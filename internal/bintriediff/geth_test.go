package bintriediff

import (
	"github.com/ethereum/go-ethereum/common"
	gbt "github.com/ethereum/go-ethereum/trie/bintrie"
	"github.com/ethereum/go-ethereum/triedb/database"

	"github.com/n3node/n3node/pkg/core/bintrie"
	"github.com/n3node/n3node/pkg/core/storage"
)

// gethGroupDepth is go-ethereum's default (triedb.DefaultBinTrieGroupDepth).
const gethGroupDepth = 5

// memDB is a map-backed database.NodeDatabase keyed by node path.
type memDB struct{ m map[string][]byte }

func newMemDB() *memDB { return &memDB{m: map[string][]byte{}} }

func (d *memDB) NodeReader(common.Hash) (database.NodeReader, error) { return d, nil }

func (d *memDB) Node(_ common.Hash, path []byte, _ common.Hash) ([]byte, error) {
	return d.m[string(path)], nil
}

// gethTree wraps go-ethereum's tree with the rules the harness must keep:
// values are copied (geth keeps the caller's slice), only one slot is set
// per UpdateStem (never an all-nil slot list), values are 32 bytes.
type gethTree struct {
	t  *gbt.BinaryTrie
	db *memDB
}

func newGethTree() *gethTree {
	db := newMemDB()
	t, err := gbt.NewBinaryTrie(common.Hash{}, db, gethGroupDepth)
	if err != nil {
		panic(err)
	}
	return &gethTree{t: t, db: db}
}

func (g *gethTree) put(k *bintrie.Key, v *bintrie.Value) error {
	slots := make([][]byte, bintrie.StemNodeWidth)
	slots[k[31]] = append([]byte(nil), v[:]...)
	return g.t.UpdateStem(k[:bintrie.StemSize], slots)
}

func (g *gethTree) get(k *bintrie.Key) ([]byte, error) {
	return g.t.GetWithHashedKey(k[:])
}

func (g *gethTree) hash() bintrie.Hash { return bintrie.Hash(g.t.Hash()) }

// commit flushes into the map and reopens from it, as the vectors' commit.
func (g *gethTree) commit() error {
	root, ns := g.t.Commit(false)
	for path, n := range ns.Nodes {
		if n.IsDeleted() {
			delete(g.db.m, path)
		} else {
			g.db.m[path] = n.Blob
		}
	}
	t, err := gbt.NewBinaryTrie(root, g.db, gethGroupDepth)
	if err != nil {
		return err
	}
	g.t = t
	return nil
}

// ourTree wraps ours with the same shape.
type ourTree struct {
	t     *bintrie.Tree
	store *storage.MemoryStore
}

func newOurTree() *ourTree {
	return &ourTree{t: bintrie.New(bintrie.Options{}), store: storage.NewMemoryStore()}
}

func (o *ourTree) commit() error {
	root, ch := o.t.Commit()
	if err := o.store.PutChangeSet(ch); err != nil {
		return err
	}
	t, err := bintrie.Open(o.store, root, bintrie.Options{})
	if err != nil {
		return err
	}
	o.t = t
	return nil
}

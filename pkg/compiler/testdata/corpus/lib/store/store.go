package store

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"

	"n3node.test/corpus/lib/mathx"
)

type Store struct {
	prefix string
}

func New(p string) Store {
	return Store{prefix: p}
}

func (s Store) Put(k string, v int) {
	storage.Put(storage.GetContext(), s.prefix+k, mathx.Mul(v, 1))
}

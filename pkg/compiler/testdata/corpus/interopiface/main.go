package interopiface

import (
	"github.com/nspcc-dev/neo-go/pkg/interop"
	"github.com/nspcc-dev/neo-go/pkg/interop/iterator"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

func Iter() interop.Interface {
	return storage.Find(storage.GetReadOnlyContext(), "k", storage.None)
}

func Next(it iterator.Iterator) bool {
	return iterator.Next(it)
}

func Ctx() storage.Context {
	return storage.GetReadOnlyContext()
}

func Hashes(a interop.Hash160, b interop.Hash256, c interop.PublicKey, d interop.Signature) int {
	return len(a) + len(b) + len(c) + len(d)
}

package iterators

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/iterator"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

type KV struct {
	Key   []byte
	Value []byte
}

func Keys(prefix []byte) [][]byte {
	it := storage.Find(storage.GetReadOnlyContext(), prefix, storage.KeysOnly|storage.RemovePrefix)
	var res [][]byte
	for iterator.Next(it) {
		res = append(res, iterator.Value(it).([]byte))
	}
	return res
}

func Pairs(prefix string) int {
	it := storage.Find(storage.GetReadOnlyContext(), prefix, storage.None)
	n := 0
	for iterator.Next(it) {
		kv := iterator.Value(it).(KV)
		n += len(kv.Key) + len(kv.Value)
	}
	return n
}

func Raw(prefix string) iterator.Iterator {
	return storage.Find(storage.GetReadOnlyContext(), prefix, storage.ValuesOnly)
}

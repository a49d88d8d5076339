package storageops

import (
	"github.com/nspcc-dev/neo-go/pkg/interop/iterator"
	"github.com/nspcc-dev/neo-go/pkg/interop/storage"
)

func Put(key string, value int) {
	ctx := storage.GetContext()
	storage.Put(ctx, key, value)
}

func Get(key []byte) int {
	ctx := storage.GetReadOnlyContext()
	v := storage.Get(ctx, key)
	if v == nil {
		return 0
	}
	return v.(int)
}

func GetBytes(key string) []byte {
	return storage.Get(storage.GetContext(), key).([]byte)
}

func Del(key string) {
	storage.Delete(storage.GetContext(), key)
}

func Sum(prefix string) int {
	it := storage.Find(storage.GetContext(), prefix, storage.ValuesOnly|storage.DeserializeValues)
	s := 0
	for iterator.Next(it) {
		s += iterator.Value(it).(int)
	}
	return s
}

func Local(key []byte) []byte {
	return storage.LocalGet(key)
}

package interop

import (
	"bytes"
	"errors"
	"fmt"
	"iter"

	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// StorageContext is the value of the InteropInterface items
// System.Storage.GetContext returns (C# StorageContext).
type StorageContext struct {
	ID       int32
	ReadOnly bool
}

// FindOptions of System.Storage.Find (C# FindOptions).
const (
	FindDefault = 0
	// What a result holds: the key, the value, the key without the prefix.
	FindKeysOnly     = 1 << 0
	FindValuesOnly   = 1 << 2
	FindRemovePrefix = 1 << 1
	// How a value is turned into an item.
	FindDeserialize = 1 << 3
	FindPick0       = 1 << 4
	FindPick1       = 1 << 5
	// Iteration order.
	FindBackwards = 1 << 7
	FindAll       = FindKeysOnly | FindRemovePrefix | FindValuesOnly | FindDeserialize | FindPick0 | FindPick1 | FindBackwards
)

// ErrFindOptions is returned for invalid Find options.
var ErrFindOptions = errors.New("invalid Find options")

// errReadOnly is a write through a read-only storage context.
var errReadOnly = errors.New("storage.Context is read only")

// CheckFindOptions checks a combination of Find options as neo-go does.
func CheckFindOptions(opts int64) error {
	switch {
	case opts&^FindAll != 0:
		return fmt.Errorf("%w: unknown flag", ErrFindOptions)
	case opts&FindKeysOnly != 0 && opts&(FindDeserialize|FindPick0|FindPick1) != 0:
		return fmt.Errorf("%w KeysOnly conflicts with other options", ErrFindOptions)
	case opts&FindValuesOnly != 0 && opts&(FindKeysOnly|FindRemovePrefix) != 0:
		return fmt.Errorf("%w: KeysOnly conflicts with ValuesOnly", ErrFindOptions)
	case opts&FindPick0 != 0 && opts&FindPick1 != 0:
		return fmt.Errorf("%w: Pick0 conflicts with Pick1", ErrFindOptions)
	case opts&FindDeserialize == 0 && opts&(FindPick0|FindPick1) != 0:
		return fmt.Errorf("%w: PickN is specified without Deserialize", ErrFindOptions)
	}
	return nil
}

// popStorageContext pops a storage context. neo-go takes the item's Go
// value and names its Go type when it is not a storage context.
func (ic *Context) popStorageContext() (*StorageContext, error) {
	it, err := ic.VM.Pop()
	if err != nil {
		return nil, err
	}
	if i, ok := it.(*stackitem.Interop); ok {
		if stc, ok := i.Value().(*StorageContext); ok {
			return stc, nil
		}
	}
	return nil, argError("%s is not a storage.Context", neoGoValueType(it))
}

// neoGoValueType is the Go type of the value neo-go keeps for it (its
// Value()), as fmt's %T prints it.
func neoGoValueType(it stackitem.Item) string {
	switch x := it.(type) {
	case stackitem.Null:
		return "<nil>"
	case stackitem.Bool:
		return "bool"
	case *stackitem.Integer:
		return "*big.Int"
	case *stackitem.ByteString, *stackitem.Buffer:
		return "[]uint8"
	case *stackitem.Array:
		return "[]stackitem.Item"
	case *stackitem.Map:
		return "[]stackitem.MapElement"
	case *stackitem.Pointer:
		return "int"
	case *stackitem.Interop:
		if _, ok := x.Value().(*StorageIterator); ok {
			return "*storage.Iterator"
		}
		return fmt.Sprintf("%T", x.Value())
	}
	return fmt.Sprintf("%T", it)
}

// currentContractID returns the storage id of the executing contract.
func (ic *Context) currentContractID() (int32, error) {
	cs, err := ic.GetContract(ic.CurrentScriptHash())
	if err != nil {
		return 0, fmt.Errorf("storage context can not be retrieved in dynamic scripts: %w", err)
	}
	return cs.ID, nil
}

func storageGetContext(ic *Context) error         { return getContextInternal(ic, false) }
func storageGetReadOnlyContext(ic *Context) error { return getContextInternal(ic, true) }

func getContextInternal(ic *Context, readOnly bool) error {
	id, err := ic.currentContractID()
	if err != nil {
		return err
	}
	ic.VM.Push(stackitem.NewInterop(&StorageContext{ID: id, ReadOnly: readOnly}))
	return nil
}

func storageAsReadOnly(ic *Context) error {
	stc, err := ic.popStorageContext()
	if err != nil {
		return err
	}
	if !stc.ReadOnly {
		stc = &StorageContext{ID: stc.ID, ReadOnly: true}
	}
	ic.VM.Push(stackitem.NewInterop(stc))
	return nil
}

// storageTarget yields the storage context of a storage call once the
// call's other arguments are popped.
type storageTarget func() (*StorageContext, error)

// withContext makes a System.Storage call, whose storage context is popped
// first, from the body f it shares with System.Storage.Local.
func withContext(f func(ic *Context, target storageTarget) error) func(*Context) error {
	return func(ic *Context) error {
		stc, err := ic.popStorageContext()
		if err != nil {
			return err
		}
		return f(ic, func() (*StorageContext, error) { return stc, nil })
	}
}

// local makes a System.Storage.Local call (the executing contract's
// storage, found after the arguments are popped) from the body f.
func local(f func(ic *Context, target storageTarget) error) func(*Context) error {
	return func(ic *Context) error {
		return f(ic, func() (*StorageContext, error) {
			id, err := ic.currentContractID()
			if err != nil {
				return nil, err
			}
			return &StorageContext{ID: id}, nil
		})
	}
}

// popKey pops the key of Get and Delete, the only argument besides the
// context, and then finds the context.
func popKey(ic *Context, target storageTarget) ([]byte, *StorageContext, error) {
	key, err := ic.popBytes()
	if err != nil {
		return nil, nil, err
	}
	stc, err := target()
	if err != nil {
		return nil, nil, err
	}
	return key, stc, nil
}

func storageGet(ic *Context, target storageTarget) error {
	key, stc, err := popKey(ic, target)
	if err != nil {
		return err
	}
	if v := ic.DAO.GetStorageItem(stc.ID, key); v != nil {
		ic.VM.Push(stackitem.NewByteString(v))
	} else {
		ic.VM.Push(stackitem.Null{})
	}
	return nil
}

func storagePut(ic *Context, target storageTarget) error {
	key, err := ic.popBytes()
	if err != nil {
		return err
	}
	value, err := ic.popBytes()
	if err != nil {
		return err
	}
	stc, err := target()
	if err != nil {
		return err
	}
	return ic.putWithContext(stc, key, value)
}

// StorageFee returns the number of bytes a Put pays for (C#
// ApplicationEngine.Put): a new item pays for key and value; an overwrite
// pays a quarter of the bytes it reuses (rounded up) plus the growth;
// writing an empty value costs nothing.
func StorageFee(old []byte, exists bool, key, value []byte) int64 {
	if !exists {
		return int64(len(key) + len(value))
	}
	switch {
	case len(value) == 0:
		return 0
	case len(value) <= len(old):
		return int64((len(value)-1)/4 + 1)
	case len(old) == 0:
		return int64(len(value))
	default:
		return int64((len(old)-1)/4 + 1 + len(value) - len(old))
	}
}

// putWithContext is C# ApplicationEngine.Put.
func (ic *Context) putWithContext(stc *StorageContext, key, value []byte) error {
	if len(key) > dao.MaxStorageKeyLen {
		return errors.New("key is too big")
	}
	if len(value) > dao.MaxStorageValueLen {
		return errors.New("value is too big")
	}
	if stc.ReadOnly {
		return errReadOnly
	}
	old := ic.DAO.GetStorageItem(stc.ID, key)
	if err := ic.VM.AddGas(StorageFee(old, old != nil, key, value) * ic.StoragePrice); err != nil {
		return err
	}
	ic.DAO.PutStorageItem(stc.ID, key, value)
	return nil
}

func storageDelete(ic *Context, target storageTarget) error {
	key, stc, err := popKey(ic, target)
	if err != nil {
		return err
	}
	if stc.ReadOnly {
		return errReadOnly
	}
	ic.DAO.DeleteStorageItem(stc.ID, key)
	return nil
}

func storageFind(ic *Context, target storageTarget) error {
	prefix, err := ic.popBytes()
	if err != nil {
		return err
	}
	opts, err := ic.popInt32Flags()
	if err != nil {
		return err
	}
	stc, err := target()
	if err != nil {
		return err
	}
	if err := CheckFindOptions(opts); err != nil {
		return err
	}
	it := NewStorageIterator(ic, stc.ID, prefix, opts, nil)
	ic.VM.Push(stackitem.NewInterop(it))
	return nil
}

// Iterator is the value of iterator InteropInterface items
// (System.Iterator.Next/Value).
type Iterator interface {
	// Next advances the iterator and reports whether there is a value.
	Next() bool
	// Value returns the current value.
	Value() (stackitem.Item, error)
}

type storageKV struct{ k, v []byte }

// StorageIterator iterates over contract storage items with a prefix (C#
// StorageIterator). It sees the storage as it was when it was made.
type StorageIterator struct {
	next   func() (storageKV, bool)
	stop   func()
	first  storageKV
	primed bool
	cur    storageKV
	has    bool
	prefix []byte
	opts   int64
}

// NewStorageIterator makes an iterator over the storage items of contract id
// whose key starts with prefix, with Find options opts (already checked).
// The walk starts at once, so later changes are not seen; the iterator is
// released when the execution is finalized. filter, if not nil, skips the
// items it rejects (it gets keys without the prefix).
func NewStorageIterator(ic *Context, id int32, prefix []byte, opts int64, filter func(k, v []byte) bool) *StorageIterator {
	d := ic.DAO
	rng := storage.SeekRange{Prefix: bytes.Clone(prefix), Backwards: opts&FindBackwards != 0}
	seq := iter.Seq[storageKV](func(yield func(storageKV) bool) {
		d.Seek(id, rng, func(k, v []byte) bool {
			if filter != nil && !filter(k, v) {
				return true
			}
			return yield(storageKV{k, v})
		})
	})
	next, stop := iter.Pull(seq)
	it := &StorageIterator{next: next, stop: stop, prefix: bytes.Clone(prefix), opts: opts}
	// Take the first entry now: the walk's snapshot of the layers is made
	// when it starts.
	kv, ok := next()
	if ok {
		it.first = storageKV{bytes.Clone(kv.k), bytes.Clone(kv.v)}
		it.primed = true
	} else {
		stop()
	}
	ic.RegisterCloser(stop)
	return it
}

// Next implements Iterator.
func (s *StorageIterator) Next() bool {
	if s.primed {
		s.cur, s.has, s.primed = s.first, true, false
		return true
	}
	kv, ok := s.next()
	if !ok {
		s.has = false
		return false
	}
	s.cur = storageKV{bytes.Clone(kv.k), bytes.Clone(kv.v)}
	s.has = true
	return true
}

// Value implements Iterator.
func (s *StorageIterator) Value() (stackitem.Item, error) {
	if !s.has {
		return nil, errors.New("iterator index out of range")
	}
	key := s.cur.k
	if s.opts&FindRemovePrefix == 0 {
		key = append(bytes.Clone(s.prefix), key...)
	}
	if s.opts&FindKeysOnly != 0 {
		return stackitem.NewByteString(key), nil
	}
	var value stackitem.Item = stackitem.NewByteString(s.cur.v)
	if s.opts&FindDeserialize != 0 {
		var err error
		if value, err = stackitem.Deserialize(s.cur.v); err != nil {
			return nil, err
		}
	}
	if s.opts&(FindPick0|FindPick1) != 0 {
		idx := 0
		if s.opts&FindPick1 != 0 {
			idx = 1
		}
		a, ok := value.(*stackitem.Array)
		if !ok || a.Len() <= idx {
			return nil, fmt.Errorf("%w: cannot pick field %d of %s", ErrInvalidArgument, idx, value.Type())
		}
		value = a.Get(idx)
	}
	if s.opts&FindValuesOnly != 0 {
		return value, nil
	}
	return stackitem.NewStruct([]stackitem.Item{stackitem.NewByteString(key), value}), nil
}

// SliceIterator iterates over prepared items (natives' iterators over
// in-memory lists).
type SliceIterator struct {
	items []stackitem.Item
	next  bool
}

// NewSliceIterator returns an iterator over items.
func NewSliceIterator(items []stackitem.Item) *SliceIterator { return &SliceIterator{items: items} }

// Next implements Iterator.
func (s *SliceIterator) Next() bool {
	if s.next {
		s.items = s.items[1:]
	}
	s.next = len(s.items) > 0
	return s.next
}

// Value implements Iterator.
func (s *SliceIterator) Value() (stackitem.Item, error) {
	if !s.next {
		return nil, errors.New("iterator index out of range")
	}
	return s.items[0], nil
}

func (ic *Context) popIterator() (Iterator, error) {
	return popInteropAs[Iterator](ic, "an iterator")
}

func iteratorNext(ic *Context) error {
	it, err := ic.popIterator()
	if err != nil {
		return err
	}
	ic.VM.Push(stackitem.Bool(it.Next()))
	return nil
}

func iteratorValue(ic *Context) error {
	it, err := ic.popIterator()
	if err != nil {
		return err
	}
	v, err := it.Value()
	if err != nil {
		return &PanicError{Err: err} // neo-go's iterators panic
	}
	ic.VM.Push(v)
	return nil
}

package dao

import (
	"encoding/binary"
	"errors"
	"maps"
	"math/big"
	"sync"

	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Key prefixes (see the package documentation).
const (
	DataExecutable      byte = 0x01
	DataAppExecResult   byte = 0x02
	DataMPT             byte = 0x03
	DataMPTAux          byte = 0x04
	STStorage           byte = 0x70
	STTempStorage       byte = 0x71
	STNEP11Transfers    byte = 0x72
	STNEP17Transfers    byte = 0x73
	STTokenTransferInfo byte = 0x74
	IXHeaderHash        byte = 0x80
	SYSCurrentBlock     byte = 0xc0
	SYSCurrentHeader    byte = 0xc1
	SYSVersion          byte = 0xf0
)

// Executable record kinds (the first value byte under DataExecutable).
const (
	ExecBlock       byte = 1
	ExecTransaction byte = 2
)

// MaxStorageKeyLen is the longest contract storage key (C#
// ApplicationEngine.MaxStorageKeySize).
const MaxStorageKeyLen = 64

// MaxStorageValueLen is the longest contract storage value (C#
// ApplicationEngine.MaxStorageValueSize).
const MaxStorageValueLen = 65535

// storageKeyPrefixLen is the prefix byte plus the contract id.
const storageKeyPrefixLen = 1 + 4

// ErrNotFound is returned for records that are not stored.
var ErrNotFound = storage.ErrKeyNotFound

// NativeContractCache is the decoded state a native contract keeps per DAO
// layer. Copy must return a copy that can be changed without affecting the
// original.
type NativeContractCache interface {
	Copy() NativeContractCache
}

// Simple is one DAO layer.
type Simple struct {
	// Store is the layer's storage; writes go here.
	Store *storage.MemCachedStore
	// StateRootInHeader selects the header format of stored blocks (set
	// on the bottom layer; the layers above inherit it).
	StateRootInHeader bool

	cacheMu     sync.RWMutex
	nativeCache map[int32]NativeContractCache
	lower       *Simple
	private     bool
	keyBuf      []byte
}

// NewSimple returns a shared DAO layer over backend.
func NewSimple(backend storage.Store) *Simple {
	return &Simple{
		Store:       storage.NewMemCachedStore(backend),
		nativeCache: make(map[int32]NativeContractCache),
	}
}

// GetWrapped returns a new shared layer above d.
func (d *Simple) GetWrapped() *Simple {
	return &Simple{
		Store:       storage.NewMemCachedStore(d.Store),
		nativeCache: make(map[int32]NativeContractCache),
		lower:       d,

		StateRootInHeader: d.StateRootInHeader,
	}
}

// GetPrivate returns a new private (single-goroutine) layer above d.
func (d *Simple) GetPrivate() *Simple {
	return &Simple{
		Store:       storage.NewPrivateMemCachedStore(d.Store),
		nativeCache: make(map[int32]NativeContractCache),
		lower:       d,
		private:     true,
		keyBuf:      d.keyBuf,

		StateRootInHeader: d.StateRootInHeader,
	}
}

// Lower returns the layer d was made from (nil for the bottom layer).
func (d *Simple) Lower() *Simple { return d.lower }

// Persist writes the layer's changes to the layer below (the backend for the
// bottom layer) and moves its native caches down. The layer stays usable and
// empty.
func (d *Simple) Persist() (int, error) {
	d.persistNativeCache()
	return d.Store.Persist()
}

// PersistSync is Persist with the store locked for the whole write (see
// storage.MemCachedStore.PersistSync).
func (d *Simple) PersistSync() (int, error) {
	d.persistNativeCache()
	return d.Store.PersistSync()
}

// Discard drops the layer's changes and native caches.
func (d *Simple) Discard() {
	d.lockCache()
	clear(d.nativeCache)
	d.unlockCache()
	d.Store.Discard()
}

func (d *Simple) persistNativeCache() {
	if d.lower == nil {
		return
	}
	d.lockCache()
	defer d.unlockCache()
	if len(d.nativeCache) == 0 {
		return
	}
	d.lower.lockCache()
	maps.Copy(d.lower.nativeCache, d.nativeCache)
	d.lower.unlockCache()
	clear(d.nativeCache)
}

func (d *Simple) lockCache() {
	if !d.private {
		d.cacheMu.Lock()
	}
}

func (d *Simple) unlockCache() {
	if !d.private {
		d.cacheMu.Unlock()
	}
}

// GetROCache returns the native cache of contract id from the nearest layer
// that has one (nil if none). The caller must not modify it.
func (d *Simple) GetROCache(id int32) NativeContractCache {
	for l := d; l != nil; l = l.lower {
		if !l.private {
			l.cacheMu.RLock()
		}
		c, ok := l.nativeCache[id]
		if !l.private {
			l.cacheMu.RUnlock()
		}
		if ok {
			return c
		}
	}
	return nil
}

// GetRWCache returns the native cache of contract id for modification: the
// layer's own, or a copy of the nearest lower layer's made the layer's own
// (nil if no layer has one).
func (d *Simple) GetRWCache(id int32) NativeContractCache {
	d.lockCache()
	c, ok := d.nativeCache[id]
	d.unlockCache()
	if ok {
		return c
	}
	var lc NativeContractCache
	if d.lower != nil {
		lc = d.lower.GetROCache(id)
	}
	if lc == nil {
		return nil
	}
	c = lc.Copy()
	d.lockCache()
	d.nativeCache[id] = c
	d.unlockCache()
	return c
}

// SetCache installs the native cache of contract id in this layer.
func (d *Simple) SetCache(id int32, c NativeContractCache) {
	d.lockCache()
	d.nativeCache[id] = c
	d.unlockCache()
}

// makeStorageKey returns 0x70 + id (LE) + key in a scratch buffer (private
// layers) or a fresh slice; the result is only valid until the next call.
func (d *Simple) makeStorageKey(id int32, key []byte) []byte {
	var buf []byte
	if d.private {
		if cap(d.keyBuf) < storageKeyPrefixLen+len(key) {
			d.keyBuf = make([]byte, 0, storageKeyPrefixLen+max(len(key), MaxStorageKeyLen))
		}
		buf = d.keyBuf[:0]
	} else {
		buf = make([]byte, 0, storageKeyPrefixLen+len(key))
	}
	buf = append(buf, STStorage)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(id))
	return append(buf, key...)
}

// StorageKey returns the store key of a contract storage item: 0x70, the
// contract id (4 bytes, little-endian) and the key.
func StorageKey(id int32, key []byte) []byte {
	buf := make([]byte, 0, storageKeyPrefixLen+len(key))
	buf = append(buf, STStorage)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(id))
	return append(buf, key...)
}

// GetStorageItem returns the value of a contract storage item, or nil if
// there is none.
func (d *Simple) GetStorageItem(id int32, key []byte) []byte {
	v, err := d.Store.Get(d.makeStorageKey(id, key))
	if err != nil {
		return nil
	}
	return v
}

// PutStorageItem stores a contract storage item (the value is copied).
func (d *Simple) PutStorageItem(id int32, key, value []byte) {
	d.Store.Put(d.makeStorageKey(id, key), value)
}

// DeleteStorageItem deletes a contract storage item.
func (d *Simple) DeleteStorageItem(id int32, key []byte) {
	d.Store.Delete(d.makeStorageKey(id, key))
}

// Seek walks the storage items of contract id in rng (Prefix and Start are
// relative to the contract's key space); f gets the keys without the
// contract prefix and without rng.Prefix (as neo-go's DAO does). k and v are
// valid only during the call.
func (d *Simple) Seek(id int32, rng storage.SeekRange, f func(k, v []byte) bool) {
	prefix := make([]byte, 0, storageKeyPrefixLen+len(rng.Prefix))
	prefix = append(prefix, STStorage)
	prefix = binary.LittleEndian.AppendUint32(prefix, uint32(id))
	prefix = append(prefix, rng.Prefix...)
	pl := len(prefix)
	d.Store.Seek(storage.SeekRange{Prefix: prefix, Start: rng.Start, Backwards: rng.Backwards}, func(k, v []byte) bool {
		return f(k[pl:], v)
	})
}

// GetStorageConvertible decodes a storage item stored as a serialized stack
// item into conv; ErrNotFound if there is none.
func (d *Simple) GetStorageConvertible(id int32, key []byte, conv stackitem.Convertible) error {
	v := d.GetStorageItem(id, key)
	if v == nil {
		return ErrNotFound
	}
	return stackitem.DeserializeConvertible(v, conv)
}

// PutStorageConvertible stores conv as a serialized stack item.
func (d *Simple) PutStorageConvertible(id int32, key []byte, conv stackitem.Convertible) error {
	b, err := stackitem.SerializeConvertible(conv)
	if err != nil {
		return err
	}
	d.PutStorageItem(id, key, b)
	return nil
}

// PutBigInt stores an integer in the Neo integer encoding (zero is the empty
// value, as C# StorageItem.Set(BigInteger) does).
func (d *Simple) PutBigInt(id int32, key []byte, n *big.Int) {
	d.PutStorageItem(id, key, bigint.ToBytes(n))
}

// PutInt64 stores an integer in the Neo integer encoding.
func (d *Simple) PutInt64(id int32, key []byte, n int64) {
	var buf [9]byte
	d.PutStorageItem(id, key, bigint.AppendInt64(buf[:0], n))
}

// GetInt64 reads an integer stored with PutBigInt or PutInt64; ErrNotFound
// if there is none, an error if it does not fit int64.
func (d *Simple) GetInt64(id int32, key []byte) (int64, error) {
	v := d.GetStorageItem(id, key)
	if v == nil {
		return 0, ErrNotFound
	}
	n, ok := bigint.Int64FromBytes(v)
	if !ok {
		return 0, errors.New("stored integer does not fit int64")
	}
	return n, nil
}

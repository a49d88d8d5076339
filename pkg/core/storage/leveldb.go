package storage

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"

	"github.com/syndtr/goleveldb/leveldb"
	lverrors "github.com/syndtr/goleveldb/leveldb/errors"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// Defaults of LevelDBOptions' memory settings. Both live on the Go heap
// (goleveldb is pure Go), so the collector's headroom (GOGC) multiplies
// them in the resident size; the write buffer exists twice while a full
// one is compacted into a table. They are n3node's throughput choice:
// goleveldb's own defaults (8 MiB cache, 4 MiB buffer, which neo-go runs
// with) turn a heavy load into a stream of level-0 tables; 16 / 8 MiB
// measured half the resident size at 0.81x the TPS (docs/perf.md).
const (
	DefaultLevelDBCacheSize       = 32 << 20
	DefaultLevelDBWriteBufferSize = 64 << 20
)

// LevelDBOptions tunes the LevelDB backend (neo-go's default engine, kept
// so that operators can compare); zero fields take the defaults.
type LevelDBOptions struct {
	// BlockCacheSize is the block cache in bytes (default
	// DefaultLevelDBCacheSize).
	BlockCacheSize int
	// WriteBufferSize is the memtable size in bytes (default
	// DefaultLevelDBWriteBufferSize). A change set is written through the
	// journal into the memtable whatever its size (see PutChangeSet).
	WriteBufferSize int
	// BloomBitsPerKey sets the bloom filter (default 10, as neo-go); a
	// negative value disables it.
	BloomBitsPerKey int
	// SyncWrites fsyncs the journal at every PutChangeSet.
	SyncWrites bool
}

func (o LevelDBOptions) withDefaults() LevelDBOptions {
	o.BlockCacheSize = cmp.Or(o.BlockCacheSize, DefaultLevelDBCacheSize)
	o.WriteBufferSize = cmp.Or(o.WriteBufferSize, DefaultLevelDBWriteBufferSize)
	o.BloomBitsPerKey = cmp.Or(o.BloomBitsPerKey, 10)
	return o
}

// goHeapBytes is what the store may keep on the Go heap at most: the
// block cache and two write buffers (the active one and the one being
// compacted).
func (o LevelDBOptions) goHeapBytes() int64 {
	o = o.withDefaults()
	return int64(o.BlockCacheSize) + 2*int64(o.WriteBufferSize)
}

// levelDBOptions builds the goleveldb options for o.
func (o LevelDBOptions) levelDBOptions(readOnly bool) *opt.Options {
	o = o.withDefaults()
	opts := &opt.Options{
		ReadOnly:           readOnly,
		ErrorIfMissing:     readOnly,
		BlockCacheCapacity: o.BlockCacheSize,
		WriteBuffer:        o.WriteBufferSize,
		// goleveldb turns a batch larger than the write buffer into a
		// transaction, which writes a level-0 table per commit; neo-go
		// commits every persist that way and drowns in compactions. We keep
		// every change set in the journal and the memtable.
		DisableLargeBatchTransaction: true,
	}
	if o.BloomBitsPerKey > 0 {
		opts.Filter = filter.NewBloomFilter(o.BloomBitsPerKey)
	}
	return opts
}

// LevelDBStore is a Store on a goleveldb database.
type LevelDBStore struct {
	db   *leveldb.DB
	wo   *opt.WriteOptions
	ro   bool
	gate *gate
}

// OpenLevelDB opens (or, unless readOnly, creates) the LevelDB database in
// directory path.
func OpenLevelDB(path string, readOnly bool, o LevelDBOptions) (*LevelDBStore, error) {
	db, err := leveldb.OpenFile(path, o.levelDBOptions(readOnly))
	if err != nil {
		return nil, fmt.Errorf("open leveldb database %q: %w", path, classifyLevelDBErr(err))
	}
	return &LevelDBStore{db: db, wo: &opt.WriteOptions{Sync: o.SyncWrites}, ro: readOnly, gate: newGate()}, nil
}

func classifyLevelDBErr(err error) error {
	switch {
	case lverrors.IsCorrupted(err):
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	case isLockErr(err):
		return fmt.Errorf("%w: %w", ErrLocked, err)
	case errors.Is(err, fs.ErrNotExist):
		// ErrorIfMissing (read-only) on a directory without a database.
		return fmt.Errorf("%w: %w", ErrNotExist, err)
	}
	return err
}

// Get implements Store.
func (s *LevelDBStore) Get(key []byte) ([]byte, error) {
	return s.gate.get(func() ([]byte, error) {
		v, err := s.db.Get(key, nil) // goleveldb returns a fresh copy
		if errors.Is(err, leveldb.ErrNotFound) {
			return nil, ErrKeyNotFound
		}
		if err == nil && v == nil {
			v = []byte{}
		}
		return v, err
	})
}

// PutChangeSet implements Store: one batch, one journal record, applied
// atomically.
func (s *LevelDBStore) PutChangeSet(puts map[string][]byte) error {
	return s.gate.putChangeSet(s.ro, puts, func() error {
		size := 0
		for k, v := range puts {
			size += len(k) + len(v) + 12
		}
		b := leveldb.MakeBatch(size)
		for k, v := range puts {
			if v == nil {
				b.Delete(sbytes(k))
			} else {
				b.Put(sbytes(k), v)
			}
		}
		return s.db.Write(b, s.wo)
	})
}

func levelDBRange(rng SeekRange) *util.Range {
	lo, hi := rng.Bounds()
	return &util.Range{Start: lo, Limit: hi}
}

func (s *LevelDBStore) walk(rng SeekRange, f func(k, v []byte) bool) error {
	it := s.db.NewIterator(levelDBRange(rng), nil)
	start, step := cursorSteps(it, rng.Backwards)
	ok := start()
	for ok && f(it.Key(), it.Value()) {
		ok = step()
	}
	it.Release()
	return it.Error()
}

// Seek implements Store. It panics if the database fails during the walk
// (see PebbleStore.Seek).
func (s *LevelDBStore) Seek(rng SeekRange, f func(k, v []byte) bool) {
	s.gate.seek("leveldb", func() error { return s.walk(rng, f) })
}

// SeekGC implements Store: the deletions go in one batch at the end.
func (s *LevelDBStore) SeekGC(rng SeekRange, keep func(k, v []byte) bool) error {
	return s.gate.write(s.ro, func() error {
		b := new(leveldb.Batch)
		err := s.walk(rng, func(k, v []byte) bool {
			if !keep(k, v) {
				b.Delete(k) // the batch copies k
			}
			return true
		})
		if err != nil || b.Len() == 0 {
			return err
		}
		return s.db.Write(b, s.wo)
	})
}

// Close implements Store. It waits for operations in flight.
func (s *LevelDBStore) Close() error { return s.gate.closeWith(s.db.Close) }

package storage

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
)

// PebbleFormat is the on-disk format version new Pebble databases are
// created with, pinned so that a library upgrade never changes the format
// (or ratchets an existing database) behind the operator's back.
const PebbleFormat = pebble.FormatValueSeparation

// Defaults of PebbleOptions' memory settings (docs/storage.md explains
// them): together with db restore's bounded Go heap they keep a full
// import below neo-go's peak memory on the same chain (docs/perf.md,
// "Ledger"). Both are off the Go heap and resident once used.
const (
	DefaultPebbleCacheSize    = 16 << 20
	DefaultPebbleMemTableSize = 32 << 20
)

// PebbleOptions tunes the Pebble backend; zero fields take the defaults
// below (docs/storage.md explains each choice).
type PebbleOptions struct {
	// CacheSize is the block cache in bytes (default
	// DefaultPebbleCacheSize).
	CacheSize int64
	// MemTableSize is the size of one memtable in bytes (default
	// DefaultPebbleMemTableSize).
	MemTableSize uint64
	// MemTableStopWritesThreshold is how many memtables may queue for a
	// flush before writes stall (default 4).
	MemTableStopWritesThreshold int
	// BloomBitsPerKey sets the bloom filter on every level (default 10,
	// about 1% false positives); a negative value disables filters.
	BloomBitsPerKey int
	// L0StopWritesThreshold is the L0 read amplification at which writes
	// stall (default 24).
	L0StopWritesThreshold int
	// MaxConcurrentCompactions bounds background compactions (default 1).
	MaxConcurrentCompactions int
	// SyncWrites makes every PutChangeSet wait for an fsync of the WAL. Off
	// by default: a change set is atomic either way, and a power loss costs
	// at most the last few persists, which the node fetches again.
	SyncWrites bool
	// Tune, if set, is called last with the options about to be used, for
	// experiments.
	Tune func(*pebble.Options)
}

// PebbleStore is a Store on a Pebble database (the default backend).
type PebbleStore struct {
	db   *pebble.DB
	wo   *pebble.WriteOptions
	ro   bool
	gate *gate
	// broken holds the error of a commit Pebble declared fatal: its
	// commit pipeline is unusable afterwards, so every later write fails
	// with it until the database is reopened.
	broken atomic.Pointer[error]
}

func (o PebbleOptions) withDefaults() PebbleOptions {
	if o.CacheSize == 0 {
		o.CacheSize = DefaultPebbleCacheSize
	}
	if o.MemTableSize == 0 {
		o.MemTableSize = DefaultPebbleMemTableSize
	}
	if o.MemTableStopWritesThreshold == 0 {
		o.MemTableStopWritesThreshold = 4
	}
	if o.BloomBitsPerKey == 0 {
		o.BloomBitsPerKey = 10
	}
	if o.L0StopWritesThreshold == 0 {
		o.L0StopWritesThreshold = 24
	}
	if o.MaxConcurrentCompactions == 0 {
		o.MaxConcurrentCompactions = 1
	}
	return o
}

// pebbleOptions builds the pebble.Options for o.
func (o PebbleOptions) pebbleOptions(readOnly bool, logger *slog.Logger) *pebble.Options {
	o = o.withDefaults()
	opts := &pebble.Options{
		FormatMajorVersion:          PebbleFormat,
		MemTableSize:                o.MemTableSize,
		MemTableStopWritesThreshold: o.MemTableStopWritesThreshold,
		L0StopWritesThreshold:       o.L0StopWritesThreshold,
		ReadOnly:                    readOnly,
		ErrorIfNotExists:            readOnly,
		Logger:                      pebbleLogger{logger},
	}
	conc := o.MaxConcurrentCompactions
	opts.CompactionConcurrencyRange = func() (int, int) { return 1, conc }
	if o.BloomBitsPerKey > 0 {
		for i := range opts.Levels {
			opts.Levels[i].FilterPolicy = bloom.FilterPolicy(o.BloomBitsPerKey)
		}
	}
	if o.Tune != nil {
		o.Tune(opts)
	}
	return opts
}

// OpenPebble opens (or, unless readOnly, creates) the Pebble database in
// directory path.
func OpenPebble(path string, readOnly bool, o PebbleOptions, logger *slog.Logger) (*PebbleStore, error) {
	opts := o.pebbleOptions(readOnly, logger)
	if opts.Cache == nil {
		cache := pebble.NewCache(o.withDefaults().CacheSize)
		defer cache.Unref() // the DB holds its own reference
		opts.Cache = cache
	}
	db, err := pebble.Open(path, opts)
	if err != nil {
		return nil, fmt.Errorf("open pebble database %q: %w", path, classifyPebbleErr(err))
	}
	wo := pebble.NoSync
	if o.SyncWrites {
		wo = pebble.Sync
	}
	return &PebbleStore{db: db, wo: wo, ro: readOnly, gate: newGate()}, nil
}

func classifyPebbleErr(err error) error {
	switch {
	case errors.Is(err, pebble.ErrDBDoesNotExist):
		return fmt.Errorf("%w: %w", ErrNotExist, err)
	case pebble.IsCorruptionError(err):
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	case isLockErr(err) || strings.Contains(err.Error(), "lock held by current process"):
		return fmt.Errorf("%w: %w", ErrLocked, err)
	}
	return err
}

// Get implements Store.
func (s *PebbleStore) Get(key []byte) ([]byte, error) {
	return s.gate.get(func() ([]byte, error) {
		v, closer, err := s.db.Get(key)
		if err != nil {
			if errors.Is(err, pebble.ErrNotFound) {
				return nil, ErrKeyNotFound
			}
			return nil, err
		}
		out := append([]byte{}, v...)
		return out, closer.Close()
	})
}

// PutChangeSet implements Store: one batch, one WAL record, applied
// atomically. Keys go into the batch in sorted order: the memtable's
// inserter starts each search from the previous insert's position, which
// makes a 100,000-key change set about twice as fast to apply.
func (s *PebbleStore) PutChangeSet(puts map[string][]byte) error {
	return s.gate.putChangeSet(s.ro, puts, func() error {
		if err := s.brokenErr(); err != nil {
			return err
		}
		size := 0
		keys := make([]string, 0, len(puts))
		for k, v := range puts {
			size += len(k) + len(v) + 12 // kind byte, two varints, slack
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b := s.db.NewBatchWithSize(size)
		defer b.Close()
		for _, k := range keys {
			v := puts[k]
			var err error
			if v == nil {
				err = b.Delete(sbytes(k), nil)
			} else {
				err = b.Set(sbytes(k), v, nil)
			}
			if err != nil {
				return err
			}
		}
		return s.commit(b)
	})
}

// commit commits b. A commit Pebble cannot complete ends in a panic: its
// fatal commit error (a WAL write that failed, e.g. on a full disk) or an
// error panicked while it switches to a new WAL file. commit turns either
// into an error, which also breaks the store: Pebble's commit pipeline is
// unusable afterwards.
func (s *PebbleStore) commit(b *pebble.Batch) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		switch v := r.(type) {
		case pebbleFatalCommit:
			err = v.err
		case error:
			err = v
		default:
			err = fmt.Errorf("%v", v)
		}
		if !errors.Is(err, ErrDiskFull) && errors.Is(err, syscall.ENOSPC) {
			err = fmt.Errorf("%w: %w", ErrDiskFull, err)
		}
		err = fmt.Errorf("pebble commit: %w (reopen the database to continue)", err)
		s.broken.Store(&err)
	}()
	return b.Commit(s.wo)
}

func (s *PebbleStore) brokenErr() error {
	if p := s.broken.Load(); p != nil {
		return *p
	}
	return nil
}

// Seek implements Store. It panics if the database fails during the walk:
// Seek cannot report an error and a silently shortened walk could corrupt
// the node's state.
func (s *PebbleStore) Seek(rng SeekRange, f func(k, v []byte) bool) {
	s.gate.seek("pebble", func() error { return s.walk(rng, f) })
}

func (s *PebbleStore) walk(rng SeekRange, f func(k, v []byte) bool) error {
	lo, hi := rng.Bounds()
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return err
	}
	start, step := cursorSteps(it, rng.Backwards)
	for valid := start(); valid; valid = step() {
		v, err := it.ValueAndErr()
		if err != nil || !f(it.Key(), v) {
			break
		}
	}
	return errors.Join(it.Error(), it.Close())
}

// SeekGC implements Store: the deletions go in one batch at the end.
func (s *PebbleStore) SeekGC(rng SeekRange, keep func(k, v []byte) bool) error {
	return s.gate.write(s.ro, func() error {
		b := s.db.NewBatch()
		defer b.Close()
		var werr error
		err := s.walk(rng, func(k, v []byte) bool {
			if !keep(k, v) {
				werr = b.Delete(k, nil)
			}
			return werr == nil
		})
		if err = errors.Join(err, werr); err != nil {
			return err
		}
		if b.Empty() {
			return nil
		}
		if err := s.brokenErr(); err != nil {
			return err
		}
		return s.commit(b)
	})
}

// Close implements Store. It waits for operations in flight.
func (s *PebbleStore) Close() error { return s.gate.closeWith(s.db.Close) }

// DB returns the underlying database, for metrics and maintenance.
func (s *PebbleStore) DB() *pebble.DB { return s.db }

// pebbleLogger sends Pebble's log to slog: informational lines at debug
// level, errors at error level. Pebble's fatal errors (it cannot go on
// after them) are one error line and exit code 1, as Pebble's own logger
// does, except a fatal commit error, which happens on the committing
// goroutine: PutChangeSet returns it (see PebbleStore.commit).
type pebbleLogger struct{ l *slog.Logger }

// pebbleFatalCommit is the panic Fatalf raises for a fatal commit error,
// recovered by PebbleStore.commit.
type pebbleFatalCommit struct{ err error }

// pebbleExit ends the process after a fatal Pebble error (a variable for
// tests).
var pebbleExit = os.Exit

func (p pebbleLogger) logger() *slog.Logger {
	if p.l == nil {
		return slog.Default()
	}
	return p.l
}

func (p pebbleLogger) Infof(format string, args ...any) {
	p.logger().Debug("pebble: " + fmt.Sprintf(format, args...))
}

func (p pebbleLogger) Errorf(format string, args ...any) {
	p.logger().Error("pebble: " + fmt.Sprintf(format, args...))
}

func (p pebbleLogger) Fatalf(format string, args ...any) {
	var err error
	if strings.HasPrefix(format, "pebble: fatal commit error") {
		err = fmt.Errorf(format, args...)
		if strings.Contains(err.Error(), syscall.ENOSPC.Error()) {
			err = fmt.Errorf("%w: %w", ErrDiskFull, err)
		}
		panic(pebbleFatalCommit{err})
	}
	p.logger().Error("database failed, stopping: pebble: " + fmt.Sprintf(format, args...))
	pebbleExit(1)
}

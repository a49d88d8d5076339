package storage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// boltBucket is the one bucket that holds every key (the name neo-go uses).
var boltBucket = []byte("DB")

// BoltOptions tunes the BoltDB backend.
type BoltOptions struct {
	// LockTimeout is how long Open waits for another process's lock on the
	// file before failing with ErrLocked (default 1 s).
	LockTimeout time.Duration
	// NoSync skips the fsync at every commit (faster, but a power loss may
	// then corrupt the file; a killed process never does).
	NoSync bool
	// InitialMmapSize reserves address space for the file so that it need
	// not be remapped while it grows (default 0: grow as needed).
	InitialMmapSize int
}

// BoltStore is a Store on a bbolt file: one bucket, one read-write
// transaction per change set.
type BoltStore struct {
	db   *bolt.DB
	ro   bool
	gate *gate
}

// OpenBolt opens (or, unless readOnly, creates) the bbolt database file at
// path.
func OpenBolt(path string, readOnly bool, o BoltOptions) (*BoltStore, error) {
	opts := *bolt.DefaultOptions
	opts.ReadOnly = readOnly
	opts.Timeout = o.LockTimeout
	if opts.Timeout == 0 {
		opts.Timeout = time.Second
	}
	opts.NoSync = o.NoSync
	opts.InitialMmapSize = o.InitialMmapSize
	// The free list is rebuilt on open instead of being written at every
	// commit, and kept as a map, which is faster for large files.
	opts.NoFreelistSync = true
	opts.FreelistType = bolt.FreelistMapType
	if !readOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("open bolt database %q: %w", path, err)
		}
	}
	db, err := bolt.Open(path, 0o600, &opts)
	if err != nil {
		return nil, fmt.Errorf("open bolt database %q: %w", path, classifyBoltErr(err))
	}
	if readOnly {
		err = db.View(func(tx *bolt.Tx) error {
			if tx.Bucket(boltBucket) == nil {
				return fmt.Errorf("%w: bucket %q missing", ErrNotExist, boltBucket)
			}
			return nil
		})
	} else {
		err = db.Update(func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(boltBucket)
			return err
		})
	}
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open bolt database %q: %w", path, err)
	}
	return &BoltStore{db: db, ro: readOnly, gate: newGate()}, nil
}

func classifyBoltErr(err error) error {
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return fmt.Errorf("%w: %w", ErrLocked, err)
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum),
		errors.Is(err, bolterrors.ErrVersionMismatch), errors.Is(err, bolterrors.ErrInvalidMapping):
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}

// Get implements Store.
func (s *BoltStore) Get(key []byte) ([]byte, error) {
	return s.gate.get(func() ([]byte, error) {
		var val []byte
		err := s.db.View(func(tx *bolt.Tx) error {
			// bbolt's value lives in the mmap only while the transaction does.
			if v := tx.Bucket(boltBucket).Get(key); v != nil {
				val = append([]byte{}, v...)
			}
			return nil
		})
		if err == nil && val == nil {
			err = ErrKeyNotFound
		}
		return val, err
	})
}

// PutChangeSet implements Store: one read-write transaction, committed
// atomically. Keys are applied in sorted order, which bbolt's B+tree
// splits and rebalances best.
func (s *BoltStore) PutChangeSet(puts map[string][]byte) error {
	return s.gate.putChangeSet(s.ro, puts, func() error {
		keys := make([]string, 0, len(puts))
		for k := range puts {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return s.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(boltBucket)
			for _, k := range keys {
				var err error
				if v := puts[k]; v == nil {
					err = b.Delete(sbytes(k))
				} else {
					// bbolt keeps the slices until commit; k is immutable and v
					// is not modified before PutChangeSet returns.
					err = b.Put(sbytes(k), v)
				}
				if err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// boltWalk visits rng with a cursor of tx.
func boltWalk(tx *bolt.Tx, rng SeekRange, f func(c *bolt.Cursor, k, v []byte) (bool, error)) error {
	lo, hi := rng.Bounds()
	c := tx.Bucket(boltBucket).Cursor()
	var k, v []byte
	if !rng.Backwards {
		if lo == nil {
			k, v = c.First()
		} else {
			k, v = c.Seek(lo)
		}
	} else {
		if hi == nil {
			k, v = c.Last()
		} else if k, _ = c.Seek(hi); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
	}
	for k != nil && contains(lo, hi, k) {
		cont, err := f(c, k, v)
		if err != nil || !cont {
			return err
		}
		if rng.Backwards {
			k, v = c.Prev()
		} else {
			k, v = c.Next()
		}
	}
	return nil
}

// Seek implements Store. f runs inside a bbolt read transaction: it must not
// write to this store (bbolt would deadlock remapping the file). It panics
// if the database fails during the walk (see PebbleStore.Seek).
func (s *BoltStore) Seek(rng SeekRange, f func(k, v []byte) bool) {
	s.gate.seek("bolt", func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			return boltWalk(tx, rng, func(_ *bolt.Cursor, k, v []byte) (bool, error) {
				return f(k, v), nil
			})
		})
	})
}

// SeekGC implements Store: walk and deletions share one read-write
// transaction, so they commit atomically.
func (s *BoltStore) SeekGC(rng SeekRange, keep func(k, v []byte) bool) error {
	return s.gate.write(s.ro, func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			var del [][]byte
			err := boltWalk(tx, rng, func(_ *bolt.Cursor, k, v []byte) (bool, error) {
				if !keep(k, v) {
					del = append(del, bytes.Clone(k))
				}
				return true, nil
			})
			if err != nil {
				return err
			}
			b := tx.Bucket(boltBucket)
			for _, k := range del {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Close implements Store. It waits for operations in flight.
func (s *BoltStore) Close() error { return s.gate.closeWith(s.db.Close) }

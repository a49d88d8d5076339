package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"syscall"
)

// ErrDiskFull is returned by the writes of a disk store opened with a free
// space reserve (Options.MinFreeSpace) when the file system holding it
// would have less than the reserve left after the write, and wraps a write
// that failed with ENOSPC.
// Nothing of the refused write reaches the store; the same write succeeds
// once space returns.
var ErrDiskFull = errors.New("no space left on device")

// DefaultMinFreeSpace is the free space a disk store keeps in reserve when
// Options.MinFreeSpace is zero: room for Pebble to flush two memtables
// and finish a compaction, so that the engine itself never runs out.
const DefaultMinFreeSpace = 256 << 20

// IsDiskFull reports whether err says the disk is full (ErrDiskFull or
// ENOSPC from the engine).
func IsDiskFull(err error) bool {
	return errors.Is(err, ErrDiskFull) || errors.Is(err, syscall.ENOSPC)
}

// spaceGuard is a Store whose writes first check that the file system
// holding dir keeps min bytes free.
type spaceGuard struct {
	Store
	dir     string
	min     uint64
	free    func(dir string) (uint64, error)
	reserve atomic.Bool // UseReserve was called
}

// UseReserve lets the writes of s (a store from Open) go into its free
// space reserve from now on: for the last writes before Close, which hold
// what the node committed while the disk was full (they are small: the
// node takes no blocks meanwhile). Other stores ignore it.
func UseReserve(s Store) {
	if g, ok := s.(*spaceGuard); ok {
		g.reserve.Store(true)
	}
}

// withSpaceGuard wraps s (a disk store at path) per opts.MinFreeSpace: 0
// means DefaultMinFreeSpace, a negative value no reserve.
func withSpaceGuard(s Store, opts Options, engine Engine) Store {
	if opts.ReadOnly || opts.MinFreeSpace < 0 {
		return s
	}
	min := uint64(opts.MinFreeSpace)
	if min == 0 {
		min = DefaultMinFreeSpace
	}
	dir := opts.Path
	if engine == EngineBolt {
		dir = filepath.Dir(dir)
	}
	free := opts.FreeSpace
	if free == nil {
		free = FreeSpace
	}
	return &spaceGuard{Store: s, dir: dir, min: min, free: free}
}

// check returns an ErrDiskFull error when a write of size bytes would eat
// into the reserve. A file system that cannot tell lets the write go ahead.
func (g *spaceGuard) check(size uint64) error {
	if g.reserve.Load() {
		return nil
	}
	free, err := g.free(g.dir)
	if err != nil || free >= g.min+size {
		return nil
	}
	return fmt.Errorf("%w: %d bytes free on the file system of %s, the reserve is %d", ErrDiskFull, free, g.dir, g.min)
}

// PutChangeSet implements Store.
func (g *spaceGuard) PutChangeSet(puts map[string][]byte) error {
	var size uint64
	for k, v := range puts {
		size += uint64(len(k) + len(v))
	}
	if err := g.check(size); err != nil {
		return err
	}
	return wrapDiskFull(g.Store.PutChangeSet(puts))
}

// SeekGC implements Store.
func (g *spaceGuard) SeekGC(rng SeekRange, keep func(k, v []byte) bool) error {
	if err := g.check(0); err != nil {
		return err
	}
	return wrapDiskFull(g.Store.SeekGC(rng, keep))
}

func wrapDiskFull(err error) error {
	if err != nil && !errors.Is(err, ErrDiskFull) && errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("%w: %w", ErrDiskFull, err)
	}
	return err
}

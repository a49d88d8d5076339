package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"syscall"
)

// Engine names a storage backend.
type Engine string

// The storage engines. DefaultEngine is used when none is named.
const (
	EnginePebble  Engine = "pebble"
	EngineBolt    Engine = "boltdb"
	EngineLevelDB Engine = "leveldb"
	EngineMemory  Engine = "inmemory"

	DefaultEngine = EnginePebble
)

// ErrUnknownEngine is returned by ParseEngine and Open for an engine name
// they do not know.
var ErrUnknownEngine = errors.New("unknown storage engine")

// ParseEngine maps a configured engine name to an Engine, ignoring case:
// "pebble"; "bolt" or "boltdb"; "leveldb"; "memory" or "inmemory". The
// empty name means DefaultEngine.
func ParseEngine(name string) (Engine, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "":
		return DefaultEngine, nil
	case "pebble":
		return EnginePebble, nil
	case "bolt", "boltdb":
		return EngineBolt, nil
	case "leveldb":
		return EngineLevelDB, nil
	case "memory", "inmemory":
		return EngineMemory, nil
	}
	return "", fmt.Errorf("%w: %q (want pebble, boltdb, leveldb or inmemory)", ErrUnknownEngine, name)
}

// Options selects and configures a backend for Open.
type Options struct {
	// Engine is the backend; empty means DefaultEngine.
	Engine Engine
	// Path is the database directory (Pebble, LevelDB) or file (BoltDB).
	// The in-memory engine ignores it.
	Path string
	// ReadOnly opens an existing database for reading only: writes fail
	// with ErrReadOnly, and a missing database fails with ErrNotExist. The
	// disk engines still lock the database, so a read-only open fails with
	// ErrLocked while a node has it open.
	ReadOnly bool

	Pebble  PebbleOptions
	Bolt    BoltOptions
	LevelDB LevelDBOptions

	// Logger receives the engine's own log lines (Pebble); nil means
	// slog.Default().
	Logger *slog.Logger

	// MinFreeSpace is the free space (bytes) a writable disk store keeps
	// on its file system: a write that would start below it fails with
	// ErrDiskFull and changes nothing, so the engine never meets a full
	// disk in the middle of a write. 0 means DefaultMinFreeSpace, a
	// negative value no reserve.
	MinFreeSpace int64
	// FreeSpace, if set, replaces the file system query (FreeSpace) the
	// reserve is checked with, for tests.
	FreeSpace func(dir string) (uint64, error)
}

// Open opens the store opts describe; a writable disk store keeps the free
// space reserve of opts.MinFreeSpace. Errors wrap ErrNotExist, ErrLocked,
// ErrCorrupt or ErrUnknownEngine where they apply.
func Open(opts Options) (Store, error) {
	engine, err := ParseEngine(string(opts.Engine))
	if err != nil {
		return nil, err
	}
	if engine == EngineMemory {
		if opts.ReadOnly {
			return nil, fmt.Errorf("%w: an in-memory database cannot be opened read-only", ErrNotExist)
		}
		return NewMemoryStore(), nil
	}
	if opts.Path == "" {
		return nil, fmt.Errorf("open %s database: no path given", engine)
	}
	if opts.ReadOnly {
		if _, err := os.Stat(opts.Path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("open %s database %q: %w", engine, opts.Path, ErrNotExist)
		}
	}
	var s Store
	switch engine {
	case EnginePebble:
		s, err = OpenPebble(opts.Path, opts.ReadOnly, opts.Pebble, opts.Logger)
	case EngineBolt:
		s, err = OpenBolt(opts.Path, opts.ReadOnly, opts.Bolt)
	default:
		s, err = OpenLevelDB(opts.Path, opts.ReadOnly, opts.LevelDB)
	}
	if err != nil {
		return nil, err
	}
	return withSpaceGuard(s, opts, engine), nil
}

// isLockErr recognizes a failed non-blocking file lock: flock reports
// EWOULDBLOCK, fcntl EAGAIN or EACCES (as a bare errno, unlike a failure to
// open the lock file, which comes as a *fs.PathError).
func isLockErr(err error) bool {
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EWOULDBLOCK) {
		return true
	}
	var pe *fs.PathError
	return errors.Is(err, syscall.EACCES) && !errors.As(err, &pe)
}

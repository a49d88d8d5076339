package storage

// GoHeapBytes is the most the store opts describe keeps on the Go heap
// for its own buffers, by its configured sizes: what a Go memory limit
// must leave room for beside the node's data. LevelDB (pure Go): the
// block cache and two write buffers. Pebble: nothing with cgo (its cache
// and memtables are C memory, outside the Go runtime's accounting);
// without cgo Pebble allocates them from the Go heap, so the cache and
// two memtables. BoltDB maps its file (page cache, not heap): nothing.
// The in-memory store keeps the whole database on the heap, which has no
// bound: nothing is counted for it.
func (opts Options) GoHeapBytes() int64 {
	e, err := ParseEngine(string(opts.Engine))
	if err != nil {
		return 0
	}
	switch e {
	case EngineLevelDB:
		return opts.LevelDB.goHeapBytes()
	case EnginePebble:
		if pebbleBuffersInC {
			return 0
		}
		p := opts.Pebble.withDefaults()
		return p.CacheSize + 2*int64(p.MemTableSize)
	}
	return 0
}

package storage

import (
	"path/filepath"

	"github.com/n3node/n3node/pkg/config"
)

// OptionsFromConfig maps a node's DBConfiguration to Options; it is the one
// mapping the node (pkg/node) and the offline database commands (n3node db)
// open their store with. engine and path override the configuration when
// not empty (command-line flags): engine replaces Type, path the configured
// directory (the file for BoltDB). Without a path: ./data/chain, or
// ./data/chain.bolt for BoltDB (config.DBDefaultDir).
//
// Pebble's writes are synced: Pebble keeps unsynced WAL records in the
// process until its log block fills, so a killed process would lose every
// write since it opened the database. The chain writes about once a second
// (core.DefaultPersistInterval), so an fsync per write costs little.
// PebbleDBOptions' CacheSizeMiB and MemTableSizeMiB replace the Pebble
// defaults when positive, LevelDBOptions' CacheSizeMiB and
// WriteBufferSizeMiB the LevelDB ones. Each engine's sizes are mapped
// whatever Type says, so that an engine override gets its own.
func OptionsFromConfig(d config.DBConfiguration, engine, path string) (Options, error) {
	if engine == "" {
		engine = d.Type
	}
	e, err := ParseEngine(engine)
	if err != nil {
		return Options{}, err
	}
	o := Options{Engine: e, Path: d.Path(), ReadOnly: d.ReadOnly()}
	if path != "" {
		o.Path = path
	}
	if o.Path == "" && e != EngineMemory {
		o.Path = filepath.Join(config.DBDefaultDir, "chain")
		if e == EngineBolt {
			o.Path += ".bolt"
		}
	}
	o.Pebble.SyncWrites = true
	if m := d.PebbleDBOptions.CacheSizeMiB; m > 0 {
		o.Pebble.CacheSize = int64(m) << 20
	}
	if m := d.PebbleDBOptions.MemTableSizeMiB; m > 0 {
		o.Pebble.MemTableSize = uint64(m) << 20
	}
	if m := d.LevelDBOptions.CacheSizeMiB; m > 0 {
		o.LevelDB.BlockCacheSize = m << 20
	}
	if m := d.LevelDBOptions.WriteBufferSizeMiB; m > 0 {
		o.LevelDB.WriteBufferSize = m << 20
	}
	return o, nil
}

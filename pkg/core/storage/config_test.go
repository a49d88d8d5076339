package storage_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/storage"
)

func TestOptionsFromConfig(t *testing.T) {
	pebbleAt := func(p string) config.DBConfiguration {
		d := config.DBConfiguration{Type: config.DBPebbleDB}
		d.PebbleDBOptions.DataDirectoryPath = p
		return d
	}
	sized := pebbleAt("/db")
	sized.PebbleDBOptions.CacheSizeMiB, sized.PebbleDBOptions.MemTableSizeMiB = 16, 8
	lsized := config.DBConfiguration{Type: config.DBLevelDB}
	lsized.LevelDBOptions.DataDirectoryPath = "/l"
	lsized.LevelDBOptions.CacheSizeMiB, lsized.LevelDBOptions.WriteBufferSizeMiB = 16, 32
	ro := config.DBConfiguration{Type: config.DBBoltDB}
	ro.BoltDBOptions.FilePath, ro.BoltDBOptions.ReadOnly = "/c.bolt", true
	synced := storage.PebbleOptions{SyncWrites: true}
	for _, tc := range []struct {
		name         string
		d            config.DBConfiguration
		engine, path string
		want         storage.Options
	}{
		{"empty", config.DBConfiguration{}, "", "",
			storage.Options{Engine: storage.EnginePebble, Path: filepath.Join(config.DBDefaultDir, "chain"), Pebble: synced}},
		{"pebble", pebbleAt("/db"), "", "", storage.Options{Engine: storage.EnginePebble, Path: "/db", Pebble: synced}},
		{"pebble sizes", sized, "", "", storage.Options{Engine: storage.EnginePebble, Path: "/db",
			Pebble: storage.PebbleOptions{SyncWrites: true, CacheSize: 16 << 20, MemTableSize: 8 << 20}}},
		{"leveldb sizes", lsized, "", "", storage.Options{Engine: storage.EngineLevelDB, Path: "/l", Pebble: synced,
			LevelDB: storage.LevelDBOptions{BlockCacheSize: 16 << 20, WriteBufferSize: 32 << 20}}},
		{"leveldb sizes under an engine override", lsized, "pebble", "/p", storage.Options{Engine: storage.EnginePebble, Path: "/p", Pebble: synced,
			LevelDB: storage.LevelDBOptions{BlockCacheSize: 16 << 20, WriteBufferSize: 32 << 20}}},
		{"bolt read-only", ro, "", "", storage.Options{Engine: storage.EngineBolt, Path: "/c.bolt", ReadOnly: true, Pebble: synced}},
		{"engine override", config.DBConfiguration{}, "bolt", "",
			storage.Options{Engine: storage.EngineBolt, Path: filepath.Join(config.DBDefaultDir, "chain.bolt"), Pebble: synced}},
		{"path override", pebbleAt("/db"), "", "/other", storage.Options{Engine: storage.EnginePebble, Path: "/other", Pebble: synced}},
		{"memory", config.DBConfiguration{Type: config.DBInMemory}, "", "", storage.Options{Engine: storage.EngineMemory, Pebble: synced}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := storage.OptionsFromConfig(tc.d, tc.engine, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if got.Engine != tc.want.Engine || got.Path != tc.want.Path || got.ReadOnly != tc.want.ReadOnly ||
				got.Pebble.SyncWrites != tc.want.Pebble.SyncWrites || got.Pebble.CacheSize != tc.want.Pebble.CacheSize ||
				got.Pebble.MemTableSize != tc.want.Pebble.MemTableSize || got.LevelDB != tc.want.LevelDB {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
	if _, err := storage.OptionsFromConfig(config.DBConfiguration{Type: "rocksdb"}, "", ""); !errors.Is(err, storage.ErrUnknownEngine) {
		t.Errorf("unknown engine: %v", err)
	}
}

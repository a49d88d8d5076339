package dbcmd

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/node"
)

// TestStoreOptionsLikeNode: the db commands open a configuration's
// database with the options `n3node run` (pkg/node) opens it with: the
// same engine, path, Pebble sizes and write syncing, with and without
// the command-line overrides.
func TestStoreOptionsLikeNode(t *testing.T) {
	dbOptions := func(cfg config.Config, args ...string) storage.Options {
		t.Helper()
		var (
			o   storage.Options
			err error
		)
		cmd := &cli.Command{Name: "restore", Flags: dbFlags(), Action: func(_ context.Context, c *cli.Command) error {
			o, err = storeOptions(c, cfg)
			return nil
		}}
		if rerr := cmd.Run(context.Background(), append([]string{"restore"}, args...)); rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	nodeOptions := func(cfg config.Config) storage.Options {
		t.Helper()
		n, err := node.New(&cfg, node.Options{Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		if err := n.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		return n.Storage()
	}
	same := func(name string, db, run storage.Options) {
		t.Helper()
		if db.Engine != run.Engine || db.Path != run.Path || db.ReadOnly != run.ReadOnly ||
			db.Pebble.CacheSize != run.Pebble.CacheSize || db.Pebble.MemTableSize != run.Pebble.MemTableSize ||
			db.Pebble.SyncWrites != run.Pebble.SyncWrites || !run.Pebble.SyncWrites {
			t.Errorf("%s: db commands open %+v\nrun opens %+v", name, db, run)
		}
	}
	base, err := config.LoadNetwork("unit_testnet")
	if err != nil {
		t.Fatal(err)
	}
	base.ApplicationConfiguration.P2P.Addresses = []string{"127.0.0.1:0"}
	base.ApplicationConfiguration.RPC.Enabled = false

	// The configuration alone, with Pebble sizes.
	cfg := base
	if err := node.SetDatabase(&cfg, "pebble", filepath.Join(t.TempDir(), "chain")); err != nil {
		t.Fatal(err)
	}
	cfg.ApplicationConfiguration.DBConfiguration.PebbleDBOptions.CacheSizeMiB = 16
	cfg.ApplicationConfiguration.DBConfiguration.PebbleDBOptions.MemTableSizeMiB = 8
	same("configured", dbOptions(cfg), nodeOptions(cfg))

	// The flags: --db-path and --pebble-cache against run's --data and
	// the configuration's cache size.
	dir := filepath.Join(t.TempDir(), "chain")
	flagged := dbOptions(base, "--db", "pebble", "--db-path", dir, "--pebble-cache", "32")
	cfg = base
	if err := node.SetDatabase(&cfg, "pebble", dir); err != nil {
		t.Fatal(err)
	}
	cfg.ApplicationConfiguration.DBConfiguration.PebbleDBOptions.CacheSizeMiB = 32
	same("flags", flagged, nodeOptions(cfg))
}

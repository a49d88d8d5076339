package dbcmd

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
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

// TestNeoGoConfigFlags: the db commands take neo-go's configuration flags
// (--config-file, --config-path with -p/-m/-t/--unittest), exclusive with
// --config and --network.
func TestNeoGoConfigFlags(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "chain")
	cfg := "ProtocolConfiguration:\n  Magic: 42\n  StandbyCommittee:\n    - 02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2\n  ValidatorsCount: 1\nApplicationConfiguration:\n  DBConfiguration:\n    Type: leveldb\n    LevelDBOptions:\n      DataDirectoryPath: " + dbPath + "\n"
	if err := os.WriteFile(filepath.Join(dir, "protocol.unit_testnet.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runApp(t, "db", "state", "--config-path", dir, "--unittest")
	if err != nil || !strings.Contains(out, `"height": 0`) {
		t.Fatalf("--config-path --unittest: %v %s", err, out)
	}
	out, _, err = runApp(t, "db", "reset", "--config-file", filepath.Join(dir, "protocol.unit_testnet.yml"), "--height", "0")
	if err != nil {
		t.Fatalf("--config-file: %v %s", err, out)
	}
	if _, _, err := runApp(t, "db", "state", "--config-path", dir, "--network", "privnet"); err == nil || !strings.Contains(err.Error(), "exclusive") {
		t.Fatalf("mixed flags: %v", err)
	}
	if _, _, err := runApp(t, "db", "state", "-p", "-t"); err == nil {
		t.Fatal("two networks accepted")
	}
}

package dbcmd

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/urfave/cli/v3"
)

// dbFlags select the configuration and database of every db command.
func dbFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "neo-go style configuration `FILE` (its DBConfiguration selects the database)"},
		&cli.StringFlag{Name: "network", Aliases: []string{"n"}, Usage: "embedded network configuration `NAME` (mainnet, testnet, privnet, unit_testnet, ...)"},
		&cli.StringFlag{Name: "db", Usage: "database `ENGINE` overriding the configuration: pebble, bolt, leveldb or memory"},
		&cli.StringFlag{Name: "db-path", Usage: "database `PATH` overriding the configuration (directory; a file for bolt)"},
		&cli.BoolFlag{Name: "debug", Usage: "log at debug level"},
		&cli.IntFlag{Name: "pebble-cache", Usage: fmt.Sprintf("Pebble block cache in `MiB` (default: the storage package's, %d)", storage.DefaultPebbleCacheSize>>20)},
		&cli.IntFlag{Name: "pebble-memtable", Usage: fmt.Sprintf("Pebble memtable size in `MiB` (default: the storage package's, %d)", storage.DefaultPebbleMemTableSize>>20)},
	}
}

// loadConfig reads the configuration the flags name.
func loadConfig(c *cli.Command) (config.Config, error) {
	file, network := c.String("config"), c.String("network")
	switch {
	case file != "" && network != "":
		return config.Config{}, errors.New("--config and --network are exclusive")
	case file != "":
		return config.Load(file)
	case network != "":
		return config.LoadNetwork(network)
	}
	return config.Config{}, errors.New("a configuration is required: --config FILE or --network NAME")
}

// storageOptions maps a DBConfiguration and the --db/--db-path overrides
// to storage.Options.
func storageOptions(d config.DBConfiguration, engine, path string) (storage.Options, error) {
	if engine == "" {
		engine = d.Type
	}
	e, err := storage.ParseEngine(engine)
	if err != nil {
		return storage.Options{}, err
	}
	o := storage.Options{Engine: e, Path: d.Path(), ReadOnly: d.ReadOnly()}
	if path != "" {
		o.Path = path
	}
	if o.Path == "" && e != storage.EngineMemory {
		o.Path = defaultDBPath(e)
	}
	return o, nil
}

func defaultDBPath(e storage.Engine) string {
	if e == storage.EngineBolt {
		return config.DBDefaultDir + "/chain.bolt"
	}
	return config.DBDefaultDir + "/chain"
}

// openChain opens the chain the flags describe, creating an empty database
// (initialized with the genesis block) if none exists. mutate lets the
// caller adjust the ledger settings (e.g. --skip-verify); opts tune the
// Blockchain (its Logger is set here).
func openChain(c *cli.Command, mutate func(*config.Blockchain), opts core.Options) (*core.Blockchain, storage.Options, error) {
	cfgFile, err := loadConfig(c)
	if err != nil {
		return nil, storage.Options{}, err
	}
	cfg, err := cfgFile.Blockchain()
	if err != nil {
		return nil, storage.Options{}, err
	}
	if mutate != nil {
		mutate(&cfg)
	}
	so, err := storageOptions(cfgFile.ApplicationConfiguration.DBConfiguration, c.String("db"), c.String("db-path"))
	if err != nil {
		return nil, so, err
	}
	if m := c.Int("pebble-cache"); m > 0 {
		so.Pebble.CacheSize = int64(m) << 20
	}
	if m := c.Int("pebble-memtable"); m > 0 {
		so.Pebble.MemTableSize = uint64(m) << 20
	}
	level := slog.LevelWarn
	if c.Bool("debug") {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	so.Logger = log
	store, err := storage.Open(so)
	if err != nil {
		return nil, so, describeDBError(so, err)
	}
	opts.Logger = log
	bc, err := core.New(cfg, store, opts)
	if err != nil {
		return nil, so, fmt.Errorf("database %s (%s): %w", so.Path, so.Engine, err)
	}
	return bc, so, nil
}

// describeDBError explains the storage sentinels.
func describeDBError(o storage.Options, err error) error {
	where := fmt.Sprintf("%s database %q", o.Engine, o.Path)
	switch {
	case errors.Is(err, storage.ErrNotExist):
		return fmt.Errorf("%s does not exist: %w", where, err)
	case errors.Is(err, storage.ErrLocked):
		return fmt.Errorf("%s is in use by another process (a running node?): %w", where, err)
	case errors.Is(err, storage.ErrCorrupt):
		return fmt.Errorf("%s is damaged or not a %s database: %w", where, o.Engine, err)
	}
	return fmt.Errorf("%s: %w", where, err)
}

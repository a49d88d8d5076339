package dbcmd

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/n3node/n3node/cmd/n3node/app/neogocfg"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/urfave/cli/v3"
)

// dbFlags select the configuration and database of every db command.
func dbFlags() []cli.Flag {
	return append(neogocfg.Flags(),
		// No -c: in neo-go's db commands -c is --count.
		&cli.StringFlag{Name: "config", Usage: "neo-go style configuration `FILE` (its DBConfiguration selects the database)"},
		&cli.StringFlag{Name: "relative-path", Usage: "resolve the configuration's relative paths against `DIR` (neo-go's flag)"},
		&cli.StringFlag{Name: "network", Aliases: []string{"n"}, Usage: "embedded network configuration `NAME` (mainnet, testnet, privnet, unit_testnet, ...)"},
		&cli.StringFlag{Name: "db", Usage: "database `ENGINE` overriding the configuration: pebble, bolt, leveldb or memory"},
		&cli.StringFlag{Name: "db-path", Usage: "database `PATH` overriding the configuration (directory; a file for bolt)"},
		&cli.BoolFlag{Name: "debug", Usage: "log at debug level"},
		&cli.IntFlag{Name: "pebble-cache", Usage: fmt.Sprintf("Pebble block cache in `MiB` (default: the configuration's CacheSizeMiB, else the storage package's %d)", storage.DefaultPebbleCacheSize>>20)},
		&cli.IntFlag{Name: "pebble-memtable", Usage: fmt.Sprintf("Pebble memtable size in `MiB` (default: the configuration's MemTableSizeMiB, else the storage package's %d)", storage.DefaultPebbleMemTableSize>>20)},
	)
}

// loadConfig reads the configuration the flags name: --config or
// --network, or neo-go's flags (package neogocfg).
func loadConfig(c *cli.Command) (config.Config, error) {
	cfg, err := selectConfig(c)
	if err == nil && c.String("relative-path") != "" {
		cfg.ResolveRelativePaths(c.String("relative-path"))
	}
	return cfg, err
}

// selectConfig reads the configuration the flags name.
func selectConfig(c *cli.Command) (config.Config, error) {
	file, network := c.String("config"), c.String("network")
	// Without any configuration flag, neo-go's default: the private
	// network (./config/protocol.privnet.yml, else the embedded one).
	if neogocfg.Used(c) || file == "" && network == "" {
		if file != "" || network != "" {
			return config.Config{}, errors.New("--config and --network are exclusive with neo-go's --config-path, --config-file, -p, -m, -t and --unittest")
		}
		var err error
		if file, network, err = neogocfg.Source(c); err != nil {
			return config.Config{}, err
		}
	}
	switch {
	case file != "" && network != "":
		return config.Config{}, errors.New("--config and --network are exclusive")
	case file != "":
		return config.Load(file)
	case network != "":
		return config.LoadNetwork(network)
	}
	return config.Config{}, errors.New("no configuration") // not reached: neogocfg.Source names one
}

// storeOptions are the storage options of the database the flags select:
// the configuration's (storage.OptionsFromConfig, as the node opens it)
// with --db, --db-path, --pebble-cache and --pebble-memtable applied.
func storeOptions(c *cli.Command, cfg config.Config) (storage.Options, error) {
	d := cfg.ApplicationConfiguration.DBConfiguration
	if m := c.Int("pebble-cache"); m > 0 {
		d.PebbleDBOptions.CacheSizeMiB = m
	}
	if m := c.Int("pebble-memtable"); m > 0 {
		d.PebbleDBOptions.MemTableSizeMiB = m
	}
	return storage.OptionsFromConfig(d, c.String("db"), c.String("db-path"))
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
	so, err := storeOptions(c, cfgFile)
	if err != nil {
		return nil, so, err
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

package nodecmd

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/node"
)

// reloader applies a re-read configuration to a running node when a
// reload signal arrives (neo-go's cli/server): SIGHUP the log level and
// the RPC, Prometheus and Pprof sections, SIGUSR1 the Oracle, P2PNotary
// and StateRoot sections, SIGUSR2 the Consensus section.
type reloader struct {
	signals chan os.Signal
	// config re-reads the configuration as the command's flags say.
	config func() (config.Config, error)
	// level is the logger's level; nil when --debug fixes it.
	level *slog.LevelVar
}

// reload handles signal s. A configuration that cannot be read or differs
// in what a reload cannot apply is ignored with a warning (the node runs
// on); the error returned (a service that failed to start) stops the
// node, as in neo-go.
func (rl *reloader) reload(ctx context.Context, n *node.Node, s os.Signal, log *slog.Logger) error {
	log.Info("signal received", "name", s.String())
	cfg, err := rl.config()
	if err != nil {
		log.Warn("can't reread the config file, signal ignored", "err", err)
		return nil
	}
	if err := n.CheckReload(&cfg); err != nil {
		log.Warn("signal ignored", "err", err)
		return nil
	}
	var (
		newLevel slog.Level
		setLevel bool
	)
	if l := cfg.ApplicationConfiguration.LogLevel; rl.level != nil && l != n.Config().ApplicationConfiguration.LogLevel {
		if newLevel, err = parseLevel(l); err != nil {
			log.Warn("wrong LogLevel in ApplicationConfiguration, signal ignored", "err", err)
			return nil
		}
		setLevel = true
	}
	switch kind := reloadKind(s); kind {
	case reloadMonitoring:
		notifySystemd(log, sdReloading)
		if setLevel {
			rl.level.Set(newLevel)
			log.Warn("using new logging level", "level", newLevel.String())
		}
		if err := n.ReloadMonitoring(ctx, &cfg); err != nil {
			return err
		}
		notifySystemd(log, sdReady)
	case reloadServices:
		if err := n.ReloadServices(ctx, &cfg); err != nil {
			log.Error("failed to reload the services", "err", err)
		}
	case reloadConsensus:
		if err := n.ReloadConsensus(ctx, &cfg); err != nil {
			log.Error("failed to create consensus service", "err", err)
		}
	default:
		return fmt.Errorf("unexpected reload signal %v", s)
	}
	return nil
}

// What a reload signal applies.
const (
	reloadMonitoring = iota + 1 // SIGHUP
	reloadServices              // SIGUSR1
	reloadConsensus             // SIGUSR2
)

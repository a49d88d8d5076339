package app

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/benchcmd"
	"github.com/n3node/n3node/cmd/n3node/app/contractcmd"
	"github.com/n3node/n3node/cmd/n3node/app/dbcmd"
	"github.com/n3node/n3node/cmd/n3node/app/nodecmd"
	"github.com/n3node/n3node/cmd/n3node/app/querycmd"
	"github.com/n3node/n3node/cmd/n3node/app/utilcmd"
	"github.com/n3node/n3node/cmd/n3node/app/vmcmd"
	"github.com/n3node/n3node/cmd/n3node/app/walletcmd"
)

// Version is the node version, set at build time with -ldflags.
var Version = "0.1.0-dev"

// New returns the root command.
func New() *cli.Command {
	root := &cli.Command{
		Name:    "n3node",
		Usage:   "Neo N3 full node",
		Version: Version,
		Commands: []*cli.Command{
			nodecmd.Command(Version),
			nodecmd.NeoGoCommand(Version),
			dbcmd.Command(),
			utilcmd.Command(),
			benchcmd.Command(),
			vmcmd.Command(),
			walletcmd.Command(),
			querycmd.Command(),
			contractcmd.Command(),
		},
	}
	quietUsageErrors(root)
	return root
}

// quietUsageErrors makes a usage error (a missing required flag, a bad
// flag value) of every command one line: the error, with where to find the
// help, returned for the caller to print once (urfave/cli would print
// "Incorrect Usage", the whole help, and return the error to be printed
// again).
func quietUsageErrors(cmd *cli.Command) {
	cmd.OnUsageError = func(_ context.Context, c *cli.Command, err error, _ bool) error {
		return fmt.Errorf("%w (see '%s --help')", err, c.FullName())
	}
	for _, sub := range cmd.Commands {
		quietUsageErrors(sub)
	}
}

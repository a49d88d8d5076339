// Package app assembles the n3node command line. Each subcommand lives in its
// own file and stays thin: it parses flags and calls into pkg/.
package app

import (
	"github.com/urfave/cli/v3"
)

// Version is the node version, set at build time with -ldflags.
var Version = "0.1.0-dev"

// New returns the root command.
func New() *cli.Command {
	return &cli.Command{
		Name:    "n3node",
		Usage:   "Neo N3 full node",
		Version: Version,
		Commands: []*cli.Command{
			runCommand(),
			dbCommand(),
			utilCommand(),
			benchCommand(),
			vmCommand(),
			walletCommand(),
			contractCommand(),
		},
	}
}

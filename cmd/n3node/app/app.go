package app

import (
	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/benchcmd"
	"github.com/n3node/n3node/cmd/n3node/app/contractcmd"
	"github.com/n3node/n3node/cmd/n3node/app/dbcmd"
	"github.com/n3node/n3node/cmd/n3node/app/nodecmd"
	"github.com/n3node/n3node/cmd/n3node/app/utilcmd"
	"github.com/n3node/n3node/cmd/n3node/app/vmcmd"
	"github.com/n3node/n3node/cmd/n3node/app/walletcmd"
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
			nodecmd.Command(Version),
			dbcmd.Command(),
			utilcmd.Command(),
			benchcmd.Command(),
			vmcmd.Command(),
			walletcmd.Command(),
			contractcmd.Command(),
		},
	}
}

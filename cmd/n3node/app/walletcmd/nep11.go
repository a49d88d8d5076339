package walletcmd

import (
	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/smartcontract/manifest"
)

func nep11Commands() []*cli.Command {
	return tokenWalletCommands(manifest.NEP11StandardName)
}

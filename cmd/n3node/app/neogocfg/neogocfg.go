package neogocfg

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"
)

// networks maps neo-go's network flags to file and embedded network names.
var networks = []struct{ flag, name string }{
	{"privnet", "privnet"}, {"mainnet", "mainnet"}, {"testnet", "testnet"}, {"unittest", "unit_testnet"},
}

// Flags are neo-go's configuration flags.
func Flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config-path", Usage: "`DIR` with protocol.<net>.yml files (default ./config)"},
		&cli.StringFlag{Name: "config-file", Usage: "configuration `FILE` (overrides --config-path and the network flags)"},
		&cli.BoolFlag{Name: "privnet", Aliases: []string{"p"}, Usage: "private network (protocol.privnet.yml)"},
		&cli.BoolFlag{Name: "mainnet", Aliases: []string{"m"}, Usage: "MainNet (protocol.mainnet.yml)"},
		&cli.BoolFlag{Name: "testnet", Aliases: []string{"t"}, Usage: "TestNet (protocol.testnet.yml)"},
		&cli.BoolFlag{Name: "unittest", Usage: "unit test network (protocol.unit_testnet.yml)"},
	}
}

// Used reports whether any of Flags is set on c.
func Used(c *cli.Command) bool {
	for _, f := range Flags() {
		if c.IsSet(f.Names()[0]) {
			return true
		}
	}
	return false
}

// Source resolves the flags of c: a file to load, or an embedded network.
func Source(c *cli.Command) (file, network string, err error) {
	if c.IsSet("config-file") {
		return c.String("config-file"), "", nil
	}
	network = "privnet"
	n := 0
	for _, nf := range networks {
		if c.Bool(nf.flag) {
			network = nf.name
			n++
		}
	}
	if n > 1 {
		return "", "", errors.New("only one of --privnet, --mainnet, --testnet and --unittest may be set")
	}
	dir := "./config"
	if c.IsSet("config-path") {
		dir = c.String("config-path")
	}
	path := filepath.Join(dir, "protocol."+network+".yml")
	if _, serr := os.Stat(path); serr == nil || c.IsSet("config-path") {
		return path, "", nil
	}
	return "", network, nil
}

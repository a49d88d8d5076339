package utilcmd

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/n3node/n3node/cmd/n3node/app/listing"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/txsend"
)

// Command is `n3node util`.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "util",
		Usage: "conversion and inspection tools",
		Commands: []*cli.Command{
			{
				Name:      "convert",
				Usage:     "print every interpretation of an address, hash, hex, base64, key or integer",
				ArgsUsage: "<value>",
				Description: `Prints what neo-go's util convert prints (script hashes in both byte
   orders, addresses, integers, strings, keys, base64), line for line;
   --explain prints n3node's annotated readings instead.`,
				Flags: []cli.Flag{&cli.BoolFlag{Name: "explain", Usage: "n3node's annotated readings (what each form is, where it is used)"}},
				Action: func(ctx context.Context, c *cli.Command) error {
					if c.Args().Len() != 1 {
						return fmt.Errorf("convert takes exactly one value")
					}
					if !c.Bool("explain") {
						_, err := fmt.Fprint(c.Root().Writer, Readings(c.Args().First()))
						return err
					}
					rs := interpret(c.Args().First())
					if len(rs) == 0 {
						return fmt.Errorf("%q is not an address, hash, key, integer, hex or base64", c.Args().First())
					}
					_, err := fmt.Fprint(c.Root().Writer, formatReadings(rs))
					return err
				},
			},
			{
				Name:      "sendtx",
				Usage:     "send a complete transaction from a parameter context file",
				UsageText: "n3node util sendtx -r endpoint [-s timeout] [--await] <file.json>",
				Flags:     append(txsend.RPCFlags(), &cli.BoolFlag{Name: "await", Usage: "wait for the transaction to be included in a block"}),
				Action:    sendTx,
			},
			cancelTxCommand(),
			{
				Name:      "txdump",
				Usage:     "print the transaction of a parameter context file (and its test run with -r)",
				UsageText: "n3node util txdump [-r endpoint] [-s timeout] <file.json>",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "rpc-endpoint", Aliases: []string{"r"}, Usage: "RPC node to test-run the script on (invokescript)"},
					&cli.DurationFlag{Name: "timeout", Aliases: []string{"s"}, Value: txsend.DefaultRPCTimeout, Usage: "timeout for the whole operation"},
				},
				Action: txDump,
			},
			{
				Name:      "ops",
				Usage:     "print a script's instructions",
				UsageText: "n3node util ops [-i file] [--hex] <script>",
				Description: `Prints the instructions of a script given in base64 (or hex, always with
   --hex) as neo-go's util ops does.`,
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Usage: "read the script from `FILE`"},
					&cli.BoolFlag{Name: "hex", Usage: "the script is hex (do not try base64)"},
				},
				Action: func(ctx context.Context, c *cli.Command) error {
					var s string
					if in := c.String("in"); in != "" {
						b, err := os.ReadFile(in)
						if err != nil {
							return fmt.Errorf("failed to read file: %w", err)
						}
						s = string(b)
					} else if c.Args().Present() {
						s = c.Args().First()
					} else {
						return errors.New("missing script")
					}
					b, err := base64.StdEncoding.DecodeString(s)
					if err != nil || c.Bool("hex") {
						b, err = hex.DecodeString(s)
					}
					if err != nil {
						return errors.New("unknown encoding: base64 or hex are supported")
					}
					return listing.Write(c.Root().Writer, b, nil)
				},
			},
		},
	}
}

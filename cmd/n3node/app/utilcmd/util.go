package utilcmd

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
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
				Action: func(ctx context.Context, c *cli.Command) error {
					if c.Args().Len() != 1 {
						return fmt.Errorf("convert takes exactly one value")
					}
					rs := interpret(c.Args().First())
					if len(rs) == 0 {
						return fmt.Errorf("%q is not an address, hash, key, integer, hex or base64", c.Args().First())
					}
					_, err := fmt.Fprint(c.Root().Writer, formatReadings(rs))
					return err
				},
			},
		},
	}
}

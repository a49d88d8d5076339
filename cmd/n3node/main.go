// Command n3node is the Neo N3 full node and its tools.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/n3node/n3node/cmd/n3node/app"
)

func main() {
	if err := app.New().Run(context.Background(), os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

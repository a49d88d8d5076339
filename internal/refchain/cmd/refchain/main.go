// Command refchain regenerates the reference chain fixtures with neo-go
// 0.120.0 (see docs/refchain.md):
//
//	go run ./internal/refchain/cmd/refchain -out testdata/refchain
//
// It needs the neo-go binary: $NEOGO, or scripts/get-neogo.sh fetches it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/n3node/n3node/internal/refchain/chaingen"
	"github.com/n3node/n3node/internal/refchain/neogo"
)

func main() {
	var o chaingen.Options
	flag.StringVar(&o.In, "in", "testdata/refchain", "directory with protocol.yml, wallet1_solo.json, accounts.json and contracts/")
	flag.StringVar(&o.Out, "out", "", "output directory (default: the -in directory)")
	flag.StringVar(&o.Work, "work", "", "scratch directory (default: a new temp dir)")
	flag.BoolVar(&o.Keep, "keep", false, "keep the scratch directory")
	flag.StringVar(&o.Binary, "neogo", "", "neo-go binary (default: $NEOGO or scripts/get-neogo.sh)")
	flag.IntVar(&o.P2PPort, "p2p-port", neogo.DefaultP2PPort, "loopback P2P port of the neo-go node")
	flag.IntVar(&o.RPCPort, "rpc-port", neogo.DefaultRPCPort, "loopback RPC port of the neo-go node")
	flag.BoolVar(&o.NoVerify, "no-verify", false, "skip restoring the dump into a second node and replaying the records")
	flag.Parse()
	if o.Out == "" {
		o.Out = o.In
	}
	o.Log = os.Stderr

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	sc, err := chaingen.Generate(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "refchain:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "refchain: %d blocks, %d transactions written to %s in %s\n",
		sc.Height+1, len(sc.Transactions), o.Out, time.Since(start).Round(time.Second))
}

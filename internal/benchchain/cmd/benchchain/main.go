// Command benchchain writes a chain dump of NEO/GAS transfers for import
// benchmarks (see docs/perf.md, "Ledger"):
//
//	go run ./internal/benchchain/cmd/benchchain -blocks 1000 -txs 200 -o /tmp/bench.acc
//
// The chain belongs to the network of testdata/refchain/protocol.yml (or
// -config), whose single validator key is -wif.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/n3node/n3node/internal/benchchain"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

func main() {
	var (
		cfgPath  = flag.String("config", "testdata/refchain/protocol.yml", "neo-go protocol configuration of the network")
		wif      = flag.String("wif", "KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY", "the validator's key (neo-go's privnet single-node key by default)")
		blocks   = flag.Int("blocks", 1000, "blocks of transfers")
		txs      = flag.Int("txs", 200, "transfers per block")
		accounts = flag.Int("accounts", 2000, "funded accounts")
		seed     = flag.Uint64("seed", 1, "random seed")
		out      = flag.String("o", "bench.acc", "output file")
	)
	flag.Parse()
	if err := run(*cfgPath, *wif, *out, benchchain.Options{Blocks: *blocks, TxPerBlock: *txs, Accounts: *accounts, Seed: *seed}); err != nil {
		fmt.Fprintln(os.Stderr, "benchchain:", err)
		os.Exit(1)
	}
}

func run(cfgPath, wif, out string, o benchchain.Options) error {
	c, err := config.Load(cfgPath)
	if err != nil {
		return err
	}
	cfg, err := c.Blockchain()
	if err != nil {
		return err
	}
	if o.Validator, err = keys.NewPrivateKeyFromWIF(wif); err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := benchchain.Generate(&cfg.ProtocolConfiguration, o, w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

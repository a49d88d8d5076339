package contractcmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/binding"
)

// generatorFlags are the flags of the binding generators (neo-go's).
func generatorFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "configuration bindings file to use (*.yml), as 'contract compile --bindings' writes it"},
		&cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Required: true, Usage: "read contract manifest (*.manifest.json) file"},
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "output of the compiled wrapper"},
		&cli.StringFlag{Name: "hash", Usage: "smart contract hash; if not passed, the wrapper takes the hash at run time"},
	}
}

func generateCommands() []*cli.Command {
	return []*cli.Command{{
		Name:      "generate-wrapper",
		Usage:     "generate a wrapper to use in other contracts",
		UsageText: "n3node contract generate-wrapper --manifest <file.json> --out <file.go> [--hash <hash>] [--config <config>]",
		Description: `Generates a Go wrapper to use in other smart contracts, as neo-go does.
   With --hash the wrapper calls the contract with CALLT (method tokens);
   without it the wrapper takes the contract hash at run time.`,
		Flags:  generatorFlags(),
		Action: generateWrapper,
	}, {
		Name:      "generate-rpcwrapper",
		Usage:     "generate an RPC wrapper to use for data reads",
		UsageText: "n3node contract generate-rpcwrapper --manifest <file.json> --out <file.go> [--hash <hash>] [--config <config>]",
		Description: `Generates a Go package calling the contract over RPC, as neo-go does:
   a reader over an Invoker for safe methods, a Contract over an Actor for
   the others, structures for configured types and events. Without --hash
   the constructors take the hash.`,
		Flags:  generatorFlags(),
		Action: generateRPCWrapper,
	}}
}

// generatorConfig reads the flags into a binding configuration.
func generatorConfig(c *cli.Command) (binding.Config, error) {
	var cfg binding.Config
	if p := c.String("config"); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			return cfg, fmt.Errorf("can't read config file: %w", err)
		}
		if cfg, err = binding.ParseConfig(data); err != nil {
			return cfg, fmt.Errorf("can't parse config file: %w", err)
		}
	}
	// The flag wins over the file (neo-go overwrites the file's hash
	// with the flag's value, empty included).
	cfg.Hash = hash.Uint160{}
	if s := c.String("hash"); s != "" {
		h, err := hash.Uint160DecodeStringLE(strings.TrimPrefix(s, "0x"))
		if err != nil {
			return cfg, fmt.Errorf("invalid contract hash: %w", err)
		}
		cfg.Hash = h
	}
	m, err := readManifestFile(c.String("manifest"))
	if err != nil {
		return cfg, fmt.Errorf("can't read contract manifest: %w", err)
	}
	if err := m.IsValid(cfg.Hash, true); err != nil {
		return cfg, fmt.Errorf("can't read contract manifest: manifest is invalid: %w", err)
	}
	cfg.Manifest = m
	return cfg, nil
}

func generateWrapper(_ context.Context, c *cli.Command) error {
	return generateWith(c, binding.Generate)
}

func generateRPCWrapper(_ context.Context, c *cli.Command) error {
	return generateWith(c, binding.GenerateRPC)
}

// generateWith reads the flags and writes what gen generates to --out.
func generateWith(c *cli.Command, gen func(binding.Config, io.Writer) error) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	cfg, err := generatorConfig(c)
	if err != nil {
		return err
	}
	f, err := os.Create(c.String("out"))
	if err != nil {
		return fmt.Errorf("can't create output file: %w", err)
	}
	defer f.Close()
	if err := gen(cfg, f); err != nil {
		return fmt.Errorf("error during generation: %w", err)
	}
	return f.Close()
}

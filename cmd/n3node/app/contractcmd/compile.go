package contractcmd

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/compiler"
	"github.com/n3node/n3node/pkg/smartcontract/binding"
)

func compileCommand() *cli.Command {
	return &cli.Command{
		Name:      "compile",
		Usage:     "compile a Go smart contract to a .nef file (and manifest, debug info)",
		UsageText: "n3node contract compile -i DIR|FILE [-o X.nef] [-m X.manifest.json -c contract.yml] [-d debug.json] [--bindings X.bindings.yml [--guess-eventtypes]] [--no-events] [--no-permissions] [--no-standards]",
		Description: `Compiles a contract written against neo-go's interop API; the output is
   byte-identical to neo-go 0.120.0's 'contract compile'. With neither -o, -m
   nor -c, the names are derived from the input (DIR/DIR.nef, DIR/DIR.yml,
   DIR/DIR.manifest.json, DIR/DIR.bindings.yml). -m, -d and --bindings need
   the configuration file (-c).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Required: true, Usage: "input file or package directory"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output .nef file"},
			&cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Usage: "output manifest file"},
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "contract configuration (contract.yml)"},
			&cli.StringFlag{Name: "debug", Aliases: []string{"d"}, Usage: "output debug information file"},
			&cli.StringFlag{Name: "bindings", Usage: "output bindings configuration file (for generate-wrapper and generate-rpcwrapper -c)"},
			&cli.BoolFlag{Name: "guess-eventtypes", Usage: "take event parameter types for the bindings from the runtime.Notify calls"},
			&cli.BoolFlag{Name: "no-events", Usage: "do not check emitted events against the configuration"},
			&cli.BoolFlag{Name: "no-permissions", Usage: "do not check contract calls against the configured permissions"},
			&cli.BoolFlag{Name: "no-standards", Usage: "do not check the ABI against the claimed NEP standards"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print the script in hex"},
		},
		Action: contractCompile,
	}
}

func contractCompile(_ context.Context, c *cli.Command) error {
	src, out, manifestPath, cfgPath, debugPath := c.String("in"), c.String("out"), c.String("manifest"), c.String("config"), c.String("debug")
	bindingsPath := c.String("bindings")
	if cfgPath == "" && (manifestPath != "" || debugPath != "" || bindingsPath != "") {
		return cli.Exit(errors.New("no config file"), 1)
	}
	if out == "" && manifestPath == "" && cfgPath == "" && bindingsPath == "" {
		st, err := os.Stat(src)
		if err != nil {
			return cli.Exit(fmt.Errorf("failed to stat source file or directory: %w", err), 1)
		}
		root := strings.TrimSuffix(src, ".go")
		if st.IsDir() {
			root = filepath.Join(src, filepath.Base(st.Name()))
		}
		out, manifestPath, cfgPath, bindingsPath = root+".nef", root+".manifest.json", root+".yml", root+".bindings.yml"
	}
	if out == "" {
		out = "out.nef"
		if strings.HasSuffix(src, ".go") {
			out = strings.TrimSuffix(src, ".go") + ".nef"
		}
	}
	opts := compiler.Options{NoEventsCheck: c.Bool("no-events"), NoPermissionsCheck: c.Bool("no-permissions"),
		NoStandardCheck: c.Bool("no-standards"), NoManifest: manifestPath == ""}
	if cfgPath != "" {
		data, err := os.ReadFile(cfgPath)
		if err != nil {
			return cli.Exit(err, 1)
		}
		cfg, err := compiler.ParseConfig(data)
		if err != nil {
			return cli.Exit(err, 1)
		}
		opts.Config = *cfg
	}
	f, m, di, err := compiler.Compile(src, opts)
	if err != nil {
		return cli.Exit(fmt.Errorf("error while trying to compile smart contract file: %w", err), 1)
	}
	b, err := f.Bytes()
	if err != nil {
		return cli.Exit(fmt.Errorf("error while serializing .nef file: %w", err), 1)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return cli.Exit(err, 1)
	}
	if debugPath != "" {
		if err := writeJSON(debugPath, di); err != nil {
			return cli.Exit(err, 1)
		}
	}
	if bindingsPath != "" {
		cfg, err := compiler.Bindings(di, opts, c.Bool("guess-eventtypes"))
		if err != nil {
			return cli.Exit(err, 1)
		}
		data, err := binding.MarshalConfig(cfg)
		if err != nil {
			return cli.Exit(fmt.Errorf("can't marshal bindings configuration: %w", err), 1)
		}
		if err := os.WriteFile(bindingsPath, data, 0o644); err != nil {
			return cli.Exit(fmt.Errorf("can't write bindings configuration: %w", err), 1)
		}
	}
	if manifestPath != "" {
		if err := writeJSON(manifestPath, m); err != nil {
			return cli.Exit(err, 1)
		}
	}
	if c.Bool("verbose") {
		fmt.Fprintln(c.Root().Writer, hex.EncodeToString(f.Script))
	}
	return nil
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

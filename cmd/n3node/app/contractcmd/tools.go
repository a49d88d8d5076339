package contractcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/n3node/n3node/cmd/n3node/app/listing"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/compiler"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
)

// InteropVersion is the version of neo-go's interop module that contracts
// made by `contract init` require: the one neo-go 0.120.0 writes (and the
// compiler's corpus uses).
const InteropVersion = "v0.0.0-20260609115526-14bc7067ea2e"

// toolCommands are the local contract tools (no node needed).
func toolCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:      "init",
			Usage:     "initialize a new smart contract in a directory with boilerplate code",
			UsageText: "n3node contract init -n name [--skip-details]",
			Description: `Creates directory <name> with main.go (a contract sending a notification),
   neo-go.yml (its configuration) and go.mod (requiring neo-go's interop
   module), as neo-go's contract init does.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "name", Aliases: []string{"n"}, Required: true, Usage: "name of the smart contract (and its directory)"},
				&cli.BoolFlag{Name: "skip-details", Aliases: []string{"skip"}, Usage: "skip filling in the project's details (accepted for neo-go compatibility; nothing is asked)"},
			},
			Action: contractInit,
		},
		{
			Name:      "inspect",
			Usage:     "print a readable listing of a contract's instructions",
			UsageText: "n3node contract inspect -i file.nef [-d file.debug.json] | -c -i file.go|dir [--sources]",
			Description: `Prints neo-go's listing (INDEX, OPCODE, PARAMETER) of the script of a NEF
   file, or of a Go contract compiled first with -c. With debug information
   (-d for a NEF, --sources with -c) every instruction that starts a source
   statement is preceded by a "; file:line: text" line.`,
			Flags: []cli.Flag{
				&cli.BoolFlag{Name: "compile", Aliases: []string{"c"}, Usage: "compile the input (Go code) first"},
				&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Required: true, Usage: "input file of the program (either .go or .nef)"},
				&cli.StringFlag{Name: "debug", Aliases: []string{"d"}, Usage: "debug information of the NEF (prints source lines)"},
				&cli.BoolFlag{Name: "sources", Usage: "with -c: print source lines"},
			},
			Action: contractInspect,
		},
		{
			Name:      "calc-hash",
			Usage:     "calculate the hash a contract gets when deployed",
			UsageText: "n3node contract calc-hash -i nef -m manifest -s address",
			Flags: []cli.Flag{
				txsend.AddressFlag("sender", "sender script hash or address", "s"),
				&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Usage: "path to NEF file"},
				&cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Usage: "path to manifest file"},
			},
			Action: calcHash,
		},
		{
			Name:  "manifest",
			Usage: "manifest-related commands",
			Commands: []*cli.Command{{
				Name:      "add-group",
				Usage:     "add a group (signed by a wallet account) to the manifest",
				UsageText: "n3node contract manifest add-group -w wallet [--wallet-config path] -n nef -m manifest -a address -s address",
				Description: `Signs the hash the contract gets when deployed by the sender with the
   account's key and adds the group (or replaces its signature) in the
   manifest file.`,
				Flags: append([]cli.Flag{
					txsend.AddressFlag("sender", "deploy transaction sender", "s"),
					txsend.AddressFlag("address", "account to sign the group with", "a"),
					&cli.StringFlag{Name: "nef", Aliases: []string{"n"}, Required: true, Usage: "path to the NEF file"},
					&cli.StringFlag{Name: "manifest", Aliases: []string{"m"}, Required: true, Usage: "path to the manifest"},
				}, txsend.WalletFlags()...),
				Action: manifestAddGroup,
			}},
		},
	}
}

// initMain is the contract `contract init` writes (neo-go's, byte for
// byte: its body is indented with four spaces).
const initMain = `package %s

import "github.com/nspcc-dev/neo-go/pkg/interop/runtime"

var notificationName string

// init initializes notificationName before calling any other smart-contract method
func init() {
	notificationName = "Hello world!"
}

// RuntimeNotify sends runtime notification with "Hello world!" name
func RuntimeNotify(args []any) {
    runtime.Notify(notificationName, args)
}`

const initConfig = `name: %s
sourceurl: http://example.com/
safemethods: []
supportedstandards: []
events:
    - name: Hello world!
      parameters:
        - name: args
          type: Array
permissions:
    - methods: '*'
`

const initGoMod = `module %s

go 1.25

require (
	github.com/nspcc-dev/neo-go/pkg/interop %s
)`

var errFileExists = errors.New("file with given smart-contract name already exists")

func contractInit(_ context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	dir := c.String("name")
	if _, err := os.Stat(dir); err == nil {
		return errFileExists
	}
	name := filepath.Base(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	files := []struct{ name, text string }{
		{"neo-go.yml", fmt.Sprintf(initConfig, yamlScalar(name))},
		{"go.mod", fmt.Sprintf(initGoMod, name, InteropVersion)},
		{"main.go", fmt.Sprintf(initMain, name)},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.text), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(console.Stdout(c), "Successfully initialized smart contract [%s]\n", name)
	return nil
}

// yamlScalar quotes s if YAML would not read it back as the same plain
// string.
func yamlScalar(s string) string {
	plain := s != "" && !strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`\n\t") && strings.TrimSpace(s) == s
	if plain {
		switch strings.ToLower(s) {
		case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
			plain = false
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "\"" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + "\""
}

// readManifestFile reads a manifest file (unchecked).
func readManifestFile(path string) (*manifest.Manifest, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := new(manifest.Manifest)
	if err := json.Unmarshal(raw, m); err != nil {
		return nil, err
	}
	return m, nil
}

// loadNEF reads a NEF file (errors unwrapped: the callers word them as neo-go does).
func loadNEF(path string) (*nef.File, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return nef.FileFromBytes(raw)
}

func calcHash(_ context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	sender, err := txsend.ParseAddress(c.String("sender"))
	if err != nil {
		return fmt.Errorf("invalid sender: %w", err)
	}
	raw, err := os.ReadFile(c.String("in"))
	if err != nil {
		return fmt.Errorf("can't read .nef file: %w", err)
	}
	f, err := nef.FileFromBytes(raw)
	if err != nil {
		return fmt.Errorf("can't unmarshal .nef file: %w", err)
	}
	m, err := readManifestFile(c.String("manifest"))
	if err != nil {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return fmt.Errorf("failed to read manifest file: %w", err)
		}
		return fmt.Errorf("failed to restore manifest file: %w", err)
	}
	fmt.Fprintln(console.Stdout(c), "Contract hash:", smartcontract.GetContractHash(sender, f.Checksum, m.Name).StringLE())
	return nil
}

func contractInspect(_ context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	in := c.String("in")
	var (
		script []byte
		src    sourceLines
	)
	if c.Bool("compile") {
		f, _, di, err := compiler.Compile(in, compiler.Options{Config: compiler.Config{Name: "inspect"}, NoEventsCheck: true, NoPermissionsCheck: true})
		if err != nil {
			return fmt.Errorf("failed to compile: %w", err)
		}
		script = f.Script
		if c.Bool("sources") {
			src = debugSources(compiledSeqPoints(di))
		}
	} else {
		f, err := loadNEF(in)
		if err != nil {
			return fmt.Errorf("failed to read .nef file: %w", err)
		}
		script = f.Script
		if d := c.String("debug"); d != "" {
			pts, err := readSeqPoints(d)
			if err != nil {
				return fmt.Errorf("failed to read debug information: %w", err)
			}
			src = debugSources(pts)
		}
	}
	return listing.Write(console.Stdout(c), script, src)
}

func manifestAddGroup(_ context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	sender, err := txsend.ParseAddress(c.String("sender"))
	if err != nil {
		return fmt.Errorf("invalid sender: %w", err)
	}
	f, err := loadNEF(c.String("nef"))
	if err != nil {
		return fmt.Errorf("can't read NEF file: %w", err)
	}
	mPath := c.String("manifest")
	m, err := readManifestFile(mPath)
	if err != nil {
		return fmt.Errorf("can't read contract manifest: %w", err)
	}
	if err := m.IsValid(hash.Uint160{}, true); err != nil {
		return fmt.Errorf("can't read contract manifest: manifest is invalid: %w", err)
	}
	h := smartcontract.GetContractHash(sender, f.Checksum, m.Name)
	w, acc, err := txsend.OpenAccount(c, "address", errors.New("can't get account to sign group with: address is not provided"))
	if err != nil {
		return fmt.Errorf("can't get account to sign group with: %w", err)
	}
	defer w.Close()
	key := acc.PrivateKey()
	if key == nil {
		return errors.New("can't get account to sign group with: the account has no key")
	}
	sig := key.Sign(h[:])
	pub := key.PublicKey()
	found := false
	for i := range m.Groups {
		if m.Groups[i].PublicKey.Equal(pub) {
			m.Groups[i].Signature = sig
			found = true
			break
		}
	}
	if !found {
		m.Groups = append(m.Groups, manifest.Group{PublicKey: pub, Signature: sig})
	}
	out, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("can't marshal manifest: %w", err)
	}
	if err := os.WriteFile(mPath, out, 0o644); err != nil {
		return fmt.Errorf("can't write manifest file: %w", err)
	}
	return nil
}

package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"
	"go.yaml.in/yaml/v3"
	"golang.org/x/term"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/wallet"
)

// Shared plumbing of the wallet and contract commands: flags, wallet
// files, passwords, RPC connections.

const (
	defaultRPCTimeout   = 10 * time.Second     // neo-go's options.DefaultTimeout
	defaultAwaitTimeout = 3 * 15 * time.Second // neo-go's DefaultAwaitableTimeout
)

var (
	errNoWallet         = errors.New("wallet path is mandatory and should be passed using (--wallet, -w) flags or via wallet config using --wallet-config flag")
	errConflictingFlags = errors.New("--wallet flag conflicts with --wallet-config flag, please, provide one of them to specify wallet location")
	errPhraseMismatch   = errors.New("the entered pass-phrases do not match. Maybe you have misspelled them")
	errEmbeddedReadOnly = errors.New("built-in (embedded:) wallets are read-only")
)

func walletFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "wallet", Aliases: []string{"w"}, Usage: "path to the wallet file (embedded:<name> for a built-in one); conflicts with --wallet-config"},
		&cli.StringFlag{Name: "wallet-config", Usage: "path to a YAML wallet config (Path, Password) that avoids password prompts; conflicts with --wallet"},
	}
}

func rpcFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "rpc-endpoint", Aliases: []string{"r"}, Required: true, Usage: "RPC node address (http://host:port)"},
		&cli.DurationFlag{Name: "timeout", Aliases: []string{"s"}, Value: defaultRPCTimeout, Usage: "timeout for the whole operation (45s with --await unless set)"},
	}
}

func addressFlag(name, usage string, aliases ...string) *cli.StringFlag {
	return &cli.StringFlag{Name: name, Aliases: aliases, Usage: usage}
}

// stdout and stderr of a command (the root's writers, set by tests).
func stdout(c *cli.Command) io.Writer {
	if w := c.Root().Writer; w != nil {
		return w
	}
	return os.Stdout
}

func stderr(c *cli.Command) io.Writer {
	if w := c.Root().ErrWriter; w != nil {
		return w
	}
	return os.Stderr
}

func stdin(c *cli.Command) io.Reader {
	if r := c.Root().Reader; r != nil {
		return r
	}
	return os.Stdin
}

// readLine reads one line (without the newline) byte by byte, so nothing
// past it is consumed from a shared reader.
func readLine(r io.Reader) (string, error) {
	var sb strings.Builder
	var b [1]byte
	for {
		n, err := r.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				return strings.TrimSuffix(sb.String(), "\r"), nil
			}
			sb.WriteByte(b[0])
		}
		if err != nil {
			if err == io.EOF && sb.Len() > 0 {
				return sb.String(), nil
			}
			return "", err
		}
	}
}

// prompt asks for a line of input (echoed).
func prompt(c *cli.Command, text string) (string, error) {
	fmt.Fprint(stderr(c), text)
	return readLine(stdin(c))
}

// readPassword asks for a password without echo when the input is a
// terminal; otherwise (pipes, tests) it reads one line.
func readPassword(c *cli.Command, text string) (string, error) {
	in := stdin(c)
	fmt.Fprint(stderr(c), text)
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr(c))
		if err != nil {
			return "", fmt.Errorf("error reading password: %w", err)
		}
		return string(b), nil
	}
	s, err := readLine(in)
	if err != nil {
		return "", fmt.Errorf("error reading password: %w", err)
	}
	return s, nil
}

// readNewPassword asks twice.
func readNewPassword(c *cli.Command) (string, error) {
	p1, err := readPassword(c, "Enter new password > ")
	if err != nil {
		return "", err
	}
	p2, err := readPassword(c, "Confirm password > ")
	if err != nil {
		return "", err
	}
	if p1 != p2 {
		return "", errPhraseMismatch
	}
	return p1, nil
}

// walletConfig reads a wallet config file: YAML with Path and Password,
// as neo-go's (and the node's UnlockWallet section).
func walletConfig(path string) (*config.Wallet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("unable to read wallet config: %w", err)
	}
	cfg := new(config.Wallet)
	if err := yaml.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("failed to unmarshal wallet config YAML: %w", err)
	}
	return cfg, nil
}

// walletLocation returns the wallet path and, with --wallet-config, the
// password.
func walletLocation(c *cli.Command) (string, *string, error) {
	path, cfgPath := c.String("wallet"), c.String("wallet-config")
	switch {
	case path != "" && cfgPath != "":
		return "", nil, errConflictingFlags
	case path == "" && cfgPath == "":
		return "", nil, errNoWallet
	case cfgPath != "":
		cfg, err := walletConfig(cfgPath)
		if err != nil {
			return "", nil, err
		}
		if cfg.Path == "" {
			return "", nil, fmt.Errorf("wallet config %s has no Path", cfgPath)
		}
		return cfg.Path, &cfg.Password, nil
	}
	return path, nil, nil
}

// openWallet reads the wallet (a file is only read: nothing is written
// unless the command saves it). Built-in wallets (embedded:<name>) have no
// path and cannot be saved.
func openWallet(c *cli.Command) (*wallet.Wallet, *string, error) {
	path, pass, err := walletLocation(c)
	if err != nil {
		return nil, nil, err
	}
	if strings.HasPrefix(path, config.EmbeddedWalletPrefix) {
		data, err := config.ReadWallet(path)
		if err != nil {
			return nil, nil, err
		}
		w, err := wallet.NewWalletFromBytes(data)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to read wallet: %w", err)
		}
		return w, pass, nil
	}
	w, err := wallet.NewWalletFromFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to read wallet: %w", err)
	}
	return w, pass, nil
}

// openWalletForWrite is openWallet for commands that save the wallet.
func openWalletForWrite(c *cli.Command) (*wallet.Wallet, *string, error) {
	path, _, err := walletLocation(c)
	if err != nil {
		return nil, nil, err
	}
	if strings.HasPrefix(path, config.EmbeddedWalletPrefix) {
		return nil, nil, errEmbeddedReadOnly
	}
	return openWallet(c)
}

// unlock decrypts acc with the configured password or one read from the
// user. Accounts without a key (watch-only, deployed contracts) are left
// as they are.
func unlock(c *cli.Command, w *wallet.Wallet, acc *wallet.Account, pass *string) error {
	if acc.CanSign() || acc.EncryptedWIF == "" {
		return nil
	}
	var p string
	if pass != nil {
		p = *pass
	} else {
		var err error
		if p, err = readPassword(c, fmt.Sprintf("Enter account %s password > ", acc.Address)); err != nil {
			return err
		}
	}
	if err := acc.Decrypt(p, w.Scrypt); err != nil {
		return fmt.Errorf("can't decrypt account %s: %w", acc.Address, err)
	}
	return nil
}

// accountFor returns the wallet account of an address and unlocks it.
func accountFor(c *cli.Command, w *wallet.Wallet, h hash.Uint160, pass *string) (*wallet.Account, error) {
	acc := w.GetAccount(h)
	if acc == nil {
		return nil, fmt.Errorf("wallet contains no account for '%s'", neorpc.Uint160ToAddress(h))
	}
	if err := unlock(c, w, acc, pass); err != nil {
		return nil, err
	}
	return acc, nil
}

// addressOrDefault reads an address flag, or picks the wallet's change
// address (default account, else first standard one) when it is unset.
func addressOrDefault(c *cli.Command, flag string, w *wallet.Wallet) (hash.Uint160, error) {
	if s := c.String(flag); s != "" {
		return parseAddress(s)
	}
	h := w.GetChangeAddress()
	if h == (hash.Uint160{}) {
		return h, errors.New("can't get default address")
	}
	return h, nil
}

// rpcTimeout is the whole operation's time limit.
func rpcTimeout(c *cli.Command) time.Duration {
	d := c.Duration("timeout")
	if !c.IsSet("timeout") && c.Bool("await") {
		d = defaultAwaitTimeout
	}
	if d <= 0 {
		d = defaultRPCTimeout
	}
	return d
}

// dialRPC returns a client of --rpc-endpoint and a context bounded by
// --timeout.
func dialRPC(ctx context.Context, c *cli.Command) (*rpcclient.Client, context.Context, context.CancelFunc, error) {
	ep := c.String("rpc-endpoint")
	if ep == "" {
		return nil, nil, nil, errors.New("required flag --rpc-endpoint is empty")
	}
	if !strings.Contains(ep, "://") {
		ep = "http://" + ep
	}
	cl, err := rpcclient.New(ep, rpcclient.Options{RequestTimeout: -1})
	if err != nil {
		return nil, nil, nil, err
	}
	tctx, cancel := context.WithTimeout(ctx, rpcTimeout(c))
	return cl, tctx, func() { cancel(); cl.Close() }, nil
}

// ensureNoArgs refuses positional arguments.
func ensureNoArgs(c *cli.Command) error {
	if c.Args().Present() {
		return errors.New("additional arguments given while this command expects none")
	}
	return nil
}

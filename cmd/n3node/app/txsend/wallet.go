package txsend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"
	"go.yaml.in/yaml/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/wallet"
)

// Shared plumbing of the wallet and contract commands: flags, wallet
// files and accounts, RPC connections (prompts and passwords: package
// console).

const (
	DefaultRPCTimeout   = 10 * time.Second     // neo-go's options.DefaultTimeout
	defaultAwaitTimeout = 3 * 15 * time.Second // neo-go's DefaultAwaitableTimeout
)

var (
	ErrNoWallet         = errors.New("wallet path is mandatory and should be passed using (--wallet, -w) flags or via wallet config using --wallet-config flag")
	ErrConflictingFlags = errors.New("--wallet flag conflicts with --wallet-config flag, please, provide one of them to specify wallet location")
	ErrEmbeddedReadOnly = errors.New("built-in (embedded:) wallets are read-only")
)

// WalletFlags select the wallet: --wallet or --wallet-config.
func WalletFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "wallet", Aliases: []string{"w"}, Usage: "path to the wallet file (embedded:<name> for a built-in one); conflicts with --wallet-config"},
		&cli.StringFlag{Name: "wallet-config", Usage: "path to a YAML wallet config (Path, Password) that avoids password prompts; conflicts with --wallet"},
	}
}

// RPCFlags select the node: --rpc-endpoint and --timeout.
func RPCFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "rpc-endpoint", Aliases: []string{"r"}, Required: true, Usage: "RPC node address (http://host:port)"},
		&cli.DurationFlag{Name: "timeout", Aliases: []string{"s"}, Value: DefaultRPCTimeout, Usage: "timeout for the whole operation (45s with --await unless set)"},
	}
}

// AddressFlag is a flag taking an address or script hash (see ParseAddress).
func AddressFlag(name, usage string, aliases ...string) *cli.StringFlag {
	return &cli.StringFlag{Name: name, Aliases: aliases, Usage: usage}
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

// WalletLocation returns the wallet path and, with --wallet-config, the
// password.
func WalletLocation(c *cli.Command) (string, *string, error) {
	path, cfgPath := c.String("wallet"), c.String("wallet-config")
	switch {
	case path != "" && cfgPath != "":
		return "", nil, ErrConflictingFlags
	case path == "" && cfgPath == "":
		return "", nil, ErrNoWallet
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

// OpenWallet reads the wallet (a file is only read: nothing is written
// unless the command saves it). Built-in wallets (embedded:<name>) have no
// path and cannot be saved.
func OpenWallet(c *cli.Command) (*wallet.Wallet, *string, error) {
	path, pass, err := WalletLocation(c)
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

// OpenWalletForWrite is openWallet for commands that save the wallet.
func OpenWalletForWrite(c *cli.Command) (*wallet.Wallet, *string, error) {
	path, _, err := WalletLocation(c)
	if err != nil {
		return nil, nil, err
	}
	if strings.HasPrefix(path, config.EmbeddedWalletPrefix) {
		return nil, nil, ErrEmbeddedReadOnly
	}
	return OpenWallet(c)
}

// Unlock decrypts acc with the configured password or one read from the
// user. Accounts without a key (watch-only, deployed contracts) are left
// as they are.
func Unlock(c *cli.Command, w *wallet.Wallet, acc *wallet.Account, pass *string) error {
	if acc.CanSign() || acc.EncryptedWIF == "" {
		return nil
	}
	var p string
	if pass != nil {
		p = *pass
	} else {
		var err error
		if p, err = console.ReadPassword(c, fmt.Sprintf("Enter account %s password > ", acc.Address)); err != nil {
			return err
		}
	}
	if err := acc.Decrypt(p, w.Scrypt); err != nil {
		return fmt.Errorf("can't decrypt account %s: %w", acc.Address, err)
	}
	return nil
}

// AccountFor returns the wallet account of an address and unlocks it.
func AccountFor(c *cli.Command, w *wallet.Wallet, h hash.Uint160, pass *string) (*wallet.Account, error) {
	acc := w.GetAccount(h)
	if acc == nil {
		return nil, fmt.Errorf("wallet contains no account for '%s'", neorpc.Uint160ToAddress(h))
	}
	if err := Unlock(c, w, acc, pass); err != nil {
		return nil, err
	}
	return acc, nil
}

// OpenAccount opens the wallet and unlocks the account of the address in
// the flag named flag (missing is the error when the flag is empty). The
// caller closes the wallet.
func OpenAccount(c *cli.Command, flag string, missing error) (*wallet.Wallet, *wallet.Account, error) {
	if c.String(flag) == "" {
		return nil, nil, missing
	}
	h, err := ParseAddress(c.String(flag))
	if err != nil {
		return nil, nil, err
	}
	w, pass, err := OpenWallet(c)
	if err != nil {
		return nil, nil, err
	}
	acc, err := AccountFor(c, w, h, pass)
	if err != nil {
		w.Close()
		return nil, nil, err
	}
	return w, acc, nil
}

// AddressOrDefault reads an address flag, or picks the wallet's change
// address (default account, else first standard one) when it is unset.
func AddressOrDefault(c *cli.Command, flag string, w *wallet.Wallet) (hash.Uint160, error) {
	if s := c.String(flag); s != "" {
		return ParseAddress(s)
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
		d = DefaultRPCTimeout
	}
	return d
}

// DialRPC returns a client of --rpc-endpoint and a context bounded by
// --timeout.
func DialRPC(ctx context.Context, c *cli.Command) (*rpcclient.Client, context.Context, context.CancelFunc, error) {
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

// HistoricFlag selects the state of test invocations (ReadHistoric).
func HistoricFlag() cli.Flag {
	return &cli.StringFlag{Name: "historic", Usage: "use a historic state: a block height, a block hash or a state root hash"}
}

// ErrInvalidHistoric: --historic is neither a height nor a hash.
var ErrInvalidHistoric = errors.New("invalid 'historic' parameter, neither a block number, nor a block/state hash")

// ReadHistoric reads --historic: a decimal height, or a block or state
// root hash (LE hex; the node tells which). Unset is the current state.
func ReadHistoric(c *cli.Command) (rpcclient.Historic, error) {
	s := c.String("historic")
	if s == "" {
		return rpcclient.Historic{}, nil
	}
	if h, err := strconv.ParseUint(s, 10, 32); err == nil {
		return rpcclient.AtHeight(uint32(h)), nil
	}
	if u, err := hash.Uint256DecodeStringLE(strings.TrimPrefix(s, "0x")); err == nil {
		return rpcclient.WithState(u), nil
	}
	return rpcclient.Historic{}, ErrInvalidHistoric
}

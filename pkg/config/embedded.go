package config

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// networkFS holds the built-in configurations, networks/protocol.<name>.yml.
//
//go:embed networks/*.yml
var networkFS embed.FS

// walletFS holds the built-in NEP-6 wallets of the private networks.
//
//go:embed wallets/*.json
var walletFS embed.FS

// EmbeddedWalletPrefix starts a wallet path that names a built-in wallet,
// e.g. "embedded:wallet1_solo.json".
const EmbeddedWalletPrefix = "embedded:"

// DefaultNetwork is the configuration `n3node run` uses without arguments:
// the single-node private network.
const DefaultNetwork = "privnet"

// Networks returns the names of the built-in configurations, sorted.
func Networks() []string {
	entries, _ := fs.ReadDir(networkFS, "networks")
	var res []string
	for _, e := range entries {
		name := strings.TrimSuffix(strings.TrimPrefix(e.Name(), "protocol."), ".yml")
		res = append(res, name)
	}
	slices.Sort(res)
	return res
}

// EmbeddedConfig returns the YAML of a built-in configuration.
func EmbeddedConfig(name string) ([]byte, error) {
	if strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("%w %q", ErrUnknownNetwork, name)
	}
	b, err := networkFS.ReadFile("networks/protocol." + name + ".yml")
	if err != nil {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownNetwork, name, strings.Join(Networks(), ", "))
	}
	return b, nil
}

// LoadNetwork decodes and validates a built-in configuration.
func LoadNetwork(name string) (Config, error) {
	b, err := EmbeddedConfig(name)
	if err != nil {
		return Config{}, err
	}
	return LoadBytes("embedded:"+name, b)
}

// Wallets returns the names of the built-in wallets, sorted.
func Wallets() []string {
	entries, _ := fs.ReadDir(walletFS, "wallets")
	res := make([]string, 0, len(entries))
	for _, e := range entries {
		res = append(res, e.Name())
	}
	return res
}

// EmbeddedWallet returns the bytes of a built-in wallet (a copy).
func EmbeddedWallet(name string) ([]byte, error) {
	if strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("config: unknown embedded wallet %q", name)
	}
	b, err := walletFS.ReadFile("wallets/" + name)
	if err != nil {
		return nil, fmt.Errorf("config: unknown embedded wallet %q (known: %s)", name, strings.Join(Wallets(), ", "))
	}
	return b, nil
}

// ReadWallet returns the wallet file a Wallet.Path names: a built-in one
// for "embedded:<name>", otherwise the file on disk.
func ReadWallet(path string) ([]byte, error) {
	if name, ok := strings.CutPrefix(path, EmbeddedWalletPrefix); ok {
		return EmbeddedWallet(name)
	}
	return os.ReadFile(path)
}

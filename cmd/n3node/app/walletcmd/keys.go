package walletcmd

import (
	"context"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/wallet"
)

// Key management commands: change-password, export, strip-keys,
// import-deployed and convert (Neo Legacy wallets).

func keyCommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:      "change-password",
			Usage:     "change the password of accounts",
			UsageText: "n3node wallet change-password -w wallet [-a address]",
			Description: `Asks for the old password, decrypts every account (or only -a) with it,
   then asks for the new one twice and re-encrypts them.`,
			Flags:  append(txsend.WalletFlags(), txsend.AddressFlag("address", "account to change the password of (default: all)", "a")),
			Action: changePassword,
		},
		{
			Name:      "convert",
			Usage:     "convert a Neo Legacy NEP-6 wallet to Neo N3",
			UsageText: "n3node wallet convert -w legacywallet [--wallet-config path] -o n3wallet",
			Description: `Decrypts every account of a Neo 2 wallet (a password is asked per account
   unless the wallet has one account and a config gives its password) and
   writes a new N3 wallet with the same keys, labels and flags: signature
   accounts become N3 signature accounts, multisig ones N3 multisig
   accounts of the same keys.`,
			Flags: append(txsend.WalletFlags(),
				&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "where to write the converted wallet"}),
			Action: convertWallet,
		},
		{
			Name:      "export",
			Usage:     "print the key of accounts",
			UsageText: "n3node wallet export -w wallet [--wallet-config path] [--decrypt] [--format nep2|wif|pem] [<address>]",
			Description: `Prints the NEP-2 key of every account (or of <address>); --format wif or
   pem (or the deprecated -d, as wif) prints the decrypted key of <address>,
   which is then required.`,
			Flags: append(txsend.WalletFlags(),
				&cli.BoolFlag{Name: "decrypt", Aliases: []string{"d"}, Usage: "print the WIF (deprecated: --format wif)"},
				&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "nep2", Usage: "key format: nep2, wif or pem"}),
			Action: exportKeys,
		},
		{
			Name:      "import-deployed",
			Usage:     "import a deployed contract as an account (verified by its verify method)",
			UsageText: "n3node wallet import-deployed -w wallet [--wallet-config path] --wif <wif> --contract <hash> -r endpoint [-s timeout] [-n name]",
			Flags: append(append(txsend.WalletFlags(),
				&cli.StringFlag{Name: "wif", Required: true, Usage: "WIF (or NEP-2) key of the account"},
				&cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "account label"},
				&cli.StringFlag{Name: "contract", Aliases: []string{"c"}, Required: true, Usage: "contract hash or address"}),
				txsend.RPCFlags()...),
			Action: importDeployed,
		},
		{
			Name:      "strip-keys",
			Usage:     "remove the private keys of all accounts",
			UsageText: "n3node wallet strip-keys -w wallet [--wallet-config path] [--force]",
			Description: `Removes every account's key (a watch-only wallet that can build
   transactions for offline signing). Irreversible without a backup.`,
			Flags:  append(txsend.WalletFlags(), &cli.BoolFlag{Name: "force", Usage: "do not ask for a confirmation"}),
			Action: stripKeys,
		},
	}
}

func changePassword(ctx context.Context, c *cli.Command) error {
	w, _, err := openWallet(c, true)
	if err != nil {
		return err
	}
	defer w.Close()
	if len(w.Accounts) == 0 {
		return errors.New("wallet has no accounts")
	}
	accs := w.Accounts
	if s := c.String("address"); s != "" {
		h, err := txsend.ParseAddress(s)
		if err != nil {
			return err
		}
		// Known before any password is asked.
		if w.GetAccount(h) == nil {
			return errors.New("account is missing")
		}
		accs = w.GetAccounts(h)
	}
	old, err := console.ReadPassword(c, "Enter old password > ")
	if err != nil {
		return fmt.Errorf("error reading old password: %w", err)
	}
	for _, a := range accs {
		if err := a.Decrypt(old, w.Scrypt); err != nil {
			return fmt.Errorf("unable to decrypt account %s: %w", a.Address, err)
		}
	}
	phrase, err := console.ReadNewPassword(c)
	if err != nil {
		return fmt.Errorf("error reading new password: %w", err)
	}
	for _, a := range accs {
		if err := a.Encrypt(phrase, w.Scrypt); err != nil {
			return err
		}
	}
	if err := w.Save(); err != nil {
		return fmt.Errorf("error saving the wallet: %w", err)
	}
	return nil
}

func exportKeys(ctx context.Context, c *cli.Command) error {
	w, pass, err := txsend.OpenWallet(c)
	if err != nil {
		return err
	}
	defer w.Close()
	format := "nep2"
	if c.Bool("decrypt") {
		format = "wif"
	}
	if c.IsSet("format") {
		format = c.String("format")
	}
	if format != "nep2" && format != "wif" && format != "pem" {
		return fmt.Errorf("unknown private key export format: %s", format)
	}
	var addr string
	switch args := c.Args().Slice(); {
	case len(args) > 0:
		addr = args[0]
		if _, err := address.ToUint160(addr); err != nil {
			return fmt.Errorf("can't parse address: %w", err)
		}
	case format != "nep2":
		return errors.New("address must be provided if '--decrypt' or '--format wif|pem' flags are used")
	}
	// One line per distinct key (a key shared by a multisig account is
	// printed once).
	var nep2s []string
	for _, a := range w.Accounts {
		if (addr == "" || a.Address == addr) && !slices.Contains(nep2s, a.EncryptedWIF) {
			nep2s = append(nep2s, a.EncryptedWIF)
		}
	}
	out := console.Stdout(c)
	for _, k := range nep2s {
		if format == "nep2" {
			fmt.Fprintln(out, k)
			continue
		}
		if pass == nil {
			p, err := console.ReadPassword(c, "Enter password > ")
			if err != nil {
				return fmt.Errorf("error reading password: %w", err)
			}
			pass = &p
		}
		priv, err := keys.NEP2Decrypt(k, *pass, w.Scrypt)
		if err != nil {
			return err
		}
		if format == "wif" {
			fmt.Fprintln(out, priv.WIF())
			continue
		}
		der, err := x509.MarshalPKCS8PrivateKey(priv.ECDSA())
		if err != nil {
			return fmt.Errorf("failed to marshal private key to DER form: %w", err)
		}
		if err := pem.Encode(out, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
			return fmt.Errorf("failed to encode PEM: %w", err)
		}
	}
	return nil
}

func stripKeys(ctx context.Context, c *cli.Command) error {
	w, _, err := openWallet(c, true)
	if err != nil {
		return err
	}
	defer w.Close()
	if !c.Bool("force") {
		fmt.Fprintln(console.Stdout(c), "All private keys for all accounts will be removed from the wallet. This action is irreversible.")
		if !consent(c) {
			return nil
		}
	}
	for _, a := range w.Accounts {
		a.EncryptedWIF = ""
	}
	if err := w.Save(); err != nil {
		return fmt.Errorf("error while saving wallet: %w", err)
	}
	return nil
}

func importDeployed(ctx context.Context, c *cli.Command) error {
	h, w, pass, err := openForHash(c, "contract")
	if err != nil {
		return err
	}
	defer w.Close()
	acc, err := accountFromKey(c, w, c.String("wif"), false, pass)
	if err != nil {
		return err
	}
	acc.Label = c.String("name")
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	cs, err := cl.GetContractState(tctx, h)
	if err != nil {
		return fmt.Errorf("can't fetch contract info: %w", err)
	}
	verify := cs.Manifest.ABI.GetMethod(manifest.MethodVerify, -1)
	if verify == nil || verify.ReturnType != smartcontract.BoolType {
		return errors.New("contract has no `verify` method with boolean return")
	}
	acc.Contract = &wallet.Contract{Deployed: true, Parameters: []wallet.ContractParam{}}
	for _, p := range verify.Parameters {
		acc.Contract.Parameters = append(acc.Contract.Parameters, wallet.ContractParam{Name: p.Name, Type: p.Type})
	}
	acc.SetScriptHash(cs.Hash)
	return addAccountAndSave(w, acc)
}

// legacyWallet is a Neo 2 NEP-6 wallet, read only to be converted.
type legacyWallet struct {
	Accounts []legacyAccount   `json:"accounts"`
	Scrypt   keys.ScryptParams `json:"scrypt"`
}

type legacyAccount struct {
	Address  string `json:"address"`
	Key      string `json:"key"`
	Label    string `json:"label"`
	Locked   bool   `json:"lock"`
	Default  bool   `json:"isDefault"`
	Contract *struct {
		Script     hexBytes               `json:"script"`
		Parameters []wallet.ContractParam `json:"parameters"`
		Deployed   bool                   `json:"deployed"`
	} `json:"contract"`
}

// hexBytes is a hex string in JSON.
type hexBytes []byte

func (b *hexBytes) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	v, err := hex.DecodeString(s)
	*b = v
	return err
}

func convertWallet(ctx context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	path, pass, err := txsend.WalletLocation(c)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var old legacyWallet
	if err := json.Unmarshal(data, &old); err != nil {
		return err
	}
	nw, err := wallet.NewWallet(c.String("out"))
	if err != nil {
		return err
	}
	nw.Scrypt = old.Scrypt
	for _, la := range old.Accounts {
		if len(old.Accounts) != 1 || pass == nil {
			p, err := console.ReadPassword(c, fmt.Sprintf("Enter password for account %s (label '%s') > ", la.Address, la.Label))
			if err != nil {
				return fmt.Errorf("error reading password: %w", err)
			}
			pass = &p
		}
		acc, err := convertAccount(la, *pass, old.Scrypt)
		if err != nil {
			return err
		}
		nw.AddAccount(acc)
	}
	return nw.Save()
}

// convertAccount decrypts a legacy account's key and makes the N3
// account of the same kind, encrypted with the same password.
func convertAccount(la legacyAccount, pass string, p keys.ScryptParams) (*wallet.Account, error) {
	priv, err := keys.NEP2DecryptLegacy(la.Key, pass, p)
	if err != nil {
		return nil, err
	}
	acc := wallet.NewAccountFromPrivateKey(priv)
	if la.Contract != nil && !isLegacySignatureScript(la.Contract.Script) {
		m, pubs, ok := parseLegacyMultisig(la.Contract.Script)
		if !ok {
			return nil, errors.New("invalid multisig contract")
		}
		script, err := smartcontract.CreateMultiSigRedeemScript(m, pubs)
		if err != nil {
			return nil, errors.New("can't create new multisig contract")
		}
		acc.Contract = &wallet.Contract{Script: script, Parameters: la.Contract.Parameters, Deployed: la.Contract.Deployed}
	}
	acc.SetScriptHash(acc.Contract.ScriptHash())
	acc.Default, acc.Label, acc.Locked = la.Default, la.Label, la.Locked
	return acc, acc.Encrypt(pass, p)
}

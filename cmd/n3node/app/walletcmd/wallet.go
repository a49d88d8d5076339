package walletcmd

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/wallet"
)

// nep2Len is the length of every NEP-2 string (base58 of 39 bytes); neo-go
// tells NEP-2 from WIF by it.
const nep2Len = 58

// Command is `n3node wallet`.
func Command() *cli.Command {
	one := 1
	return &cli.Command{
		Name:  "wallet",
		Usage: "create and manage NEP-6 wallets, send transactions through any N3 node's RPC",
		Description: `Wallet files are NEP-6 JSON (neo-go and C# compatible). They are only read,
   except by commands that change them (init, create, import*, remove), which
   save the whole file atomically. --wallet-config names a YAML file with Path
   and Password for scripts; otherwise passwords are asked without echo.
   -w embedded:wallet1_solo.json opens a built-in privnet wallet (read-only).`,
		Commands: append([]*cli.Command{
			{
				Name:      "init",
				Usage:     "create a new wallet file",
				UsageText: "n3node wallet init -w wallet [--wallet-config path] [-a]",
				Flags: append(txsend.WalletFlags(),
					&cli.BoolFlag{Name: "account", Aliases: []string{"a"}, Usage: "also create an account"},
					&cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "label of the new account (with -a)"}),
				Action: walletInit,
			},
			{
				Name:      "create",
				Usage:     "add a new account (random key) to a wallet",
				UsageText: "n3node wallet create -w wallet [--wallet-config path] [-n label]",
				Flags:     append(txsend.WalletFlags(), &cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "account label"}),
				Action:    walletCreate,
			},
			{
				Name:      "import",
				Usage:     "import a WIF or NEP-2 key as a standard signature account",
				UsageText: "n3node wallet import -w wallet [--wallet-config path] (--wif <wif> | --nep2 <key>) [-n label] [--contract hex]",
				Description: `A 58-character --wif is taken as NEP-2 (as neo-go does); --nep2 says so
   explicitly. A NEP-2 key keeps its encryption (its password is asked, or the
   wallet config's is used); a plain WIF is encrypted with a new password.`,
				Flags: append(txsend.WalletFlags(),
					&cli.StringFlag{Name: "wif", Usage: "WIF (or NEP-2) key to import"},
					&cli.StringFlag{Name: "nep2", Usage: "NEP-2 encrypted key to import"},
					&cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "account label"},
					&cli.StringFlag{Name: "contract", Usage: "verification script (hex) for a custom contract"}),
				Action: walletImport,
			},
			{
				Name:      "import-multisig",
				Usage:     "import an m-of-n multi-signature account",
				UsageText: "n3node wallet import-multisig -w wallet [--wallet-config path] [--wif <wif>] [-n label] --min <m> <pubkey1> [<pubkey2> [...]]",
				Description: `Makes the standard m-of-n multi-signature account of the given public keys.
   With --wif its key (one of the n) is imported; otherwise a wallet account
   holding one of the keys is converted (its key is shared).`,
				Flags: append(txsend.WalletFlags(),
					&cli.StringFlag{Name: "wif", Usage: "WIF (or NEP-2) of this wallet's share"},
					&cli.StringFlag{Name: "name", Aliases: []string{"n"}, Usage: "account label"},
					&cli.IntFlag{Name: "min", Aliases: []string{"m"}, Usage: "signatures required (m)"}),
				StopOnNthArg: &one,
				Action:       walletImportMultisig,
			},
			{
				Name:      "list",
				Usage:     "list the accounts of a wallet",
				UsageText: "n3node wallet list -w wallet",
				Flags:     txsend.WalletFlags(),
				Action:    walletList,
			},
			{
				Name:      "dump",
				Usage:     "print the wallet JSON",
				UsageText: "n3node wallet dump -w wallet [--wallet-config path] [-d]",
				Flags:     append(txsend.WalletFlags(), &cli.BoolFlag{Name: "decrypt", Aliases: []string{"d"}, Usage: "check that every key decrypts"}),
				Action:    walletDump,
			},
			{
				Name:      "dump-keys",
				Usage:     "print the public keys of accounts",
				UsageText: "n3node wallet dump-keys -w wallet [-a address]",
				Flags:     append(txsend.WalletFlags(), txsend.AddressFlag("address", "account to print the keys of", "a")),
				Action:    walletDumpKeys,
			},
			{
				Name:      "remove",
				Usage:     "remove an account from a wallet",
				UsageText: "n3node wallet remove -w wallet -a address [--force]",
				Flags: append(txsend.WalletFlags(), txsend.AddressFlag("address", "account to remove", "a"),
					&cli.BoolFlag{Name: "force", Usage: "do not ask for a confirmation"}),
				Action: walletRemove,
			},
			{
				Name:      "sign",
				Usage:     "add this wallet's signature to a parameter-context file; send it when complete",
				UsageText: "n3node wallet sign -w wallet [--wallet-config path] -a address --in file [--out file] [-r endpoint] [--await]",
				Description: `Signs the transaction of a parameter context (made with --out by a
   transaction command, or by neo-go/C#) with the account's key. The result
   goes to --out, or is printed when neither --out nor -r is given. With -r
   a complete transaction is sent (and with --await, awaited).`,
				Flags: append(txsend.WalletFlags(),
					txsend.AddressFlag("address", "account to sign with", "a"),
					&cli.StringFlag{Name: "in", Required: true, Usage: "parameter context file to sign"},
					&cli.StringFlag{Name: "out", Usage: "file to write the signed context to (may be --in)"},
					&cli.StringFlag{Name: "rpc-endpoint", Aliases: []string{"r"}, Usage: "RPC node to send the complete transaction to"},
					&cli.DurationFlag{Name: "timeout", Aliases: []string{"s"}, Value: txsend.DefaultRPCTimeout, Usage: "timeout for sending (45s with --await unless set)"},
					&cli.BoolFlag{Name: "await", Usage: "wait for the transaction to be included in a block"}),
				Action: walletSign,
			},
			{
				Name:      "claim",
				Usage:     "claim GAS (a 0 NEO transfer to oneself)",
				UsageText: "n3node wallet claim -w wallet -a address -r endpoint [tx flags]",
				Flags: append(append(append(txsend.WalletFlags(), txsend.AddressFlag("address", "account to claim GAS for", "a")),
					txsend.TxFlags()...), txsend.RPCFlags()...),
				Action: walletClaim,
			},
			balanceCommand("balance"),
			{
				Name:     "nep17",
				Usage:    "work with NEP-17 tokens",
				Commands: nep17Commands(),
			},
			{
				Name:     "nep11",
				Usage:    "work with NEP-11 (non-fungible) tokens",
				Commands: nep11Commands(),
			},
			{
				Name:     "candidate",
				Usage:    "register candidates and vote",
				Commands: candidateCommands(),
			},
		}, keyCommands()...),
	}
}

// openWallet starts the wallet commands that take no positional
// arguments: it refuses arguments, then opens the wallet, for writing if
// write. The caller closes the wallet; pass is the password the wallet
// config gives, if any.
func openWallet(c *cli.Command, write bool) (*wallet.Wallet, *string, error) {
	if err := console.EnsureNoArgs(c); err != nil {
		return nil, nil, err
	}
	if write {
		return txsend.OpenWalletForWrite(c)
	}
	return txsend.OpenWallet(c)
}

func walletInit(ctx context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	path, pass, err := txsend.WalletLocation(c)
	if err != nil {
		return err
	}
	if strings.HasPrefix(path, "embedded:") {
		return txsend.ErrEmbeddedReadOnly
	}
	withAccount := c.Bool("account")
	if withAccount && pass == nil {
		// The password first: no file is written when it cannot be read.
		phrase, err := console.ReadNewPassword(c)
		if err != nil {
			return err
		}
		pass = &phrase
	}
	w, err := wallet.NewWallet(path)
	if err != nil {
		return err
	}
	if err := w.Save(); err != nil {
		return err
	}
	if withAccount {
		if _, err := createAccount(c, w, pass); err != nil {
			_ = os.Remove(path) // the file this command made
			return err
		}
		defer w.Close()
	}
	printWallet(c, w)
	fmt.Fprintf(console.Stdout(c), "wallet successfully created, file location is %s\n", w.Path())
	return nil
}

func walletCreate(ctx context.Context, c *cli.Command) error {
	w, pass, err := openWallet(c, true)
	if err != nil {
		return err
	}
	defer w.Close()
	acc, err := createAccount(c, w, pass)
	if err != nil {
		return err
	}
	fmt.Fprintln(console.Stdout(c), acc.Address)
	return nil
}

// createAccount adds a random key (saved by CreateAccount).
func createAccount(c *cli.Command, w *wallet.Wallet, pass *string) (*wallet.Account, error) {
	var phrase string
	if pass != nil {
		phrase = *pass
	} else {
		var err error
		if phrase, err = console.ReadNewPassword(c); err != nil {
			return nil, err
		}
	}
	return w.CreateAccount(c.String("name"), phrase)
}

func printWallet(c *cli.Command, w *wallet.Wallet) {
	b, _ := w.JSON()
	fmt.Fprintln(console.Stdout(c))
	fmt.Fprintln(console.Stdout(c), string(b))
	fmt.Fprintln(console.Stdout(c))
}

// accountFromKey imports a WIF or NEP-2 key, encrypted for the wallet.
func accountFromKey(c *cli.Command, w *wallet.Wallet, key string, nep2 bool, pass *string) (*wallet.Account, error) {
	if nep2 || len(key) == nep2Len {
		var phrase string
		if pass != nil {
			phrase = *pass
		} else {
			var err error
			if phrase, err = console.ReadPassword(c, "Enter password > "); err != nil {
				return nil, err
			}
		}
		return wallet.NewAccountFromEncryptedWIF(key, phrase, w.Scrypt)
	}
	acc, err := wallet.NewAccountFromWIF(key)
	if err != nil {
		return nil, err
	}
	// On standard output, also when the password comes from a wallet
	// configuration, as neo-go prints it.
	fmt.Fprintln(console.Stdout(c), "Provided WIF was unencrypted. Wallet can contain only encrypted keys.")
	phrase := ""
	if pass != nil {
		phrase = *pass
	} else {
		if phrase, err = console.ReadNewPassword(c); err != nil {
			return nil, err
		}
	}
	if err := acc.Encrypt(phrase, w.Scrypt); err != nil {
		return nil, err
	}
	return acc, nil
}

func addAccountAndSave(w *wallet.Wallet, acc *wallet.Account) error {
	for _, a := range w.Accounts {
		if a.Address == acc.Address {
			return fmt.Errorf("address '%s' is already in wallet", acc.Address)
		}
	}
	w.AddAccount(acc)
	return w.Save()
}

func walletImport(ctx context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	key, nep2 := c.String("wif"), false
	if k := c.String("nep2"); k != "" {
		if key != "" {
			return errors.New("--wif and --nep2 are exclusive")
		}
		key, nep2 = k, true
	}
	if key == "" {
		return errors.New("a key to import is required (--wif or --nep2)")
	}
	w, pass, err := txsend.OpenWalletForWrite(c)
	if err != nil {
		return err
	}
	defer w.Close()
	acc, err := accountFromKey(c, w, key, nep2, pass)
	if err != nil {
		return err
	}
	acc.Label = c.String("name")
	if s := c.String("contract"); s != "" {
		script, err := hex.DecodeString(s)
		if err != nil {
			return errors.New("invalid contract")
		}
		acc.Contract.Script = script
		acc.SetScriptHash(acc.Contract.ScriptHash())
	}
	// Nothing on standard output (but the notice of an unencrypted WIF),
	// as neo-go.
	return addAccountAndSave(w, acc)
}

func walletImportMultisig(ctx context.Context, c *cli.Command) error {
	w, pass, err := txsend.OpenWalletForWrite(c)
	if err != nil {
		return err
	}
	defer w.Close()
	m := int(c.Int("min"))
	args := txsend.CLIArgs(c)
	if m < 1 {
		return errors.New("--min must be at least 1")
	}
	if len(args) < m {
		return errors.New("insufficient number of public keys")
	}
	pubs := make([]*keys.PublicKey, len(args))
	for i, a := range args {
		if pubs[i], err = keys.NewPublicKeyFromString(a); err != nil {
			return fmt.Errorf("can't decode public key %d: %w", i, err)
		}
	}
	var acc *wallet.Account
	if key := c.String("wif"); key != "" {
		if acc, err = accountFromKey(c, w, key, false, pass); err != nil {
			return err
		}
		if err := txsend.Unlock(c, w, acc, pass); err != nil {
			return err
		}
		if err := acc.ConvertMultisig(m, pubs); err != nil {
			return err
		}
	} else {
		// An account of the wallet holding exactly one of the keys.
		var own *keys.PublicKey
		for _, pub := range pubs {
			for _, a := range w.Accounts {
				if a.ScriptHash() != pub.ScriptHash() {
					continue
				}
				if acc != nil {
					return errNoShare
				}
				cp := *a
				acc, own = &cp, pub
			}
		}
		if acc == nil {
			return errNoShare
		}
		if err := acc.ConvertMultisigEncrypted(own, m, pubs); err != nil {
			return err
		}
	}
	acc.Label = c.String("name")
	acc.Default = false
	// Nothing on standard output, as neo-go.
	return addAccountAndSave(w, acc)
}

// accountKind describes an account's contract.
func accountKind(a *wallet.Account) string {
	switch {
	case a.Contract == nil:
		return "watch-only"
	case a.Contract.Deployed:
		return "contract"
	}
	if smartcontract.IsSignatureContract(a.Contract.Script) {
		return "standard"
	}
	if m, n, ok := smartcontract.ParseMultiSigContractMN(a.Contract.Script); ok {
		return fmt.Sprintf("multisig %d/%d", m, n)
	}
	return "custom"
}

func walletList(ctx context.Context, c *cli.Command) error {
	w, _, err := openWallet(c, false)
	if err != nil {
		return err
	}
	out := console.Stdout(c)
	for _, a := range w.Accounts {
		flags := ""
		if a.Default {
			flags += " default"
		}
		if a.Locked {
			flags += " locked"
		}
		if a.EncryptedWIF == "" {
			flags += " no-key"
		}
		fmt.Fprintf(out, "%s\t%s\t%s\t%q%s\n", a.Address, a.ScriptHash().String(), accountKind(a), a.Label, flags)
	}
	return nil
}

func walletDump(ctx context.Context, c *cli.Command) error {
	w, pass, err := openWallet(c, false)
	if err != nil {
		return err
	}
	defer w.Close()
	if c.Bool("decrypt") {
		if pass == nil {
			// One password for all the accounts, as neo-go asks.
			p, err := console.ReadPassword(c, "Enter password > ")
			if err != nil {
				return err
			}
			pass = &p
		}
		for _, a := range w.Accounts {
			if err := txsend.Unlock(c, w, a, pass); err != nil {
				return err
			}
		}
	}
	printWallet(c, w)
	return nil
}

func walletDumpKeys(ctx context.Context, c *cli.Command) error {
	w, _, err := openWallet(c, false)
	if err != nil {
		return err
	}
	accs := w.Accounts
	if s := c.String("address"); s != "" {
		h, err := txsend.ParseAddress(s)
		if err != nil {
			return err
		}
		acc := w.GetAccount(h)
		if acc == nil {
			return errors.New("account is missing")
		}
		accs = []*wallet.Account{acc}
	}
	out := console.Stdout(c)
	printed := false
	for _, a := range accs {
		if a.Contract == nil {
			continue
		}
		if pub, ok := smartcontract.ParseSignatureContract(a.Contract.Script); ok {
			if printed {
				fmt.Fprintln(out)
			}
			fmt.Fprintf(out, "%s (simple signature contract):\n%s\n", a.Address, hex.EncodeToString(pub))
			printed = true
			continue
		}
		if m, pubs, ok := smartcontract.ParseMultiSigContract(a.Contract.Script); ok {
			if printed {
				fmt.Fprintln(out)
			}
			fmt.Fprintf(out, "%s (%d out of %d multisig contract):\n", a.Address, m, len(pubs))
			for _, p := range pubs {
				fmt.Fprintln(out, p.StringCompressed())
			}
			printed = true
			continue
		}
		if len(accs) == 1 {
			return fmt.Errorf("unknown script type for address %s", a.Address)
		}
	}
	return nil
}

func walletRemove(ctx context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	if c.String("address") == "" {
		return errors.New("required flag --address is missing")
	}
	h, err := txsend.ParseAddress(c.String("address"))
	if err != nil {
		return err
	}
	w, _, err := txsend.OpenWalletForWrite(c)
	if err != nil {
		return err
	}
	acc := w.GetAccount(h)
	if acc == nil {
		return errors.New("account wasn't found")
	}
	if !c.Bool("force") {
		fmt.Fprintf(console.Stderr(c), "Account %s will be removed. This action is irreversible.\n", acc.Address)
		if !consent(c) {
			return nil
		}
	}
	if err := w.RemoveAccount(acc.Address); err != nil {
		return fmt.Errorf("error on remove: %w", err)
	}
	return w.Save()
}

func walletSign(ctx context.Context, c *cli.Command) error {
	if err := console.EnsureNoArgs(c); err != nil {
		return err
	}
	pc, err := txsend.ReadContext(c.String("in"))
	if err != nil {
		return err
	}
	w, acc, err := txsend.OpenAccount(c, "address", errors.New("address was not provided"))
	if err != nil {
		return err
	}
	defer w.Close()
	if !pc.Tx.HasSigner(acc.ScriptHash()) {
		return errors.New("tx signers don't contain provided account")
	}
	rpcEP, out := c.String("rpc-endpoint"), c.String("out")
	if acc.CanSign() {
		if err := actor.SignContext(pc, acc); err != nil {
			return fmt.Errorf("can't add signature: %w", err)
		}
	} else if rpcEP == "" {
		return errors.New("can't sign transactions with the given account and no RPC endpoint given to send anything signed")
	}
	if out == "" && rpcEP == "" {
		b, err := json.MarshalIndent(pc, " ", "     ")
		if err != nil {
			return fmt.Errorf("can't display resulting context: %w", err)
		}
		fmt.Fprintln(console.Stdout(c), string(b))
		return nil
	}
	if out != "" {
		if err := txsend.WriteContext(out, pc); err != nil {
			return fmt.Errorf("can't save resulting context: %w", err)
		}
	}
	if rpcEP == "" {
		txsend.DumpTxInfo(console.Stdout(c), pc.Tx.Hash(), nil)
		return nil
	}
	cl, tctx, done, err := txsend.DialRPC(ctx, c)
	if err != nil {
		return err
	}
	defer done()
	txh, err := actor.SendContext(tctx, cl, pc)
	if err != nil {
		return fmt.Errorf("failed to submit transaction to RPC node: %w", err)
	}
	var aer *state.AppExecResult
	if c.Bool("await") {
		v, err := cl.GetVersion(tctx)
		if err != nil {
			return err
		}
		iv := time.Duration(v.Protocol.MillisecondsPerBlock) * time.Millisecond / 2
		if aer, err = actor.Wait(tctx, cl, txh, pc.Tx.ValidUntilBlock, iv); err != nil {
			return fmt.Errorf("failed to await transaction %s: %w", txh.StringLE(), err)
		}
	}
	txsend.DumpTxInfo(console.Stdout(c), txh, aer)
	return nil
}

func walletClaim(ctx context.Context, c *cli.Command) error {
	return accountAction(ctx, c, transaction.CalledByEntry, nil, func(ctx context.Context, act *actor.Actor, acc *wallet.Account) ([]byte, error) {
		return nep17.TransferScript(nep17.Transfer{Token: nep17.NEO.Hash, From: act.Sender(), To: act.Sender(), Amount: new(big.Int)})
	})
}

// errNoShare: import-multisig without --wif found no single wallet account
// holding one of the keys (neo-go's text).
var errNoShare = errors.New("none of the provided public keys correspond to an existing key in the wallet or multiple matching accounts found in the wallet, and no WIF is provided")

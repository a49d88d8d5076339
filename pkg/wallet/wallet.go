package wallet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Version is the wallet format version written (neo-go and C# write "1.0").
const Version = "1.0"

// Errors.
var (
	// ErrPathIsEmpty: Save was called on a wallet without a path.
	ErrPathIsEmpty = errors.New("path is empty")
	// ErrExists: NewWallet was given the path of an existing file.
	ErrExists = errors.New("wallet file already exists")
	// ErrAccountNotFound: no account with that address or hash.
	ErrAccountNotFound = errors.New("account wasn't found")
	// ErrTokenNotFound: no token with that hash.
	ErrTokenNotFound = errors.New("token wasn't found")
	// ErrInvalidWallet: the document is not a usable NEP-6 wallet.
	ErrInvalidWallet = errors.New("invalid wallet")
)

// Wallet is a NEP-6 wallet.
type Wallet struct {
	// Name is the C# wallet name; neo-go neither reads nor writes it, so
	// it is written only when set.
	Name string
	// Version is the format version, "1.0".
	Version string
	// Accounts in file order.
	Accounts []*Account
	// Scrypt holds the NEP-2 key derivation parameters of every account.
	Scrypt keys.ScryptParams
	// Extra holds imported tokens (neo-go's extension).
	Extra Extra

	path string
}

// Extra is the wallet's "extra" object as neo-go writes it.
type Extra struct {
	// Tokens is the list of imported token contracts.
	Tokens []*Token `json:"Tokens"`
}

// walletJSON fixes the field order: neo-go's first, then C#'s name.
type walletJSON struct {
	Version  string            `json:"version"`
	Accounts []*Account        `json:"accounts"`
	Scrypt   keys.ScryptParams `json:"scrypt"`
	Extra    *Extra            `json:"extra"`
	Name     *string           `json:"name,omitempty"`
}

// MarshalJSON writes the NEP-6 document.
func (w *Wallet) MarshalJSON() ([]byte, error) {
	accs := w.Accounts
	if accs == nil {
		accs = []*Account{}
	}
	j := walletJSON{Version: w.Version, Accounts: accs, Scrypt: w.Scrypt, Extra: &w.Extra}
	if w.Name != "" {
		j.Name = &w.Name
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a NEP-6 document (neo-go's or C#'s form); null
// accounts are refused. Addresses are not checked here (Account.ScriptHash
// of a bad one is the zero hash, as in neo-go).
func (w *Wallet) UnmarshalJSON(data []byte) error {
	var j walletJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	for i, a := range j.Accounts {
		if a == nil {
			return fmt.Errorf("%w: account #%d is null", ErrInvalidWallet, i)
		}
	}
	w.Version, w.Accounts, w.Scrypt = j.Version, j.Accounts, j.Scrypt
	w.Extra = Extra{}
	if j.Extra != nil {
		w.Extra = *j.Extra
	}
	w.Name = ""
	if j.Name != nil {
		w.Name = *j.Name
	}
	return nil
}

// NewInMemoryWallet returns an empty wallet with NEP-2's default scrypt
// parameters and no path.
func NewInMemoryWallet() *Wallet {
	return &Wallet{Version: Version, Accounts: []*Account{}, Scrypt: keys.NEP2ScryptParams()}
}

// NewWallet creates an empty wallet file at path; it refuses to overwrite
// an existing file.
func NewWallet(path string) (*Wallet, error) {
	if _, err := os.Lstat(path); err == nil {
		return nil, fmt.Errorf("%w: %s", ErrExists, path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	w := NewInMemoryWallet()
	w.path = path
	if err := w.SavePretty(); err != nil {
		return nil, err
	}
	return w, nil
}

// NewWalletFromFile reads the wallet at path (read only).
func NewWalletFromFile(path string) (*Wallet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("open wallet: %w", err)
	}
	w, err := NewWalletFromBytes(data)
	if err != nil {
		return nil, err
	}
	w.path = path
	return w, nil
}

// NewWalletFromBytes decodes a wallet document; the result has no path.
func NewWalletFromBytes(data []byte) (*Wallet, error) {
	w := &Wallet{}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(w); err != nil {
		return nil, fmt.Errorf("unmarshal wallet: %w", err)
	}
	return w, nil
}

// Path returns the file the wallet is saved to.
func (w *Wallet) Path() string { return w.path }

// SetPath sets the file the wallet is saved to.
func (w *Wallet) SetPath(path string) { w.path = path }

// Save writes the compact JSON form to the wallet's path atomically.
func (w *Wallet) Save() error {
	data, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return w.writeFile(data)
}

// SavePretty writes the JSON indented by two spaces (the form of neo-go's
// wallet files) to the wallet's path atomically.
func (w *Wallet) SavePretty() error {
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	return w.writeFile(data)
}

// JSON returns the wallet as neo-go's Wallet.JSON prints it (prefix " ",
// tab indentation).
func (w *Wallet) JSON() ([]byte, error) { return json.MarshalIndent(w, " ", "\t") }

// writeFile replaces the file at w.path with data: temporary file in the
// same directory, sync, rename, sync of the directory.
func (w *Wallet) writeFile(data []byte) error {
	if w.path == "" {
		return ErrPathIsEmpty
	}
	mode := fs.FileMode(0o600)
	if st, err := os.Stat(w.path); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(w.path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(w.path)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = tmp.Close()
			_ = os.Remove(name)
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, w.path); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// CreateAccount adds a new random key encrypted with passphrase under the
// given label and saves the wallet.
func (w *Wallet) CreateAccount(label, passphrase string) (*Account, error) {
	acc, err := NewAccount()
	if err != nil {
		return nil, err
	}
	acc.Label = label
	if err := acc.Encrypt(passphrase, w.Scrypt); err != nil {
		return nil, err
	}
	w.AddAccount(acc)
	return acc, w.Save()
}

// AddAccount appends acc.
func (w *Wallet) AddAccount(acc *Account) { w.Accounts = append(w.Accounts, acc) }

// RemoveAccount removes the first account with the given address.
func (w *Wallet) RemoveAccount(addr string) error {
	for i, acc := range w.Accounts {
		if acc.Address == addr {
			w.Accounts = append(w.Accounts[:i], w.Accounts[i+1:]...)
			return nil
		}
	}
	return ErrAccountNotFound
}

// AddToken appends tok to the imported tokens.
func (w *Wallet) AddToken(tok *Token) { w.Extra.Tokens = append(w.Extra.Tokens, tok) }

// RemoveToken removes the token with the given hash.
func (w *Wallet) RemoveToken(h hash.Uint160) error {
	for i, tok := range w.Extra.Tokens {
		if tok.Hash == h {
			w.Extra.Tokens = append(w.Extra.Tokens[:i], w.Extra.Tokens[i+1:]...)
			return nil
		}
	}
	return ErrTokenNotFound
}

// GetAccount returns the first account for script hash h, or nil.
func (w *Wallet) GetAccount(h hash.Uint160) *Account {
	return w.GetAccountByAddress(address.FromUint160(h))
}

// GetAccountByAddress returns the first account with the address, or nil.
func (w *Wallet) GetAccountByAddress(addr string) *Account {
	for _, acc := range w.Accounts {
		if acc.Address == addr {
			return acc
		}
	}
	return nil
}

// GetAccounts returns every account for script hash h (a key can appear
// as several accounts only with different contracts, so normally one).
func (w *Wallet) GetAccounts(h hash.Uint160) []*Account {
	addr := address.FromUint160(h)
	var res []*Account
	for _, acc := range w.Accounts {
		if acc.Address == addr {
			res = append(res, acc)
		}
	}
	return res
}

// DefaultAccount returns the account marked isDefault, else the first
// standard single-signature account, else the first account, else nil.
func (w *Wallet) DefaultAccount() *Account {
	for _, acc := range w.Accounts {
		if acc.Default {
			return acc
		}
	}
	for _, acc := range w.Accounts {
		if acc.Contract != nil && smartcontract.IsSignatureContract(acc.Contract.Script) {
			return acc
		}
	}
	if len(w.Accounts) > 0 {
		return w.Accounts[0]
	}
	return nil
}

// SetDefault marks the account for h as the default and clears the mark
// on the others.
func (w *Wallet) SetDefault(h hash.Uint160) error {
	target := w.GetAccount(h)
	if target == nil {
		return ErrAccountNotFound
	}
	for _, acc := range w.Accounts {
		acc.Default = acc == target
	}
	return nil
}

// GetChangeAddress returns the script hash that change goes to, as neo-go
// chooses it: the default account if it is a standard single-signature
// one, else the first such account; the zero hash if there is none.
func (w *Wallet) GetChangeAddress() hash.Uint160 {
	var acc *Account
	for _, a := range w.Accounts {
		if acc == nil || a.Default {
			if a.Contract != nil && smartcontract.IsSignatureContract(a.Contract.Script) {
				acc = a
				if a.Default {
					break
				}
			}
		}
	}
	if acc == nil {
		return hash.Uint160{}
	}
	return acc.Contract.ScriptHash()
}

// Close forgets every decrypted key.
func (w *Wallet) Close() {
	for _, acc := range w.Accounts {
		acc.Close()
	}
}

// ErrNoKeys is returned by ReadKeys when the password opens no account.
var ErrNoKeys = errors.New("no wallet account opens with the password")

// ReadKeys reads the wallet a configuration names (a file or
// "embedded:<name>", config.ReadWallet) and returns the keys its password
// opens (UnlockKeys). It is the one way the node's services (consensus,
// StateRoot, notary, oracle) get their signing keys; as neo-go, a wallet
// the password opens no account of is an error (ErrNoKeys, wrapped with the
// path).
func ReadKeys(cw config.Wallet) ([]*keys.PrivateKey, error) {
	data, err := config.ReadWallet(cw.Path)
	if err != nil {
		return nil, err
	}
	w, err := NewWalletFromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cw.Path, err)
	}
	ks := w.UnlockKeys(cw.Password)
	if len(ks) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNoKeys, cw.Path)
	}
	return ks, nil
}

// UnlockKeys decrypts every account the password opens and returns each
// distinct key once, in account order. Wallets often hold one key under
// several contracts (neo-go's consensus wallets have it three times); each
// NEP-2 key is decrypted once, scrypt being slow on purpose. The node's
// services use it to get their signing keys.
func (w *Wallet) UnlockKeys(password string) []*keys.PrivateKey {
	var ks []*keys.PrivateKey
	tried := make(map[string]bool)
	for _, acc := range w.Accounts {
		if acc.EncryptedWIF == "" || tried[acc.EncryptedWIF] {
			continue
		}
		tried[acc.EncryptedWIF] = true
		if acc.Decrypt(password, w.Scrypt) != nil {
			continue
		}
		k := acc.PrivateKey()
		if !slices.ContainsFunc(ks, func(o *keys.PrivateKey) bool { return o.PublicKey().Equal(k.PublicKey()) }) {
			ks = append(ks, k)
		}
	}
	return ks
}

package consensus

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/wallet"
)

// ErrNoKeys means no account of the consensus wallet opened with the
// password.
var ErrNoKeys = errors.New("consensus: no wallet account opens with the password")

// UnlockWallet reads the consensus wallet (ApplicationConfiguration.
// Consensus.UnlockWallet: a file or "embedded:<name>") and decrypts every
// account the password opens, returning each key once, for Config.Keys.
// As neo-go, it fails if the password opens none.
func UnlockWallet(w config.Wallet) ([]*keys.PrivateKey, error) {
	data, err := config.ReadWallet(w.Path)
	if err != nil {
		return nil, fmt.Errorf("consensus wallet: %w", err)
	}
	wl, err := wallet.NewWalletFromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("consensus wallet %s: %w", w.Path, err)
	}
	var ks []*keys.PrivateKey
	// Wallets often hold one key under several contracts (neo-go's
	// consensus wallets have it three times); each NEP-2 key is decrypted
	// once, scrypt being slow on purpose.
	tried := make(map[string]bool)
	for _, acc := range wl.Accounts {
		if acc.EncryptedWIF == "" || tried[acc.EncryptedWIF] {
			continue
		}
		tried[acc.EncryptedWIF] = true
		if acc.Decrypt(w.Password, wl.Scrypt) != nil {
			continue
		}
		k := acc.PrivateKey()
		dup := false
		for _, o := range ks {
			if o.PublicKey().Equal(k.PublicKey()) {
				dup = true
				break
			}
		}
		if !dup {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNoKeys, w.Path)
	}
	return ks, nil
}

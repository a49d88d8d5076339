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
	ks, err := wallet.ReadKeys(w)
	if err != nil {
		return nil, fmt.Errorf("consensus wallet: %w", err)
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNoKeys, w.Path)
	}
	return ks, nil
}

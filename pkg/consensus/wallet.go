package consensus

import (
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/wallet"
)

// ErrNoKeys means no account of the consensus wallet opened with the
// password (wallet.ErrNoKeys).
var ErrNoKeys = wallet.ErrNoKeys

// UnlockWallet returns the keys of the consensus wallet
// (ApplicationConfiguration.Consensus.UnlockWallet) for Config.Keys:
// wallet.ReadKeys, with the error naming the consensus wallet.
func UnlockWallet(w config.Wallet) ([]*keys.PrivateKey, error) {
	ks, err := wallet.ReadKeys(w)
	if err != nil {
		return nil, fmt.Errorf("consensus wallet: %w", err)
	}
	return ks, nil
}

package consensus

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/wallet"
)

func TestUnlockWallet(t *testing.T) {
	ks := testKeys(t, 2)
	w := wallet.NewInMemoryWallet()
	w.Scrypt = keys.ScryptParams{N: 16, R: 1, P: 1} // cheap
	for i, k := range ks {
		acc := wallet.NewAccountFromPrivateKey(k)
		pass := "right"
		if i == 1 {
			pass = "other"
		}
		if err := acc.Encrypt(pass, w.Scrypt); err != nil {
			t.Fatal(err)
		}
		w.AddAccount(acc)
		// The same key again as a multi-signature account.
		multi, err := wallet.NewMultisigAccount(k, 1, []*keys.PublicKey{k.PublicKey()})
		if err != nil {
			t.Fatal(err)
		}
		if err := multi.Encrypt(pass, w.Scrypt); err != nil {
			t.Fatal(err)
		}
		w.AddAccount(multi)
	}
	data, err := w.JSON()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := UnlockWallet(config.Wallet{Path: path, Password: "right"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got[0].PublicKey().Equal(ks[0].PublicKey()) {
		t.Fatalf("unlocked %d keys", len(got))
	}
	if _, err := UnlockWallet(config.Wallet{Path: path, Password: "wrong"}); !errors.Is(err, ErrNoKeys) {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := UnlockWallet(config.Wallet{Path: "embedded:nonexistent.json"}); err == nil {
		t.Fatal("missing wallet")
	}
}

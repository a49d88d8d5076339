package wallet

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// fastScrypt keeps NEP-2 cheap in tests (the parameters neo-go's test
// wallets use).
var fastScrypt = keys.ScryptParams{N: 2, R: 1, P: 1}

func TestRoundTripNeoGoFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		if filepath.Base(f) == "csharp.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWalletFromBytes(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := json.MarshalIndent(w, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s: re-encoding differs:\n%s", f, got)
		}
		// Through the file API too.
		dst := filepath.Join(t.TempDir(), "w.json")
		w.SetPath(dst)
		if err := w.SavePretty(); err != nil {
			t.Fatal(err)
		}
		saved, _ := os.ReadFile(dst)
		if !bytes.Equal(saved, data) {
			t.Errorf("%s: saved file differs", f)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d wallet files", n)
	}
}

func TestDecryptNeoGoWallet(t *testing.T) {
	w, err := NewWalletFromFile("testdata/wallet1.json")
	if err != nil {
		t.Fatal(err)
	}
	if w.Path() != "testdata/wallet1.json" || len(w.Accounts) != 2 {
		t.Fatal("wallet1.json")
	}
	acc := w.Accounts[0]
	if acc.CanSign() {
		t.Fatal("signs before decryption")
	}
	if err := acc.Decrypt("wrong", w.Scrypt); err == nil {
		t.Fatal("wrong password accepted")
	}
	if err := acc.Decrypt("one", w.Scrypt); err != nil {
		t.Fatal(err)
	}
	if acc.PrivateKey().Address() != acc.Address {
		t.Fatal("key does not match address")
	}
	if !bytes.Equal(acc.PublicKey().VerificationScript(), acc.Contract.Script) {
		t.Fatal("script")
	}
	// The second account is a 3-of-4 multisig holding the same key.
	multi := w.Accounts[1]
	m, pubs, ok := smartcontract.ParseMultiSigContract(multi.Contract.Script)
	if !ok || m != 3 || len(pubs) != 4 || multi.ScriptHash() != hash.Hash160(multi.Contract.Script) {
		t.Fatal("multisig account")
	}
	if err := multi.Decrypt("one", w.Scrypt); err != nil {
		t.Fatal(err)
	}
	conv := NewAccountFromPrivateKey(acc.PrivateKey())
	if err := conv.ConvertMultisig(3, pubs); err != nil {
		t.Fatal(err)
	}
	if conv.Address != multi.Address || !bytes.Equal(conv.Contract.Script, multi.Contract.Script) {
		t.Fatal("ConvertMultisig differs from the file")
	}
	w.Close()
	if acc.CanSign() || multi.CanSign() {
		t.Fatal("Close")
	}
	if acc.SignData(1, hash.Uint256{}) != nil {
		t.Fatal("signed after Close")
	}
}

func TestCSharpForm(t *testing.T) {
	data, err := os.ReadFile("testdata/csharp.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWalletFromBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if w.Name != "MyWallet" || len(w.Accounts) != 2 || w.Scrypt != keys.NEP2ScryptParams() {
		t.Fatalf("%+v", w)
	}
	watch := w.Accounts[1]
	if watch.Contract != nil || watch.EncryptedWIF != "" || watch.Label != "" {
		t.Fatal("watch-only account")
	}
	if string(w.Accounts[0].Extra) != `{"note":1}` {
		t.Fatalf("extra %s", w.Accounts[0].Extra)
	}
	out, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := NewWalletFromBytes(out)
	if err != nil || w2.Name != w.Name || string(w2.Accounts[0].Extra) != `{"note":1}` {
		t.Fatalf("re-read: %v", err)
	}
}

func TestCreateSaveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wallet.json")
	w, err := NewWallet(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewWallet(path); !errors.Is(err, ErrExists) {
		t.Fatalf("overwrite: %v", err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	w.Scrypt = fastScrypt
	acc, err := w.CreateAccount("main", "pass")
	if err != nil {
		t.Fatal(err)
	}
	wif := "L1QqQJnpBwbsPGAuutuzPTac8piqvbR1HRjrY5qHup48TBCBFe4g"
	imp, err := NewAccountFromWIF(wif)
	if err != nil {
		t.Fatal(err)
	}
	if imp.Address != "NPTmAHDxo6Pkyic8Nvu3kwyXoYJCvcCB6i" {
		t.Fatalf("WIF address %s", imp.Address)
	}
	if err := imp.Encrypt("pass2", w.Scrypt); err != nil {
		t.Fatal(err)
	}
	w.AddAccount(imp)
	if err := w.SetDefault(imp.ScriptHash()); err != nil {
		t.Fatal(err)
	}
	tok := NewToken(hash.Uint160{1, 2, 3}, "Token", "TKN", 8, "NEP-17")
	w.AddToken(tok)
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := w.Save(); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatal("mode not kept")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}

	r, err := NewWalletFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Accounts) != 2 || r.Accounts[0].Label != "main" || r.Accounts[0].Address != acc.Address {
		t.Fatal("accounts")
	}
	if r.DefaultAccount().Address != imp.Address || r.GetChangeAddress() != imp.ScriptHash() {
		t.Fatal("default")
	}
	if r.GetAccount(acc.ScriptHash()) != r.Accounts[0] || r.GetAccountByAddress(imp.Address) != r.Accounts[1] ||
		len(r.GetAccounts(imp.ScriptHash())) != 1 || r.GetAccount(hash.Uint160{9}) != nil {
		t.Fatal("lookup")
	}
	if len(r.Extra.Tokens) != 1 || *r.Extra.Tokens[0] != *tok || tok.Address() == "" {
		t.Fatal("token")
	}
	if err := r.Accounts[1].Decrypt("pass2", r.Scrypt); err != nil || r.Accounts[1].PrivateKey().WIF() != wif {
		t.Fatalf("decrypt: %v", err)
	}
	// NEP-2 import.
	nep, err := NewAccountFromEncryptedWIF(r.Accounts[1].EncryptedWIF, "pass2", r.Scrypt)
	if err != nil || nep.Address != imp.Address {
		t.Fatal(err)
	}
	if err := r.RemoveToken(tok.Hash); err != nil || r.RemoveToken(tok.Hash) == nil {
		t.Fatal("RemoveToken")
	}
	if err := r.RemoveAccount(acc.Address); err != nil || len(r.Accounts) != 1 {
		t.Fatal("RemoveAccount")
	}
	if !errors.Is(r.RemoveAccount(acc.Address), ErrAccountNotFound) {
		t.Fatal("RemoveAccount twice")
	}
	if !errors.Is(NewInMemoryWallet().Save(), ErrPathIsEmpty) {
		t.Fatal("Save without path")
	}
	if _, err := r.JSON(); err != nil {
		t.Fatal(err)
	}
}

func TestSignTxSingle(t *testing.T) {
	const magic = 860833102
	k, _ := keys.NewPrivateKeyFromHex("7d128a6d096f0c14c3a25a2b0c41cf79661bfcb4a8cc95aaaea28bde4d732344")
	acc := NewAccountFromPrivateKey(k)
	other, _ := NewAccount()
	tx := transaction.New([]byte{0x11}, 1, 0, 0, 10)
	tx.Signers = []transaction.Signer{{Account: other.ScriptHash()}, {Account: acc.ScriptHash()}}
	if err := acc.SignTx(magic, tx); !errors.Is(err, ErrPrevSigner) {
		t.Fatalf("out of order: %v", err)
	}
	if err := other.SignTx(magic, tx); err != nil {
		t.Fatal(err)
	}
	if err := acc.SignTx(magic, tx); err != nil {
		t.Fatal(err)
	}
	for i, a := range []*Account{other, acc} {
		w := tx.Witnesses[i]
		sig, ok := smartcontract.ParseSignatureInvocation(w.InvocationScript)
		if !ok || !bytes.Equal(w.VerificationScript, a.Contract.Script) {
			t.Fatalf("witness %d form", i)
		}
		msg := tx.SignData(magic)
		if !a.PublicKey().VerifyMessage(sig, msg[:]) {
			t.Fatalf("witness %d does not verify", i)
		}
	}
	// Re-signing replaces the signature.
	if err := acc.SignTx(magic, tx); err != nil || len(tx.Witnesses[1].InvocationScript) != 66 {
		t.Fatal("re-sign")
	}
	stranger, _ := NewAccount()
	if err := stranger.SignTx(magic, tx); !errors.Is(err, ErrNotSigner) {
		t.Fatal(err)
	}
	acc.Locked = true
	if err := acc.SignTx(magic, tx); !errors.Is(err, ErrLocked) {
		t.Fatal(err)
	}
	acc.Locked = false
	acc.Close()
	if err := acc.SignTx(magic, tx); !errors.Is(err, ErrNoKey) {
		t.Fatal(err)
	}
	watch := &Account{Address: acc.Address}
	if err := watch.SignTx(magic, tx); !errors.Is(err, ErrNoContract) {
		t.Fatal(err)
	}
}

func TestContractAccount(t *testing.T) {
	h := hash.Uint160{7}
	acc := NewContractAccount(h, 1, func(*transaction.Transaction) ([]byte, error) { return []byte{0x11}, nil })
	tx := transaction.New([]byte{0x11}, 1, 0, 0, 10)
	tx.Signers = []transaction.Signer{{Account: h}}
	if err := acc.SignTx(1, tx); err != nil {
		t.Fatal(err)
	}
	if len(tx.Witnesses) != 1 || tx.Witnesses[0].VerificationScript != nil || !bytes.Equal(tx.Witnesses[0].InvocationScript, []byte{0x11}) {
		t.Fatal("contract witness")
	}
}

func TestMultisigAccount(t *testing.T) {
	var privs []*keys.PrivateKey
	var pubs []*keys.PublicKey
	for range 3 {
		k, _ := keys.NewPrivateKey()
		privs = append(privs, k)
		pubs = append(pubs, k.PublicKey())
	}
	acc, err := NewMultisigAccount(privs[0], 2, pubs)
	if err != nil {
		t.Fatal(err)
	}
	if len(acc.Contract.Parameters) != 2 || acc.Contract.Parameters[1].Name != "parameter1" {
		t.Fatal("parameters")
	}
	outsider, _ := keys.NewPrivateKey()
	if _, err := NewMultisigAccount(outsider, 2, pubs); !errors.Is(err, ErrKeyNotInMultisig) {
		t.Fatal(err)
	}
	if _, err := NewMultisigAccount(privs[0], 4, pubs); err == nil {
		t.Fatal("m > n accepted")
	}
}

func TestNullAccount(t *testing.T) {
	if _, err := NewWalletFromBytes([]byte(`{"version":"1.0","accounts":[null],"scrypt":{"n":2,"r":1,"p":1},"extra":null}`)); !errors.Is(err, ErrInvalidWallet) {
		t.Fatal(err)
	}
}

// TestUnlockKeys: every account the password opens, each key once (a key
// under two contracts), none of another password's.
func TestUnlockKeys(t *testing.T) {
	w := NewInMemoryWallet()
	w.Scrypt = fastScrypt
	add := func(pass string) *Account {
		acc, err := NewAccount()
		if err != nil {
			t.Fatal(err)
		}
		if err := acc.Encrypt(pass, w.Scrypt); err != nil {
			t.Fatal(err)
		}
		w.AddAccount(acc)
		return acc
	}
	a := add("pass")
	same := NewAccountFromPrivateKey(a.PrivateKey())
	same.Contract = nil // the same key under another (here: no) contract
	if err := same.Encrypt("pass", w.Scrypt); err != nil {
		t.Fatal(err)
	}
	w.AddAccount(same)
	add("other")
	b := add("pass")
	ks := w.UnlockKeys("pass")
	if len(ks) != 2 || !ks[0].PublicKey().Equal(a.PrivateKey().PublicKey()) || !ks[1].PublicKey().Equal(b.PrivateKey().PublicKey()) {
		t.Fatalf("unlocked %d keys", len(ks))
	}
	if ks := w.UnlockKeys("wrong"); len(ks) != 0 {
		t.Fatalf("wrong password unlocked %d keys", len(ks))
	}
}

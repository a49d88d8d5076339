package app

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/wallet"
)

// Tests of the key-management wallet commands (change-password, export,
// strip-keys, import-deployed, convert) and the wallet-side token
// commands (nep17 import/info/remove).

func TestWalletKeyCommands(t *testing.T) {
	e := newCLIEnv(t)
	k1, k2 := testKey(t, 1), testKey(t, 2)
	path, cfg := e.wallet("w", "secret", k1, k2)

	// export: NEP-2 of every key by default, WIF and PEM of one address.
	w, err := wallet.NewWalletFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if out := e.run("wallet", "export", "-w", path); out != w.Accounts[0].EncryptedWIF+"\n"+w.Accounts[1].EncryptedWIF+"\n" {
		t.Errorf("export:\n%s", out)
	}
	if out := e.run("wallet", "export", "--wallet-config", cfg, "--format", "wif", k2.Address()); out != k2.WIF()+"\n" {
		t.Errorf("export wif: %q", out)
	}
	if out := e.run("wallet", "export", "--wallet-config", cfg, "-d", k1.Address()); out != k1.WIF()+"\n" {
		t.Errorf("export -d: %q", out)
	}
	out := e.run("wallet", "export", "--wallet-config", cfg, "--format", "pem", k1.Address())
	blk, _ := pem.Decode([]byte(out))
	if blk == nil || blk.Type != "PRIVATE KEY" {
		t.Fatalf("export pem:\n%s", out)
	}
	if pk, err := x509.ParsePKCS8PrivateKey(blk.Bytes); err != nil || !k1.ECDSA().Equal(pk) {
		t.Errorf("pem key: %v", err)
	}
	if err := e.fail("", "wallet", "export", "-w", path, "--format", "wif"); !strings.Contains(err.Error(), "address must be provided") {
		t.Errorf("export wif without address: %v", err)
	}
	if err := e.fail("", "wallet", "export", "-w", path, "--format", "raw", k1.Address()); !strings.Contains(err.Error(), "unknown private key export format: raw") {
		t.Errorf("export bad format: %v", err)
	}

	// change-password: one account, then the wallet config's password no
	// longer opens it.
	if err := e.fail("secret\n", "wallet", "change-password", "-w", path, "-a", testKey(t, 9).Address()); !strings.Contains(err.Error(), "account is missing") {
		t.Errorf("change-password of a missing account: %v", err)
	}
	if err := e.fail("wrong\n", "wallet", "change-password", "-w", path); !strings.Contains(err.Error(), "unable to decrypt account") {
		t.Errorf("change-password with a wrong password: %v", err)
	}
	if _, err := cliRun(context.Background(), "secret\nnew\nnew\n", "wallet", "change-password", "-w", path, "-a", k2.Address()); err != nil {
		t.Fatal(err)
	}
	if out, err := cliRun(context.Background(), "new\n", "wallet", "export", "-w", path, "--format", "wif", k2.Address()); err != nil || out != k2.WIF()+"\n" {
		t.Errorf("export after change-password: %q %v", out, err)
	}
	if out := e.run("wallet", "export", "--wallet-config", cfg, "--format", "wif", k1.Address()); out != k1.WIF()+"\n" {
		t.Errorf("other account's password changed: %q", out)
	}

	// import-deployed: a contract with verify(bool) becomes a deployed
	// account with verify's parameters.
	ch := hash.Uint160{0xde, 0xad}
	m := manifest.DefaultManifest("Verifier")
	m.ABI.Methods = []manifest.Method{{Name: manifest.MethodVerify, ReturnType: smartcontract.BoolType,
		Parameters: []manifest.Parameter{{Name: "sig", Type: smartcontract.SignatureType}}}}
	e.srv.Result("getcontractstate", state.Contract{ContractBase: state.ContractBase{ID: 7, Hash: ch, Manifest: *m}})
	k3 := testKey(t, 3)
	e.run("wallet", "import-deployed", "--wallet-config", cfg, "-r", e.srv.URL, "--wif", k3.WIF(), "--contract", ch.StringLE(), "-n", "dep")
	w, _ = wallet.NewWalletFromFile(path)
	acc := w.GetAccount(ch)
	if acc == nil || !acc.Contract.Deployed || len(acc.Contract.Script) != 0 || acc.Label != "dep" ||
		len(acc.Contract.Parameters) != 1 || acc.Contract.Parameters[0].Name != "sig" {
		t.Fatalf("deployed account: %+v", acc)
	}
	if err := acc.Decrypt("secret", w.Scrypt); err != nil || acc.PrivateKey().WIF() != k3.WIF() {
		t.Errorf("deployed account's key: %v", err)
	}
	m.ABI.Methods[0].ReturnType = smartcontract.IntegerType
	e.srv.Result("getcontractstate", state.Contract{ContractBase: state.ContractBase{ID: 7, Hash: ch, Manifest: *m}})
	if err := e.fail("", "wallet", "import-deployed", "--wallet-config", cfg, "-r", e.srv.URL, "--wif", k3.WIF(), "--contract", ch.StringLE()); !strings.Contains(err.Error(), "no `verify` method") {
		t.Errorf("import-deployed without verify: %v", err)
	}

	// strip-keys: declined, then forced.
	if out, err := cliRun(context.Background(), "n\n", "wallet", "strip-keys", "-w", path); err != nil || !strings.Contains(out, "Cancelled.") {
		t.Errorf("declined strip-keys: %q %v", out, err)
	}
	e.run("wallet", "strip-keys", "-w", path, "--force")
	w, _ = wallet.NewWalletFromFile(path)
	for _, a := range w.Accounts {
		if a.EncryptedWIF != "" {
			t.Errorf("%s keeps its key", a.Address)
		}
	}
}

// TestWalletConvert converts a Neo 2 wallet (testdata/neo2_wallet.json,
// written by neo-go 0.120.0's keys package with the Neo 2 address prefix,
// password "pw", scrypt N=2 r=1 p=1: a signature account of key 1 and a
// 2-of-3 multisig of keys 1..3 sharing key 1).
func TestWalletConvert(t *testing.T) {
	e := newCLIEnv(t)
	k1, k2, k3 := testKey(t, 1), testKey(t, 2), testKey(t, 3)
	in, out := filepath.Join("testdata", "neo2_wallet.json"), filepath.Join(e.dir, "neo3.json")
	if _, err := cliRun(context.Background(), "pw\nwrong\n", "wallet", "convert", "-w", in, "-o", out); err == nil {
		t.Error("convert with a wrong password succeeded")
	}
	os.Remove(out)
	if _, err := cliRun(context.Background(), "pw\npw\n", "wallet", "convert", "-w", in, "-o", out); err != nil {
		t.Fatal(err)
	}
	w, err := wallet.NewWalletFromFile(out)
	if err != nil || len(w.Accounts) != 2 {
		t.Fatalf("converted: %v", err)
	}
	if a := w.Accounts[0]; a.Address != k1.Address() || !a.Default || a.Label != "one" {
		t.Errorf("signature account: %+v", a)
	}
	wantMulti, _ := smartcontract.CreateMultiSigRedeemScript(2, []*keys.PublicKey{k1.PublicKey(), k2.PublicKey(), k3.PublicKey()})
	if a := w.Accounts[1]; a.ScriptHash() != hash.Hash160(wantMulti) || len(a.Contract.Parameters) != 2 {
		t.Errorf("multisig account: %+v", a)
	}
	for _, a := range w.Accounts {
		if err := a.Decrypt("pw", w.Scrypt); err != nil || a.PrivateKey().WIF() != k1.WIF() {
			t.Errorf("%s: key %v", a.Address, err)
		}
	}
	if k1.LegacyAddress() != "APZAGVFavhQi1SkvdVnXdT2PY5SdN787RS" {
		t.Errorf("legacy address %s", k1.LegacyAddress())
	}
}

func TestTokenWalletCommands(t *testing.T) {
	e := newCLIEnv(t)
	path, _ := e.wallet("w", "secret", testKey(t, 1))
	tok := hash.Uint160{0x17}
	m := manifest.DefaultManifest("Tok")
	m.SupportedStandards = []string{manifest.NEP17StandardName}
	e.srv.Result("getcontractstate", state.Contract{ContractBase: state.ContractBase{ID: 5, Hash: tok, Manifest: *m}})
	e.srv.Do(func() {
		e.chain.InvokeStack = []json.RawMessage{json.RawMessage(`{"type":"ByteString","value":"VE9L"}`), json.RawMessage(`{"type":"Integer","value":"2"}`)}
	})
	want := "Name:\tTok\nSymbol:\tTOK\nHash:\t" + tok.StringLE() + "\nDecimals: 2\nAddress: " + neorpc.Uint160ToAddress(tok) + "\nStandard:\tNEP-17\n"
	if out := e.run("wallet", "nep17", "import", "-w", path, "-r", e.srv.URL, "--token", tok.StringLE()); out != want {
		t.Errorf("import:\n%s", out)
	}
	if err := e.fail("", "wallet", "nep11", "import", "-w", path, "-r", e.srv.URL, "--token", tok.StringLE()); !strings.Contains(err.Error(), "can't receive token info") {
		t.Errorf("NEP-17 token imported as NEP-11: %v", err)
	}
	if err := e.fail("", "wallet", "nep17", "import", "-w", path, "-r", e.srv.URL, "--token", tok.StringLE()); !strings.Contains(err.Error(), "NEP-17 token already exists") {
		t.Errorf("second import: %v", err)
	}
	if out := e.run("wallet", "nep17", "info", "-w", path, "--token", "TOK"); out != want {
		t.Errorf("info:\n%s", out)
	}
	if out := e.run("wallet", "nep11", "info", "-w", path); out != "" {
		t.Errorf("nep11 info:\n%s", out)
	}
	if out, err := cliRun(context.Background(), "no\n", "wallet", "nep17", "remove", "-w", path, "--token", "TOK"); err != nil || out != "Cancelled.\n" {
		t.Errorf("declined remove: %q %v", out, err)
	}
	e.run("wallet", "nep17", "remove", "-w", path, "--token", tok.StringLE(), "--force")
	if err := e.fail("", "wallet", "nep17", "info", "-w", path, "--token", "TOK"); err.Error() == "" || !strings.Contains(err.Error(), "NEP-17 token was not found") {
		t.Errorf("info after remove: %v", err)
	}
}

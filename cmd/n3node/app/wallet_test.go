package app

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/cmd/n3node/app/console"
	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/rpcclient/rpctest"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	sccontext "github.com/n3node/n3node/pkg/smartcontract/context"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/wallet"

	nio "github.com/n3node/n3node/pkg/io"
)

// Tests of the wallet and contract commands, run in process against a
// fake node (pkg/rpcclient/rpctest) that checks every signature it gets.

func testKey(t *testing.T, seed byte) *keys.PrivateKey {
	t.Helper()
	b := make([]byte, 32)
	for i := range b {
		b[i] = seed + byte(i)
	}
	k, err := keys.NewPrivateKeyFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var fastScrypt = keys.ScryptParams{N: 2, R: 1, P: 1}

type cliEnv struct {
	t     *testing.T
	dir   string
	srv   *rpctest.Server
	chain *rpctest.Chain
}

func newCLIEnv(t *testing.T) *cliEnv {
	srv := rpctest.NewServer()
	t.Cleanup(srv.Close)
	chain := rpctest.NewChain()
	chain.Serve(srv)
	return &cliEnv{t: t, dir: t.TempDir(), srv: srv, chain: chain}
}

// run runs the CLI and fails the test on an error.
func (e *cliEnv) run(args ...string) string {
	e.t.Helper()
	out, err := cliRun(context.Background(), "", args...)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

// fail runs the CLI and returns its error, failing the test on success.
func (e *cliEnv) fail(stdin string, args ...string) error {
	e.t.Helper()
	_, err := cliRun(context.Background(), stdin, args...)
	if err == nil {
		e.t.Fatalf("n3node %s: no error", strings.Join(args, " "))
	}
	return err
}

// wallet makes a wallet file with the given keys (password pass) and a
// wallet config for it; it returns the config's path.
func (e *cliEnv) wallet(name, pass string, ks ...*keys.PrivateKey) (path, cfg string) {
	e.t.Helper()
	path = filepath.Join(e.dir, name+".json")
	cfg = filepath.Join(e.dir, name+".yml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("Path: %s\nPassword: %s\n", path, pass)), 0o600); err != nil {
		e.t.Fatal(err)
	}
	// Cheap scrypt parameters keep the many key decryptions fast.
	w, err := wallet.NewWallet(path)
	if err != nil {
		e.t.Fatal(err)
	}
	w.Scrypt = fastScrypt
	if err := w.Save(); err != nil {
		e.t.Fatal(err)
	}
	for _, k := range ks {
		e.run("wallet", "import", "--wallet-config", cfg, "--wif", k.WIF())
	}
	return path, cfg
}

func (e *cliEnv) sent() []*transaction.Transaction {
	var out []*transaction.Transaction
	e.srv.Do(func() { out = append(out, e.chain.Sent...) })
	return out
}

func TestWalletFileCommands(t *testing.T) {
	e := newCLIEnv(t)
	k1, k2, k3 := testKey(t, 1), testKey(t, 2), testKey(t, 3)
	initPath := filepath.Join(e.dir, "init.json")
	out := e.run("wallet", "init", "-w", initPath)
	if !strings.HasSuffix(out, "wallet successfully created, file location is "+initPath+"\n") {
		t.Errorf("init output:\n%s", out)
	}
	if w, err := wallet.NewWalletFromFile(initPath); err != nil || len(w.Accounts) != 0 || w.Scrypt != keys.NEP2ScryptParams() {
		t.Errorf("new wallet: %v", err)
	}
	// init -a reads the password before it writes anything: with no
	// password to read (stdin at EOF), or two that differ, no file.
	for _, stdin := range []string{"", "a\nb\n"} {
		noPass := filepath.Join(e.dir, "nopass.json")
		if err := e.fail(stdin, "wallet", "init", "-w", noPass, "-a"); err == nil {
			t.Fatal("no error")
		}
		if _, err := os.Stat(noPass); !os.IsNotExist(err) {
			t.Errorf("init -a without a password left %s: %v", noPass, err)
		}
	}
	path, cfg := e.wallet("w", "secret", k1)
	if err := e.fail("", "wallet", "init", "--wallet-config", cfg); !errors.Is(err, wallet.ErrExists) {
		t.Errorf("init over an existing wallet: %v", err)
	}
	if err := e.fail("", "wallet", "import", "--wallet-config", cfg, "--wif", k1.WIF()); !strings.Contains(err.Error(), "already in wallet") {
		t.Errorf("second import: %v", err)
	}
	// NEP-2 keeps its encryption: its password must be the wallet's to
	// be usable with the config, so encrypt it with "secret".
	nep2, err := keys.NEP2Encrypt(k2, "secret", fastScrypt)
	if err != nil {
		t.Fatal(err)
	}
	if out := e.run("wallet", "import", "--wallet-config", cfg, "--nep2", nep2, "--name", "two"); out != "" {
		t.Errorf("nep2 import printed %q (neo-go prints nothing)", out)
	}
	if list := e.run("wallet", "list", "--wallet-config", cfg); !strings.Contains(list, k2.Address()) {
		t.Errorf("nep2 import: not in the wallet:\n%s", list)
	}
	other, _ := keys.NEP2Encrypt(k3, "other", fastScrypt)
	if err := e.fail("", "wallet", "import", "--wallet-config", cfg, "--nep2", other); err == nil {
		t.Error("NEP-2 of another password imported")
	}
	// Passwords from stdin (not a terminal): create asks twice.
	if out, err := cliRun(context.Background(), "pw3\npw3\n", "wallet", "create", "-w", path, "-n", "three"); err != nil {
		t.Fatal(err)
	} else if _, err := txsend.ParseAddress(strings.TrimSpace(out)); err != nil {
		t.Errorf("create printed %q", out)
	}
	if err := e.fail("pw\nother\n", "wallet", "create", "-w", path); !errors.Is(err, console.ErrPhraseMismatch) {
		t.Errorf("mismatched passwords: %v", err)
	}
	// An unencrypted WIF with a new password from stdin.
	if _, err := cliRun(context.Background(), "pw4\npw4\n", "wallet", "import", "-w", path, "--wif", k3.WIF()); err != nil {
		t.Fatal(err)
	}

	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	list := e.run("wallet", "list", "-w", path)
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], k1.Address()+"\t"+k1.ScriptHash().String()+"\tstandard\t\"\"") ||
		!strings.Contains(lines[1], `"two"`) || !strings.Contains(lines[2], `"three"`) {
		t.Errorf("list:\n%s", list)
	}
	keysOut := e.run("wallet", "dump-keys", "-w", path, "-a", k1.Address())
	if keysOut != k1.Address()+" (simple signature contract):\n"+hex.EncodeToString(k1.PublicKey().Bytes())+"\n" {
		t.Errorf("dump-keys:\n%s", keysOut)
	}
	// dump -d decrypts with one password: k3's differs.
	if err := e.fail("", "wallet", "dump", "--wallet-config", cfg, "-d"); !strings.Contains(err.Error(), "decrypt") {
		t.Errorf("dump -d with mixed passwords: %v", err)
	}
	dump := e.run("wallet", "dump", "-w", path)
	var js map[string]any
	if err := json.Unmarshal([]byte(dump), &js); err != nil || len(js["accounts"].([]any)) != 4 {
		t.Errorf("dump: %v\n%s", err, dump)
	}
	// Read-only commands leave the file alone.
	after, _ := os.ReadFile(path)
	st2, _ := os.Stat(path)
	if !bytes.Equal(before, after) || !st.ModTime().Equal(st2.ModTime()) {
		t.Error("a read-only command changed the wallet file")
	}

	e.run("wallet", "remove", "-w", path, "-a", k3.Address(), "--force")
	if list := e.run("wallet", "list", "-w", path); strings.Contains(list, k3.Address()) {
		t.Errorf("removed account still listed:\n%s", list)
	}
	if out, err := cliRun(context.Background(), "n\n", "wallet", "remove", "-w", path, "-a", k2.Address()); err != nil || !strings.Contains(out, "Cancelled.") {
		t.Errorf("declined remove: %q %v", out, err)
	}

	// Built-in wallets are readable and read-only.
	if list := e.run("wallet", "list", "-w", "embedded:wallet1_solo.json"); !strings.Contains(list, "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP") || !strings.Contains(list, "multisig 1/1") {
		t.Errorf("embedded list:\n%s", list)
	}
	if err := e.fail("", "wallet", "create", "-w", "embedded:wallet1_solo.json"); !errors.Is(err, txsend.ErrEmbeddedReadOnly) {
		t.Errorf("create in an embedded wallet: %v", err)
	}
	if err := e.fail("", "wallet", "list", "-w", path, "--wallet-config", cfg); !errors.Is(err, txsend.ErrConflictingFlags) {
		t.Errorf("both wallet flags: %v", err)
	}
	if err := e.fail("", "wallet", "list"); !errors.Is(err, txsend.ErrNoWallet) {
		t.Errorf("no wallet: %v", err)
	}
}

func TestTransferFees(t *testing.T) {
	e := newCLIEnv(t)
	k1, k2 := testKey(t, 1), testKey(t, 2)
	_, cfg := e.wallet("w", "secret", k1)
	out := e.run("wallet", "nep17", "transfer", "--wallet-config", cfg, "-r", e.srv.URL, "--to", k2.Address(),
		"--token", "GAS", "--amount", "1.5", "--gas", "0.001", "--sysgas", "0.002", "--force")
	sent := e.sent()
	if len(sent) != 1 {
		t.Fatalf("%d transactions sent", len(sent))
	}
	tx := sent[0]
	if strings.TrimSpace(out) != tx.Hash().StringLE() {
		t.Errorf("printed %q, sent %s", out, tx.Hash().StringLE())
	}
	wantScript, _ := nep17.TransferScript(nep17.Transfer{Token: nativenames.GasHash, From: k1.ScriptHash(), To: k2.ScriptHash(), Amount: big.NewInt(150000000)})
	if !bytes.Equal(tx.Script, wantScript) {
		t.Errorf("script %x, want %x", tx.Script, wantScript)
	}
	if tx.SystemFee != e.chain.InvokeGas+200000 {
		t.Errorf("system fee %d", tx.SystemFee)
	}
	// The fee the node computed for the unsigned transaction, plus --gas.
	var raw []byte
	if err := json.Unmarshal(e.srv.Calls("calculatenetworkfee")[0].Params[0], &raw); err != nil {
		t.Fatal(err)
	}
	unsigned, err := transaction.NewTransactionFromBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if want := e.chain.FeePerByte*int64(unsigned.Size()) + e.chain.VerifyFee + 100000; tx.NetworkFee != want {
		t.Errorf("network fee %d, want %d", tx.NetworkFee, want)
	}
	// Height 10, block count 11, one validator.
	if tx.ValidUntilBlock != 13 {
		t.Errorf("ValidUntilBlock %d", tx.ValidUntilBlock)
	}
	if len(tx.Signers) != 1 || tx.Signers[0].Account != k1.ScriptHash() || tx.Signers[0].Scopes != transaction.CalledByEntry {
		t.Errorf("signers %+v", tx.Signers)
	}

	// The confirmation prompt: declined, then accepted (with --await).
	args := []string{"wallet", "nep17", "transfer", "--wallet-config", cfg, "-r", e.srv.URL, "--to", k2.Address(), "--token", "NEO", "--amount", "3"}
	if err := e.fail("n\n", args...); !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("declined: %v", err)
	}
	if n := len(e.sent()); n != 1 {
		t.Fatalf("a declined transaction was sent (%d)", n)
	}
	out, err = cliRun(context.Background(), "y\n", append(args, "--await")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "VMState:\tHALT") {
		t.Errorf("awaited output:\n%s", out)
	}
	// Amount checks: NEO has no decimals.
	if err := e.fail("", append(args[:len(args)-1], "1.5", "--force")...); !strings.Contains(err.Error(), "invalid amount") {
		t.Errorf("fractional NEO: %v", err)
	}
	// A FAULTing test run stops the transfer.
	e.srv.Do(func() { e.chain.InvokeFault = "at instruction 0 (ABORT): ABORT" })
	if err := e.fail("", append(args, "--force")...); !strings.Contains(err.Error(), "FAULT") {
		t.Errorf("FAULT: %v", err)
	}
	e.srv.Do(func() { e.chain.InvokeFault = "" })
	// A token named by symbol through the sender's balances.
	tok := hash.Uint160{7, 7, 7}
	e.srv.Do(func() {
		e.chain.Balances[k1.ScriptHash()] = []rpcclient.NEP17Balance{{Asset: tok, Amount: "100", Decimals: 2, Name: "Seven", Symbol: "SVN"}}
	})
	e.run("wallet", "nep17", "transfer", "--wallet-config", cfg, "-r", e.srv.URL, "--to", k2.Address(), "--token", "SVN", "--amount", "0.25", "--force",
		"string:memo", "--", k1.Address()+":Global")
	tx = e.sent()[2]
	wantScript, _ = nep17.TransferScript(nep17.Transfer{Token: tok, From: k1.ScriptHash(), To: k2.ScriptHash(), Amount: big.NewInt(25), Data: "memo"})
	if !bytes.Equal(tx.Script, wantScript) || tx.Signers[0].Scopes != transaction.Global {
		t.Errorf("SVN transfer script %x scopes %s", tx.Script, tx.Signers[0].Scopes)
	}
	if err := e.fail("", "wallet", "nep17", "transfer", "--wallet-config", cfg, "-r", e.srv.URL, "--to", k2.Address(), "--token", "NOPE", "--amount", "1", "--force"); !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown token: %v", err)
	}
	// A cosigner the wallet does not have.
	if err := e.fail("", append(args, "--force", "--", k2.Address())...); !strings.Contains(err.Error(), "no account was found") {
		t.Errorf("foreign cosigner: %v", err)
	}

	// Multitransfer: one script, transfers in order.
	e.run("wallet", "nep17", "multitransfer", "--wallet-config", cfg, "-r", e.srv.URL, "--force",
		"GAS:"+k2.Address()+":1", "NEO:"+k2.Address()+":2", "--", k1.Address()+":CalledByEntry")
	tx = e.sent()[3]
	wantScript, _ = nep17.TransferScript(
		nep17.Transfer{Token: nativenames.GasHash, From: k1.ScriptHash(), To: k2.ScriptHash(), Amount: big.NewInt(100000000)},
		nep17.Transfer{Token: nativenames.NeoHash, From: k1.ScriptHash(), To: k2.ScriptHash(), Amount: big.NewInt(2)})
	if !bytes.Equal(tx.Script, wantScript) {
		t.Errorf("multitransfer script %x", tx.Script)
	}
	for _, bad := range []string{"GAS:" + k2.Address(), "GAS:nowhere:1", "GAS:" + k2.Address() + ":0.000000001"} {
		e.fail("", "wallet", "nep17", "multitransfer", "--wallet-config", cfg, "-r", e.srv.URL, "--force", bad)
	}

	// Balances: all tokens, one token, a token with no balance.
	bal := e.run("wallet", "balance", "--wallet-config", cfg, "-r", e.srv.URL)
	if bal != "Account "+k1.Address()+"\nSVN: Seven ("+tok.StringLE()+")\n\tAmount : 1\n\tUpdated: 0\n" {
		t.Errorf("balance:\n%q", bal)
	}
	bal = e.run("wallet", "nep17", "balance", "-a", k1.Address(), "-r", e.srv.URL, "--token", "GAS")
	if !strings.Contains(bal, "GAS: GasToken (d2a4cff31913016155e38e474a2c06d08be276cf)\n\tAmount : 0\n") {
		t.Errorf("GAS balance:\n%s", bal)
	}
	// A node without getnep17balances: balanceOf of NEO and GAS.
	e.srv.Handle("getnep17balances", func([]json.RawMessage) (any, error) {
		return nil, neorpc.NewMethodNotFoundError(`method "getnep17balances" not supported`)
	})
	e.srv.Do(func() {
		e.chain.InvokeStack = []json.RawMessage{json.RawMessage(`{"type":"Integer","value":"7"}`), json.RawMessage(`{"type":"Integer","value":"150000000"}`)}
	})
	bal = e.run("wallet", "balance", "--wallet-config", cfg, "-r", e.srv.URL)
	if bal != "Account "+k1.Address()+"\nNEO: NeoToken (ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5)\n\tAmount : 7\n\tUpdated: 0\n"+
		"GAS: GasToken (d2a4cff31913016155e38e474a2c06d08be276cf)\n\tAmount : 1.5\n\tUpdated: 0\n" {
		t.Errorf("balanceOf fallback:\n%s", bal)
	}
}

// TestMultisigContextFlow: a 2-of-3 account whose shares are in two
// wallets; the first saves a parameter context, the second signs and
// sends; the fake node verifies the multi-signature witness.
func TestMultisigContextFlow(t *testing.T) {
	e := newCLIEnv(t)
	k1, k2, k3 := testKey(t, 1), testKey(t, 2), testKey(t, 3)
	pubs := []string{hex.EncodeToString(k1.PublicKey().Bytes()), hex.EncodeToString(k2.PublicKey().Bytes()), hex.EncodeToString(k3.PublicKey().Bytes())}
	w1, cfg1 := e.wallet("w1", "one", k1)
	_, cfg2 := e.wallet("w2", "two")
	msScript, err := smartcontract.CreateMultiSigRedeemScript(2, []*keys.PublicKey{k1.PublicKey(), k2.PublicKey(), k3.PublicKey()})
	if err != nil {
		t.Fatal(err)
	}
	ms1 := neorpc.Uint160ToAddress(hash.Hash160(msScript))
	if out := e.run(append([]string{"wallet", "import-multisig", "--wallet-config", cfg1, "--min", "2"}, pubs...)...); out != "" {
		t.Errorf("import-multisig printed %q (neo-go prints nothing)", out)
	}
	// W2 imports its share by WIF: only neo-go's notice of an unencrypted WIF.
	out := e.run(append([]string{"wallet", "import-multisig", "--wallet-config", cfg2, "--min", "2", "--wif", k2.WIF()}, pubs...)...)
	if out != "Provided WIF was unencrypted. Wallet can contain only encrypted keys.\n" {
		t.Errorf("import-multisig --wif: %q", out)
	}
	if list := e.run("wallet", "list", "-w", filepath.Join(e.dir, "w2.json")); !strings.Contains(list, ms1+"\t") {
		t.Fatalf("the second share is not %s:\n%s", ms1, list)
	}
	if list := e.run("wallet", "list", "-w", w1); !strings.Contains(list, ms1+"\t") || !strings.Contains(list, "multisig 2/3") {
		t.Errorf("list:\n%s", list)
	}
	e.fail("", append([]string{"wallet", "import-multisig", "--wallet-config", cfg1, "--min", "4"}, pubs...)...)

	ctxFile := filepath.Join(e.dir, "ctx.json")
	out = e.run("wallet", "nep17", "transfer", "--wallet-config", cfg1, "-r", e.srv.URL, "--from", ms1,
		"--to", k3.Address(), "--token", "GAS", "--amount", "1", "--out", ctxFile)
	if len(e.sent()) != 0 {
		t.Fatal("--out sent the transaction")
	}
	pc, err := txsend.ReadContext(ctxFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != pc.Tx.Hash().StringLE() || pc.IsComplete() || pc.Network != e.chain.Magic {
		t.Fatalf("context: printed %q, hash %s, complete %v", out, pc.Tx.Hash().StringLE(), pc.IsComplete())
	}
	// --out makes a long-lived transaction: count 11 + 5760 - 1.
	if pc.Tx.ValidUntilBlock != 11+5760-1 {
		t.Errorf("ValidUntilBlock %d", pc.Tx.ValidUntilBlock)
	}
	// Without the other share nothing can be sent.
	if err := e.fail("", "wallet", "sign", "--wallet-config", cfg1, "-a", ms1, "--in", ctxFile, "-r", e.srv.URL); !strings.Contains(err.Error(), "1 of 2 signatures") {
		t.Errorf("incomplete send: %v", err)
	}
	// Signing prints the context when neither --out nor -r is given.
	printed := e.run("wallet", "sign", "--wallet-config", cfg2, "-a", ms1, "--in", ctxFile)
	var pc2 sccontext.ParameterContext
	if err := json.Unmarshal([]byte(printed), &pc2); err != nil || !pc2.IsComplete() {
		t.Fatalf("printed context: %v complete=%v\n%s", err, pc2.IsComplete(), printed)
	}
	out = e.run("wallet", "sign", "--wallet-config", cfg2, "-a", ms1, "--in", ctxFile, "--out", ctxFile, "-r", e.srv.URL, "--await")
	sent := e.sent()
	if len(sent) != 1 || !strings.HasPrefix(out, sent[0].Hash().StringLE()+"\n") || !strings.Contains(out, "VMState:\tHALT") {
		t.Fatalf("sign and send: %d sent, output\n%s", len(sent), out)
	}
	if len(sent[0].Witnesses[0].InvocationScript) != 2*66 {
		t.Errorf("invocation script %x", sent[0].Witnesses[0].InvocationScript)
	}
	if err := e.fail("", "wallet", "sign", "--wallet-config", cfg1, "-a", k1.Address(), "--in", ctxFile); !strings.Contains(err.Error(), "signers don't contain") {
		t.Errorf("non-signer: %v", err)
	}
}

func TestContractCommands(t *testing.T) {
	e := newCLIEnv(t)
	k1 := testKey(t, 1)
	_, cfg := e.wallet("w", "secret", k1)
	gas := nativenames.GasHash

	out := e.run("contract", "testinvokefunction", "-r", e.srv.URL, "gas", "balanceOf", k1.Address(), "--", k1.Address())
	var res rpcclient.InvokeResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.State != "HALT" {
		t.Fatalf("testinvokefunction: %v\n%s", err, out)
	}
	call := e.srv.Calls("invokefunction")[0]
	want := []string{`"` + gas.String() + `"`, `"balanceOf"`, `[{"type":"Hash160","value":"` + k1.ScriptHash().String() + `"}]`,
		`[{"account":"` + k1.ScriptHash().String() + `","scopes":"CalledByEntry"}]`}
	for i, w := range want {
		if string(call.Params[i]) != w {
			t.Errorf("param %d: %s, want %s", i, call.Params[i], w)
		}
	}

	// invokefunction: the sender signs with None unless listed.
	e.run("contract", "invokefunction", "--wallet-config", cfg, "-r", e.srv.URL, "--force",
		gas.StringLE(), "transfer", k1.Address(), k1.Address(), "int:5", "[", "1", "nil", "]")
	tx := e.sent()[0]
	wantScript, _ := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, gas, "transfer", byte(0x0f), k1.ScriptHash(), k1.ScriptHash(), big.NewInt(5), []any{big.NewInt(1), nil})
	})
	if !bytes.Equal(tx.Script, wantScript) || tx.Signers[0].Scopes != transaction.None {
		t.Errorf("invokefunction tx script %x scopes %s", tx.Script, tx.Signers[0].Scopes)
	}
	// A FAULT stops without --force and is sent with it.
	e.srv.Do(func() { e.chain.InvokeFault = "boom" })
	if err := e.fail("", "contract", "invokefunction", "--wallet-config", cfg, "-r", e.srv.URL, "gas", "symbol"); !strings.Contains(err.Error(), "--force") {
		t.Errorf("FAULT without --force: %v", err)
	}
	if err := e.fail("", "contract", "testinvokefunction", "-r", e.srv.URL, "gas", "symbol"); !strings.Contains(err.Error(), "boom") {
		t.Errorf("FAULT in test mode: %v", err)
	}
	if out := e.run("contract", "invokefunction", "--wallet-config", cfg, "-r", e.srv.URL, "--force", "gas", "symbol"); !strings.Contains(out, "Warning: FAULT") {
		t.Errorf("forced FAULT output:\n%s", out)
	}
	e.srv.Do(func() { e.chain.InvokeFault = "" })
	e.fail("", "contract", "testinvokefunction", "-r", e.srv.URL, "nosuchcontract", "x")
	e.fail("", "contract", "testinvokefunction", "-r", e.srv.URL, "gas")

	// deploy: NEF and manifest bytes as given, the hash printed.
	script := []byte{0x11, 0x40}
	nf, err := nef.NewFile("test", "", nil, script)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := nf.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	m := manifest.DefaultManifest("Tiny")
	mb, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	nefPath, mPath := filepath.Join(e.dir, "c.nef"), filepath.Join(e.dir, "c.manifest.json")
	os.WriteFile(nefPath, nb, 0o600)
	os.WriteFile(mPath, mb, 0o600)
	out = e.run("contract", "deploy", "--wallet-config", cfg, "-r", e.srv.URL, "--force", "--in", nefPath, "--manifest", mPath, "string:hi")
	sent := e.sent()
	tx = sent[len(sent)-1]
	wantScript, _ = emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.ManagementHash, "deploy", byte(0x0f), nb, mb, "hi")
	})
	if !bytes.Equal(tx.Script, wantScript) || tx.Signers[0].Scopes != transaction.CalledByEntry {
		t.Errorf("deploy script %x scopes %s", tx.Script, tx.Signers[0].Scopes)
	}
	h := smartcontract.GetContractHash(k1.ScriptHash(), nf.Checksum, "Tiny").StringLE()
	if !strings.HasSuffix(out, "Contract: "+h+"\n") {
		t.Errorf("deploy output:\n%s", out)
	}
}

func TestCandidateCommands(t *testing.T) {
	// The scripts the commands must send: one NEO call each, its result
	// asserted (neo-go's CreateCallWithAssertScript).
	neoCall := func(method string, args ...any) ([]byte, error) {
		return emit.Script(func(w *nio.BinWriter) {
			emit.AppCall(w, nativenames.NeoHash, method, callflag.All, args...)
			emit.Opcodes(w, opcode.ASSERT)
		})
	}
	e := newCLIEnv(t)
	k1 := testKey(t, 1)
	_, cfg := e.wallet("w", "secret", k1)
	e.srv.Do(func() {
		e.chain.InvokeStack = []json.RawMessage{json.RawMessage(`{"type":"Integer","value":"100000000000"}`)}
	})
	e.run("wallet", "candidate", "register", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "--force")
	tx := e.sent()[0]
	wantScript, _ := nep17.TransferScript(nep17.Transfer{Token: nativenames.GasHash, From: k1.ScriptHash(), To: nativenames.NeoHash,
		Amount: big.NewInt(100000000000), Data: k1.PublicKey().Bytes()})
	if !bytes.Equal(tx.Script, wantScript) {
		t.Errorf("register script %x", tx.Script)
	}
	if s := tx.Signers[0]; s.Scopes != transaction.CalledByEntry|transaction.CustomContracts || len(s.AllowedContracts) != 1 || s.AllowedContracts[0] != nativenames.NeoHash {
		t.Errorf("register signer %+v", s)
	}
	e.run("wallet", "candidate", "register", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "--force", "--useRegisterCall")
	want, _ := neoCall("registerCandidate", k1.PublicKey().Bytes())
	if tx := e.sent()[1]; !bytes.Equal(tx.Script, want) || tx.Signers[0].Scopes != transaction.CalledByEntry {
		t.Errorf("registerCandidate script %x", tx.Script)
	}
	e.run("wallet", "candidate", "vote", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "--force", "-c", hex.EncodeToString(k1.PublicKey().Bytes()))
	want, _ = neoCall("vote", k1.ScriptHash(), k1.PublicKey().Bytes())
	if tx := e.sent()[2]; !bytes.Equal(tx.Script, want) {
		t.Errorf("vote script %x", tx.Script)
	}
	e.run("wallet", "candidate", "vote", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "--force")
	want, _ = neoCall("vote", k1.ScriptHash(), nil)
	if tx := e.sent()[3]; !bytes.Equal(tx.Script, want) {
		t.Errorf("unvote script %x", tx.Script)
	}
	e.run("wallet", "candidate", "unregister", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "--force")
	want, _ = neoCall("unregisterCandidate", k1.PublicKey().Bytes())
	if tx := e.sent()[4]; !bytes.Equal(tx.Script, want) {
		t.Errorf("unregister script %x", tx.Script)
	}
	e.run("wallet", "claim", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "--force")
	want, _ = nep17.TransferScript(nep17.Transfer{Token: nativenames.NeoHash, From: k1.ScriptHash(), To: k1.ScriptHash(), Amount: new(big.Int)})
	if tx := e.sent()[5]; !bytes.Equal(tx.Script, want) {
		t.Errorf("claim script %x", tx.Script)
	}
	if err := e.fail("", "wallet", "candidate", "vote", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "-c", "zz"); !strings.Contains(err.Error(), "invalid public key") {
		t.Errorf("bad candidate key: %v", err)
	}
}

// TestCancelTx: util canceltx sends a RET script with a Conflicts
// attribute for the target, signed by the account (CalledByEntry), with
// --gas added to the network fee.
func TestCancelTx(t *testing.T) {
	e := newCLIEnv(t)
	k1 := testKey(t, 1)
	_, cfg := e.wallet("w", "secret", k1)
	target := strings.Repeat("ab", 32)
	e.run("util", "canceltx", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), target)
	e.run("util", "canceltx", "--wallet-config", cfg, "-r", e.srv.URL, "-a", k1.Address(), "-g", "0.5", "0x"+target)
	sent := e.sent()
	if len(sent) != 2 {
		t.Fatalf("%d transactions sent", len(sent))
	}
	for _, tx := range sent {
		c, ok := tx.Attributes[0].Value.(*transaction.Conflicts)
		if len(tx.Attributes) != 1 || !ok || c.Hash.StringLE() != target || !bytes.Equal(tx.Script, []byte{byte(opcode.RET)}) ||
			tx.Signers[0].Account != k1.ScriptHash() || tx.Signers[0].Scopes != transaction.CalledByEntry {
			t.Errorf("conflicting transaction %+v", tx)
		}
	}
	if d := sent[1].NetworkFee - sent[0].NetworkFee; d != 5000_0000 {
		t.Errorf("--gas 0.5 added %d", d)
	}
	if err := e.fail("", "util", "canceltx", "--wallet-config", cfg, "-r", e.srv.URL, "zz"); !strings.Contains(err.Error(), "invalid tx hash") {
		t.Errorf("bad hash: %v", err)
	}
}

package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/emit"

	nio "github.com/n3node/n3node/pkg/io"
)

// contract update, destroy and --historic test invocations against the
// fake node.
func TestContractLifecycle(t *testing.T) {
	e := newCLIEnv(t)
	k1 := testKey(t, 1)
	_, cfg := e.wallet("w", "secret", k1)
	target := hash.Uint160{0xc0, 0xde}
	nf, err := nef.NewFile("test", "", nil, []byte{0x11, 0x40})
	if err != nil {
		t.Fatal(err)
	}
	nb, _ := nf.Bytes()
	mb, _ := json.Marshal(manifest.DefaultManifest("Tiny"))
	nefPath, mPath := filepath.Join(e.dir, "c.nef"), filepath.Join(e.dir, "c.manifest.json")
	os.WriteFile(nefPath, nb, 0o600)
	os.WriteFile(mPath, mb, 0o600)
	last := func() *transaction.Transaction { s := e.sent(); return s[len(s)-1] }
	script := func(method string, args ...any) []byte {
		b, _ := emit.Script(func(w *nio.BinWriter) { emit.AppCall(w, target, method, callflag.All, args...) })
		return b
	}

	// update with data: update(nef, nil manifest, data), sender CalledByEntry.
	e.run("contract", "update", "--wallet-config", cfg, "-r", e.srv.URL, "--force", "--in", nefPath, target.StringLE(), "string:x")
	if tx := last(); !bytes.Equal(tx.Script, script("update", nb, nil, "x")) || tx.Signers[0].Scopes != transaction.CalledByEntry {
		t.Errorf("update script %x scopes %s", tx.Script, tx.Signers[0].Scopes)
	}
	// Without data: update(nef, manifest, nil).
	e.run("contract", "update", "--wallet-config", cfg, "-r", e.srv.URL, "--force", "--in", nefPath, "-m", mPath, target.StringLE())
	if tx := last(); !bytes.Equal(tx.Script, script("update", nb, mb, nil)) {
		t.Errorf("update/3 script %x", tx.Script)
	}
	// A contract without update/3 (the test run FAULTs): update/2 unless --strict.
	n := len(e.sent())
	e.srv.Do(func() { e.chain.InvokeFault = "System.Contract.Call failed: method not found: update/3" })
	if err := e.fail("", "contract", "update", "--wallet-config", cfg, "-r", e.srv.URL, "--strict", "-m", mPath, target.StringLE()); !strings.Contains(err.Error(), "update/3") {
		t.Errorf("--strict: %v", err)
	}
	if err := e.fail("", "contract", "update", "--wallet-config", cfg, "-r", e.srv.URL, "-m", mPath, target.StringLE()); !strings.Contains(err.Error(), "--force") {
		t.Errorf("fallback FAULT: %v", err)
	}
	calls := e.srv.Calls("invokefunction")
	if c := calls[len(calls)-1]; len(c.Params) < 3 || !strings.Contains(string(c.Params[2]), `{"type":"ByteArray"`) || strings.Count(string(c.Params[2]), `"type"`) != 2 {
		t.Errorf("fallback call params: %s", c.Params[2])
	}
	e.srv.Do(func() { e.chain.InvokeFault = "" })
	if len(e.sent()) != n {
		t.Error("a FAULTed update was sent")
	}
	if err := e.fail("", "contract", "update", "--wallet-config", cfg, "-r", e.srv.URL, target.StringLE()); !strings.Contains(err.Error(), "either manifest or .nef required") {
		t.Errorf("update without files: %v", err)
	}
	if err := e.fail("", "contract", "update", "--wallet-config", cfg, "-r", e.srv.URL, "-m", mPath); err.Error() == "" || !strings.Contains(err.Error(), "no smart contract hash") {
		t.Errorf("update without hash: %v", err)
	}

	// destroy, with a cosigner list naming the sender Global.
	e.run("contract", "destroy", "--wallet-config", cfg, "-r", e.srv.URL, "--force", target.StringLE(), "--", k1.Address()+":Global")
	if tx := last(); !bytes.Equal(tx.Script, script("destroy")) || tx.Signers[0].Scopes != transaction.Global {
		t.Errorf("destroy script %x scopes %s", tx.Script, tx.Signers[0].Scopes)
	}

	// --historic: a height or a hash goes first to invoke*historic.
	at := hash.Uint256{0xab}
	res := rpcclient.InvokeResult{State: rpcclient.StateHalt, GasConsumed: 1}
	e.srv.Result("invokefunctionhistoric", res)
	e.srv.Result("invokescripthistoric", res)
	e.run("contract", "testinvokefunction", "-r", e.srv.URL, "--historic", "5", "gas", "symbol")
	e.run("contract", "testinvokescript", "-r", e.srv.URL, "--historic", at.StringLE(), "-i", nefPath)
	if c := e.srv.Calls("invokefunctionhistoric"); len(c) != 1 || string(c[0].Params[0]) != "5" || string(c[0].Params[2]) != `"symbol"` {
		t.Errorf("invokefunctionhistoric calls: %+v", c)
	}
	if c := e.srv.Calls("invokescripthistoric"); len(c) != 1 || string(c[0].Params[0]) != `"`+at.StringLE()+`"` {
		t.Errorf("invokescripthistoric calls: %+v", c)
	}
	if err := e.fail("", "contract", "testinvokefunction", "-r", e.srv.URL, "--historic", "yesterday", "gas", "symbol"); !strings.Contains(err.Error(), "invalid 'historic' parameter") {
		t.Errorf("bad --historic: %v", err)
	}
}

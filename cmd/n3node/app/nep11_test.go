package app

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/nep11"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// The NEP-11 commands against the fake node.
func TestNEP11Commands(t *testing.T) {
	e := newCLIEnv(t)
	k1, k2 := testKey(t, 1), testKey(t, 2)
	path, cfg := e.wallet("w", "secret", k1)
	nft := hash.Uint160{0x11, 0x22}
	m := manifest.DefaultManifest("Cats")
	m.SupportedStandards = []string{manifest.NEP11StandardName}
	e.srv.Result("getcontractstate", state.Contract{ContractBase: state.ContractBase{ID: 9, Hash: nft, Manifest: *m}})
	stack := func(items ...string) {
		e.srv.Do(func() {
			e.chain.InvokeStack = nil
			for _, it := range items {
				e.chain.InvokeStack = append(e.chain.InvokeStack, json.RawMessage(it))
			}
		})
	}
	h1, h2 := k1.ScriptHash(), k2.ScriptHash()
	b64 := func(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
	stack(`{"type":"ByteString","value":"Q0FU"}`, `{"type":"Integer","value":"0"}`)
	e.run("wallet", "nep11", "import", "-w", path, "-r", e.srv.URL, "--token", nft.StringLE())

	bal := result.NEP11Balances{Address: k1.Address(), Balances: []result.NEP11AssetBalance{{
		Asset: nft, Name: "Cats", Symbol: "CAT", Decimals: 0,
		Tokens: []result.NEP11TokenBalance{{ID: "01", Amount: "1", LastUpdated: 5}, {ID: "02", Amount: "1", LastUpdated: 6}},
	}}}
	e.srv.Result("getnep11balances", bal)
	want := "Account " + k1.Address() + "\nCAT: Cats (" + nft.StringLE() + ")\n\tToken: 01\n\t\tAmount: 1\n\t\tUpdated: 5\n\tToken: 02\n\t\tAmount: 1\n\t\tUpdated: 6\n"
	if out := e.run("wallet", "nep11", "balance", "-w", path, "-r", e.srv.URL); out != want {
		t.Errorf("balance:\n%s", out)
	}
	if out := e.run("wallet", "nep11", "balance", "-w", path, "-r", e.srv.URL, "--token", "CAT", "--id", "02"); !strings.HasSuffix(out, ")\n\tToken: 02\n\t\tAmount: 1\n\t\tUpdated: 6\n") {
		t.Errorf("balance of one id:\n%s", out)
	}
	if out := e.run("wallet", "nep11", "balance", "-a", k2.Address(), "-r", e.srv.URL, "--token", "DOG"); !strings.HasSuffix(out, "Can't find data for \"DOG\" token\n") {
		t.Errorf("balance of an unknown token:\n%s", out)
	}

	// transfer: non-divisible without --amount, divisible with it.
	stack(`{"type":"Boolean","value":true}`)
	e.run("wallet", "nep11", "transfer", "--wallet-config", cfg, "-r", e.srv.URL, "--force", "--to", k2.Address(), "--token", "CAT", "--id", "01")
	sent := e.sent()
	want1, _ := nep11.TransferScript(nft, k2.ScriptHash(), []byte{1}, nil)
	if !bytes.Equal(sent[len(sent)-1].Script, want1) {
		t.Errorf("transfer script %x", sent[len(sent)-1].Script)
	}
	if err := e.fail("", "wallet", "nep11", "transfer", "--wallet-config", cfg, "-r", e.srv.URL, "--force", "--to", k2.Address(), "--token", "CAT"); !strings.Contains(err.Error(), "token ID should be specified") {
		t.Errorf("transfer without id: %v", err)
	}

	// Readers: ownerOf, ownerOfD, tokensOf, tokens, properties.
	stack(`{"type":"ByteString","value":"` + b64(h1[:]) + `"}`)
	if out := e.run("wallet", "nep11", "ownerOf", "-r", e.srv.URL, "--token", nft.StringLE(), "--id", "01"); out != k1.Address()+"\n" {
		t.Errorf("ownerOf: %q", out)
	}
	stack(`{"type":"Array","value":[{"type":"ByteString","value":"` + b64(h1[:]) + `"},{"type":"ByteString","value":"` + b64(h2[:]) + `"}]}`)
	if out := e.run("wallet", "nep11", "ownerOfD", "-r", e.srv.URL, "--token", nft.StringLE(), "--id", "01"); out != k1.Address()+"\n"+k2.Address()+"\n" {
		t.Errorf("ownerOfD: %q", out)
	}
	stack(`{"type":"Array","value":[{"type":"ByteString","value":"AQ=="},{"type":"ByteString","value":"Ag=="}]}`)
	ids := stackitem.NewArray([]stackitem.Item{stackitem.NewByteString([]byte{1}), stackitem.NewByteString([]byte{2})})
	e.srv.Result("invokescripthistoric", rpcclient.InvokeResult{State: rpcclient.StateHalt, Stack: []stackitem.Item{ids}})
	if out := e.run("wallet", "nep11", "tokensOf", "-r", e.srv.URL, "--token", nft.StringLE(), "--address", k1.Address(), "--historic", "3"); out != "01\n02\n" {
		t.Errorf("tokensOf: %q", out)
	}
	if c := e.srv.Calls("invokescripthistoric"); len(c) != 1 || string(c[0].Params[0]) != "3" {
		t.Errorf("tokensOf --historic calls: %+v", c)
	}
	if out := e.run("wallet", "nep11", "tokens", "-r", e.srv.URL, "--token", nft.StringLE()); out != "01\n02\n" {
		t.Errorf("tokens: %q", out)
	}
	stack(`{"type":"Map","value":[{"key":{"type":"ByteString","value":"bmFtZQ=="},"value":{"type":"ByteString","value":"VG9t"}}]}`)
	if out := e.run("wallet", "nep11", "properties", "-r", e.srv.URL, "--token", nft.StringLE(), "--id", "01"); out != `{"name":"Tom"}`+"\n" {
		t.Errorf("properties: %q", out)
	}
	e.srv.Do(func() { e.chain.InvokeFault = "no such token" })
	if err := e.fail("", "wallet", "nep11", "ownerOf", "-r", e.srv.URL, "--token", nft.StringLE(), "--id", "09"); !strings.Contains(err.Error(), "failed to call NEP-11 non-divisible `ownerOf` method") {
		t.Errorf("ownerOf FAULT: %v", err)
	}
}

package app

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/cmd/n3node/app/txsend"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// The end-to-end test of the wallet and contract commands against a real
// node. It runs the CLI in process (app.New().Run) exactly as a user
// would type it. walletScenario takes only an RPC address and the
// committee's wallet, so the same scenario can run against `n3node run`.

// Loopback ports of the neo-go node of this test (away from refchain's
// 40332-40337).
const (
	e2eRPCPort = 40352
	e2eP2PPort = 40353
)

// TestWalletCLINeoGo starts a neo-go 0.120.0 single-node privnet and runs
// the wallet scenario against it. Run with N3NODE_NEOGO=1 (make wallet-e2e).
func TestWalletCLINeoGo(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to run against neo-go 0.120.0 (make wallet-e2e)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	startNeoGoPrivnet(t, ctx, e2eRPCPort, e2eP2PPort)
	walletScenario(t, ctx, fmt.Sprintf("http://127.0.0.1:%d", e2eRPCPort), CommitteeWallet{
		Path:     "embedded:wallet1_solo.json",
		Password: "one",
		Address:  "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP", // 1-of-1 multisig of the validator
	})
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// privnetConfig is testdata/refchain/protocol.yml (the single-validator
// privnet of the neo-go tests) with the given ports, and the directory
// it runs in, holding the validator's wallet1_solo.json.
func privnetConfig(t *testing.T, rpcPort, p2pPort int) (cfg []byte, dir string) {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "refchain", "protocol.yml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err = neogo.RenderConfig(tmpl, neogo.ConfigOptions{P2PPort: p2pPort, RPCPort: rpcPort, Consensus: true})
	if err != nil {
		t.Fatal(err)
	}
	solo, err := config.EmbeddedWallet("wallet1_solo.json")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wallet1_solo.json"), solo, 0o600); err != nil {
		t.Fatal(err)
	}
	return cfg, dir
}

// startNeoGoPrivnet starts neo-go 0.120.0 on privnetConfig; it stops when
// the test ends (printing its log tail if the test failed).
func startNeoGoPrivnet(t *testing.T, ctx context.Context, rpcPort, p2pPort int) *neogo.Node {
	t.Helper()
	bin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg, dir := privnetConfig(t, rpcPort, p2pPort)
	node, err := neogo.Start(ctx, neogo.StartOptions{Binary: bin, Dir: dir, Config: cfg, RPCPort: rpcPort, P2PPort: p2pPort})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := node.Stop(); err != nil {
			t.Error(err)
		}
		if t.Failed() {
			t.Logf("neo-go log tail:\n%s", node.LogTail(30))
		}
	})
	return node
}

// CommitteeWallet locates the funded account of a fresh privnet: the
// committee's multi-signature address (holding the genesis NEO and GAS)
// and a wallet able to sign for it.
type CommitteeWallet struct {
	Path, Password, Address string
}

// cliRun runs the CLI with args and returns its standard output; standard
// error is added to the error.
func cliRun(ctx context.Context, stdin string, args ...string) (string, error) {
	var out, errOut bytes.Buffer
	cmd := New()
	cmd.Writer, cmd.ErrWriter, cmd.Reader = &out, &errOut, strings.NewReader(stdin)
	err := cmd.Run(ctx, append([]string{"n3node"}, args...))
	if err != nil {
		return out.String(), fmt.Errorf("n3node %s: %w\nstderr: %s\nstdout: %s", strings.Join(args, " "), err, errOut.String(), out.String())
	}
	return out.String(), nil
}

// walletScenario runs every wallet and contract command against the node
// at rpc: wallets, NEO and GAS from the committee, balances, a
// multitransfer, candidate registration and vote, a contract deployment
// and invocation, and a 2-of-3 multi-signature transfer signed by two
// wallets through a parameter-context file.
func walletScenario(t *testing.T, ctx context.Context, rpc string, committee CommitteeWallet) {
	dir := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		out, err := cliRun(ctx, "", args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	walletCfg := func(name, path, pass string) string {
		p := filepath.Join(dir, name+".yml")
		if err := os.WriteFile(p, []byte(fmt.Sprintf("Path: %q\nPassword: %q\n", path, pass)), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cl, err := rpcclient.New(rpc, rpcclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// Balances through balanceOf, which every node has (getnep17balances
	// is checked through `wallet balance`).
	balanceOf := func(addr string, tok nep17.Token) *big.Int {
		t.Helper()
		h, err := txsend.ParseAddress(addr)
		if err != nil {
			t.Fatal(err)
		}
		r, err := cl.InvokeFunction(ctx, tok.Hash, "balanceOf", []smartcontract.Parameter{smartcontract.NewHash160Parameter(h)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := r.Int(0)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	amount := func(s string, tok nep17.Token) *big.Int {
		v, err := nep17.ParseAmount(s, tok.Decimals)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	txHash := regexp.MustCompile(`(?m)^[0-9a-f]{64}$`)
	awaited := func(out string) {
		t.Helper()
		if !txHash.MatchString(out) || !strings.Contains(out, "VMState:\tHALT") {
			t.Fatalf("transaction did not HALT:\n%s", out)
		}
	}
	committeeCfg := walletCfg("committee", committee.Path, committee.Password)

	// Wallets: A (the user), and W1, W2 holding shares of a 2-of-3 multisig.
	aPath := filepath.Join(dir, "a.json")
	aCfg := walletCfg("a", aPath, "pass-a")
	run("wallet", "init", "--wallet-config", aCfg)
	addrA := strings.TrimSpace(run("wallet", "create", "--wallet-config", aCfg, "--name", "user"))
	if _, err := txsend.ParseAddress(addrA); err != nil {
		t.Fatalf("wallet create printed %q", addrA)
	}
	list := run("wallet", "list", "-w", aPath)
	if !strings.Contains(list, addrA) || !strings.Contains(list, "standard") || !strings.Contains(list, `"user"`) {
		t.Fatalf("wallet list:\n%s", list)
	}

	// NEO and GAS from the committee, one transfer each.
	awaited(run("wallet", "nep17", "transfer", "--wallet-config", committeeCfg, "-r", rpc, "--from", committee.Address,
		"--to", addrA, "--token", "NEO", "--amount", "1000", "--force", "--await"))
	awaited(run("wallet", "nep17", "transfer", "--wallet-config", committeeCfg, "-r", rpc, "--from", committee.Address,
		"--to", addrA, "--token", "GAS", "--amount", "5000.5", "--force", "--await"))
	bal := run("wallet", "balance", "-w", aPath, "-r", rpc)
	for _, want := range []string{"Account " + addrA, "NEO: NeoToken", "\tAmount : 1000\n", "GAS: GasToken", "\tAmount : 5000.5\n"} {
		if !strings.Contains(bal, want) {
			t.Fatalf("wallet balance lacks %q:\n%s", want, bal)
		}
	}
	one := run("wallet", "nep17", "balance", "-a", addrA, "--token", "GAS", "-r", rpc)
	if !strings.Contains(one, "\tAmount : 5000.5\n") || strings.Contains(one, "NEO") {
		t.Fatalf("balance of one token:\n%s", one)
	}

	// Multi-signature wallets: keys from `wallet create`, the 2-of-3
	// account imported into both.
	var pubs, shareCfgs []string
	for i := 1; i <= 3; i++ {
		p := filepath.Join(dir, fmt.Sprintf("w%d.json", i))
		cfgPath := walletCfg(fmt.Sprintf("w%d", i), p, fmt.Sprintf("pass-%d", i))
		run("wallet", "init", "--wallet-config", cfgPath, "-a")
		keysOut := run("wallet", "dump-keys", "-w", p)
		lines := strings.Split(strings.TrimSpace(keysOut), "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], "simple signature contract") {
			t.Fatalf("dump-keys:\n%s", keysOut)
		}
		pubs = append(pubs, lines[1])
		shareCfgs = append(shareCfgs, cfgPath)
	}
	var msKeys []*keys.PublicKey
	for _, p := range pubs {
		k, err := keys.NewPublicKeyFromString(p)
		if err != nil {
			t.Fatal(err)
		}
		msKeys = append(msKeys, k)
	}
	msScript, err := smartcontract.CreateMultiSigRedeemScript(2, msKeys)
	if err != nil {
		t.Fatal(err)
	}
	msAddr := neorpc.Uint160ToAddress(hash.Hash160(msScript))
	for i := 0; i < 2; i++ {
		run(append([]string{"wallet", "import-multisig", "--wallet-config", shareCfgs[i], "--min", "2"}, pubs...)...)
	}
	if keysOut := run("wallet", "dump-keys", "--wallet-config", shareCfgs[0], "-a", msAddr); !strings.Contains(keysOut, "(2 out of 3 multisig contract)") {
		t.Fatalf("dump-keys of the multisig:\n%s", keysOut)
	}

	// A multitransfer from A: GAS and NEO to the multisig account and to W3.
	w3Addr := strings.Fields(run("wallet", "list", "--wallet-config", shareCfgs[2]))[0]
	awaited(run("wallet", "nep17", "multitransfer", "--wallet-config", aCfg, "-r", rpc, "--force", "--await",
		"GAS:"+msAddr+":10", "NEO:"+msAddr+":3", "GAS:"+w3Addr+":0.25"))
	if got := balanceOf(msAddr, nep17.GAS); got.Cmp(amount("10", nep17.GAS)) != 0 {
		t.Fatalf("multisig GAS %s", got)
	}
	if got := balanceOf(msAddr, nep17.NEO); got.Int64() != 3 {
		t.Fatalf("multisig NEO %s", got)
	}
	if got := balanceOf(w3Addr, nep17.GAS); got.Cmp(amount("0.25", nep17.GAS)) != 0 {
		t.Fatalf("W3 GAS %s", got)
	}

	// 2-of-3 transfer: W1 builds and signs into a context file, W2 adds
	// its signature and sends.
	ctxFile := filepath.Join(dir, "tx.json")
	out := run("wallet", "nep17", "transfer", "--wallet-config", shareCfgs[0], "-r", rpc, "--from", msAddr,
		"--to", addrA, "--token", "GAS", "--amount", "2", "--out", ctxFile)
	msTx := strings.TrimSpace(out)
	if !txHash.MatchString(msTx) {
		t.Fatalf("--out printed %q", out)
	}
	if _, err := cliRun(ctx, "", "wallet", "sign", "--wallet-config", shareCfgs[2], "-a", msAddr, "--in", ctxFile); err == nil {
		t.Fatal("W3 (no multisig account) signed")
	}
	out = run("wallet", "sign", "--wallet-config", shareCfgs[1], "-a", msAddr, "--in", ctxFile, "-r", rpc, "--await")
	awaited(out)
	if !strings.HasPrefix(out, msTx) {
		t.Fatalf("sent %q, built %s", out, msTx)
	}
	th, err := hash.Uint256DecodeStringLE(msTx)
	if err != nil {
		t.Fatal(err)
	}
	sentTx, err := cl.GetRawTransaction(ctx, th)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Sub(amount("8", nep17.GAS), big.NewInt(sentTx.SystemFee+sentTx.NetworkFee))
	if got := balanceOf(msAddr, nep17.GAS); got.Cmp(want) != 0 {
		t.Fatalf("multisig GAS after sending 2 (and fees): %s, want %s", got, want)
	}
	if len(sentTx.Witnesses) != 1 || len(sentTx.Witnesses[0].InvocationScript) != 2*66 {
		t.Fatalf("multisig witness %+v", sentTx.Witnesses)
	}
	// The node's fee for the 2-of-3 witness equals the local formula
	// (privnet Policy: 1000 per byte, exec fee factor 30).
	if fee, err := actor.StandardNetworkFee(sentTx, 1000, 30, nil); err != nil || fee != sentTx.NetworkFee {
		t.Errorf("local network fee %d (%v), node's %d", fee, err, sentTx.NetworkFee)
	}

	// Candidate: A registers (GAS payment to NEO) and votes for itself.
	awaited(run("wallet", "candidate", "register", "--wallet-config", aCfg, "-r", rpc, "-a", addrA, "--force", "--await"))
	keyA := strings.Split(strings.TrimSpace(run("wallet", "dump-keys", "-w", aPath, "-a", addrA)), "\n")[1]
	awaited(run("wallet", "candidate", "vote", "--wallet-config", aCfg, "-r", rpc, "-a", addrA, "-c", keyA, "--force", "--await"))
	// A vote for a key that is not a candidate fails in the test run
	// (the script asserts vote's result, as neo-go's does): nothing is
	// sent, no fee is paid.
	gasBefore := balanceOf(addrA, nep17.GAS)
	stranger, err := keys.NewPrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := cliRun(ctx, "", "wallet", "candidate", "vote", "--wallet-config", aCfg, "-r", rpc, "-a", addrA,
		"-c", stranger.PublicKey().StringCompressed(), "--force", "--await"); err == nil || !strings.Contains(err.Error(), "FAULT") {
		t.Fatalf("vote for a non-candidate: %v\n%s", err, out)
	}
	if got := balanceOf(addrA, nep17.GAS); got.Cmp(gasBefore) != 0 {
		t.Fatalf("GAS after the refused vote %s, before %s", got, gasBefore)
	}
	r, err := cl.InvokeFunction(ctx, nep17.NEO.Hash, "getCandidateVote", []smartcontract.Parameter{smartcontract.NewPublicKeyParameter(mustHex(t, keyA))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if votes, err := r.Int(0); err != nil || votes.Int64() != 1000-3 {
		t.Fatalf("votes of candidate %s: %v %v, want %d", keyA, votes, err, 1000-3)
	}

	// Contract: deploy RefChain from A, put a value, read it back.
	contracts := filepath.Join("..", "..", "..", "testdata", "refchain", "contracts")
	out = run("contract", "deploy", "--wallet-config", aCfg, "-r", rpc, "--force", "--await",
		"--in", filepath.Join(contracts, "refchain.nef"), "--manifest", filepath.Join(contracts, "refchain.manifest.json"),
		"string:deployed-by-e2e") // _deploy stores its data
	awaited(out)
	m := regexp.MustCompile(`Contract: ([0-9a-f]{40})`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("deploy printed no contract hash:\n%s", out)
	}
	contract := m[1]
	awaited(run("contract", "invokefunction", "--wallet-config", aCfg, "-r", rpc, "--force", "--await",
		contract, "put", "string:e2e", "string:works", "--", addrA+":CalledByEntry"))
	out = run("contract", "testinvokefunction", "-r", rpc, contract, "get", "string:e2e")
	var res rpcclient.InvokeResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("testinvokefunction output: %v\n%s", err, out)
	}
	if s, err := res.String(0); err != nil || s != "works" {
		t.Fatalf("get returned %q (%v):\n%s", s, err, out)
	}
	out = run("contract", "testinvokefunction", "-r", rpc, contract, "get", "init")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if s, err := res.String(0); err != nil || s != "deployed-by-e2e" {
		t.Fatalf("_deploy data %q (%v)", s, err)
	}
	// A test invocation of a native contract by its short name.
	out = run("contract", "testinvokefunction", "-r", rpc, "neo", "balanceOf", addrA)
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if n, err := res.Int(0); err != nil || n.Int64() != 1000-3 {
		t.Fatalf("NEO balanceOf A: %v %v", n, err)
	}

	// The wallet files were written only by the commands that change them.
	aw, err := os.ReadFile(aPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(aw), `"address"`); n != 1 {
		t.Errorf("wallet A has %d accounts", n)
	}
	if h, err := hash.Uint160DecodeStringLE(contract); err != nil || neorpc.Uint160ToAddress(h) == "" {
		t.Errorf("contract hash %s: %v", contract, err)
	}
}

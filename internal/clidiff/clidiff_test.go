//go:build linux

package clidiff

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/clienttest"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/emit"

	nio "github.com/n3node/n3node/pkg/io"
)

// Accounts of testdata/refchain/accounts.json and the privnet.
const (
	wifA      = "KwGYfn1AYr9imRKszABsvDsqQGyhVFefjMVbFfuub4SMjFXfLpD5"
	committee = "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP" // 1-of-1 multisig of the validator
	validator = "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn"
	gasHash   = "0xd2a4cff31913016155e38e474a2c06d08be276cf"
	neoHash   = "0xef4073a0f2b305a38ec4050e4d3d28bc40ea63f5"
	passA     = "pass"
	passSolo  = "one"
	// Cards of the NFT (testdata/nft), hex.
	card1 = "636172642d31"
	card2 = "636172642d32"
	// The first share of the divisible token (testdata/nftd), hex.
	share1 = "73686172652d31"
)

// cli is one of the two command-line programs under test.
type cli struct {
	name  string
	bin   string
	neogo bool // passwords from the terminal (neo-go), else from standard input
}

// result is what a command line gave.
type result struct {
	stdout, stderr string
	code           int
}

func (c cli) run(ctx context.Context, dir, typed string, args ...string) (result, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if c.neogo {
		release, err := withTTY(cmd, typed)
		if err != nil {
			return result{}, err
		}
		defer release()
	} else {
		cmd.Stdin = strings.NewReader(typed)
	}
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errOut.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		return r, err
	}
	return r, nil
}

// target is a node under test with what the setup made on it.
type target struct {
	name string
	rpc  string
	tx   string // the funding transfer's hash
	// dir holds the node's protocol.yml and its database (chain/); stop
	// shuts the node down (before the db cases).
	dir  string
	stop func() error
	// heights are the node's heights recorded after cases (cliCase.height).
	heights map[string]string
}

// masks replace what differs between two chains (or two runs): hashes,
// heights and times, fees that depend on the chain, addresses of fresh
// wallets.
var masks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(0x)?[0-9a-fA-F]{64}`), "<hash>"},
	{regexp.MustCompile(`(?i)("?(height|blockheight|block|index|validuntilblock|validuntil|lastupdatedblock|nonce|timestamp|blocktime|time|updated)"?\s*[:=]?\s*)\d+`), "${1}<n>"},
	{regexp.MustCompile(`(?i)("?(networkfee|netfee|sysfee|systemfee|gasconsumed|gas consumed|network fee|system fee|fee)"?\s*[:=]?\s*"?)[0-9.]+`), "${1}<fee>"},
	{regexp.MustCompile(`(?m)^\d+$`), "<n>"},
	// Password prompts: neo-go writes them to the terminal, n3node (reading
	// passwords from a standard input that is not one) to standard error.
	{regexp.MustCompile(`Enter (account \S+ )?password > `), ""},
	// n3node's main prefixes errors with "error: ".
	{regexp.MustCompile(`(stderr: )error: `), "$1"},
	{regexp.MustCompile(`"(script|invocation|verification)"\s*:\s*"[A-Za-z0-9+/=]+"`), `"$1":"<b64>"`},
	// A confirmation: neo-go prints the fees and its prompt (with the
	// echoed answer) on standard output, n3node on standard error.
	{regexp.MustCompile(`Network fee: <fee>\r?\nSystem fee: <fee>\r?\nTotal fee: <fee>\r?\nRelay transaction \(y\|N\)> y\r*\n`), ""},
	{regexp.MustCompile(`"stack"\s*:\s*\[\s*\{\s*"type"\s*:\s*"Integer"\s*,\s*"value"\s*:\s*"\d+"`), `"stack":[{"type":"Integer","value":"<n>"`},
}

func mask(s string) string {
	for _, m := range masks {
		s = m.re.ReplaceAllString(s, m.with)
	}
	return s
}

// cliCase is one command line with what it needs.
type cliCase struct {
	name string
	// cmds are run in order by the same CLI in a fresh directory; their
	// outputs are concatenated. Placeholders: {rpc}, {w} (a copy of wallet
	// A, password "pass"), {solo} (a copy of the validator's wallet,
	// password "one"), {A} (account A's address), {tx} (the node's funding
	// transfer), {ctx} (a signed transfer context made against the node),
	// {nef}, {manifest} (the reference chain's contract).
	cmds [][]string
	// typed is what each command is given as passwords.
	typed []string
	// online: against both nodes; offline: once per CLI.
	online bool
	// pair: the commands change the chain, so they run once per node:
	// neo-go's CLI against the neo-go node, n3node's against the n3node
	// node (online cases only).
	pair bool
	// stderr: compare standard error too (error cases).
	stderr bool
	// unordered: the output lists entries in no fixed order (neo-go's CLI
	// prints a map); entries (a line and the indented ones after it) are
	// sorted before the comparison.
	unordered bool
	// db: the commands work on a stopped node's database, in the node's
	// directory (protocol.yml, chain/): neo-go's CLI on the neo-go node's,
	// n3node's on the n3node node's. {other} is the other node's
	// directory. The pseudo-command "cmp A B" prints whether the two files
	// are identical.
	db bool
	// height names a placeholder that holds, on each node, the height the
	// node reached when the case ended (for --historic).
	height string
}

func TestNeoGoCLI(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to run neo-go 0.120.0's CLI against neo-go and n3node (make cli-diff)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	root, err := neogo.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(root, "testdata", "refchain")
	work := t.TempDir()
	ngBin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n3Bin := os.Getenv(clienttest.EnvN3NodeBinary)
	if n3Bin == "" {
		if n3Bin, err = clienttest.BuildN3Node(ctx, work); err != nil {
			t.Fatal(err)
		}
		t.Setenv(clienttest.EnvN3NodeBinary, n3Bin)
	}
	ng := cli{name: "neo-go CLI", bin: ngBin, neogo: true}
	n3 := cli{name: "n3node CLI", bin: n3Bin}

	// Wallet A (made by neo-go's CLI) and the validator's wallet.
	walletA := filepath.Join(work, "a.json")
	mustRun(t, ctx, ng, work, "", "wallet", "init", "-w", walletA)
	mustRun(t, ctx, ng, work, passA+"\n"+passA+"\n", "wallet", "import", "-w", walletA, "--wif", wifA, "--name", "A")
	addrA := strings.TrimSpace(mustRun(t, ctx, ng, work, "", "wallet", "dump-keys", "-w", walletA))
	addrA = regexp.MustCompile(`N[1-9A-HJ-NP-Za-km-z]{33}`).FindString(addrA)
	if addrA == "" {
		t.Fatal("no address of wallet A")
	}
	solo := filepath.Join(ref, "wallet1_solo.json")
	keyA, err := keys.NewPrivateKeyFromWIF(wifA)
	if err != nil {
		t.Fatal(err)
	}
	nft := compileNFT(t, ctx, ng, n3, work, "nft", addrA)
	nftd := compileNFT(t, ctx, ng, n3, work, "nftd", addrA)
	balanceNEF := scriptNEF(t, work, keyA.PublicKey().ScriptHash())

	var nodes []*target
	for _, start := range []struct {
		name string
		f    clienttest.Starter
	}{{"neo-go node", clienttest.StartNeoGo}, {"n3node node", clienttest.StartN3Node}} {
		// "node-<kind>": the n3node binary this test may have built is work/n3node.
		dir := filepath.Join(work, "node-"+strings.Fields(start.name)[0])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		n, err := start.f(ctx, dir, clienttest.StartOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer n.Stop()
		tg := &target{name: start.name, rpc: n.RPC, dir: dir, stop: n.Stop, heights: map[string]string{}}
		// Fund A with GAS and NEO from the committee.
		for _, tok := range [][2]string{{"GAS", "1200"}, {"NEO", "10"}} {
			out := mustRun(t, ctx, ng, work, passSolo+"\n", "wallet", "nep17", "transfer", "-w", solo, "-r", n.RPC,
				"--from", committee, "--to", addrA, "--token", tok[0], "--amount", tok[1], "--force", "--await")
			if tok[0] == "GAS" {
				tg.tx = regexp.MustCompile(`[0-9a-f]{64}`).FindString(out)
			}
		}
		if tg.tx == "" {
			t.Fatalf("%s: no funding transaction hash", start.name)
		}
		nodes = append(nodes, tg)
	}

	cases := []cliCase{
		// query
		{name: "query height", online: true, cmds: [][]string{{"query", "height", "-r", "{rpc}"}}},
		{name: "query committee", online: true, cmds: [][]string{{"query", "committee", "-r", "{rpc}"}}},
		{name: "query candidates", online: true, cmds: [][]string{{"query", "candidates", "-r", "{rpc}"}}},
		{name: "query voter", online: true, cmds: [][]string{{"query", "voter", "-r", "{rpc}", "{A}"}}},
		{name: "query tx", online: true, cmds: [][]string{{"query", "tx", "-r", "{rpc}", "{tx}"}, {"query", "tx", "-r", "{rpc}", "-v", "{tx}"}}},
		{name: "query notarypool", online: true, stderr: true, cmds: [][]string{{"query", "notarypool", "-r", "{rpc}"}}},
		// wallet nep17
		{name: "nep17 balance", online: true, unordered: true, cmds: [][]string{{"wallet", "nep17", "balance", "-w", "{w}", "-r", "{rpc}"}}},
		{name: "nep17 balance GAS", online: true, cmds: [][]string{{"wallet", "nep17", "balance", "-w", "{w}", "-r", "{rpc}", "--token", "GAS"}}},
		{name: "nep17 import, info, remove", online: true, cmds: [][]string{
			{"wallet", "nep17", "import", "-w", "{w}", "-r", "{rpc}", "--token", gasHash},
			{"wallet", "nep17", "info", "-w", "{w}"},
			{"wallet", "nep17", "remove", "-w", "{w}", "--token", "GAS", "--force"},
			{"wallet", "nep17", "info", "-w", "{w}"},
		}},
		// wallet nep11 on a NEP-17 token: the errors
		{name: "nep11 balance of a NEP-17", online: true, stderr: true, cmds: [][]string{{"wallet", "nep11", "balance", "-w", "{w}", "-r", "{rpc}", "--token", gasHash}}},
		// contract
		{name: "testinvokefunction", online: true, cmds: [][]string{{"contract", "testinvokefunction", "-r", "{rpc}", gasHash, "balanceOf", "{A}"}}},
		{name: "testinvokefunction --historic", online: true, cmds: [][]string{{"contract", "testinvokefunction", "-r", "{rpc}", "--historic", "1", neoHash, "balanceOf", "{A}"}}},
		// util
		{name: "util txdump -r", online: true, cmds: [][]string{{"util", "txdump", "-r", "{rpc}", "{ctx}"}}},
		{name: "util sendtx", online: true, cmds: [][]string{{"util", "sendtx", "-r", "{rpc}", "--await", "{ctx}"}}},
		{name: "util canceltx of an accepted one", online: true, stderr: true, cmds: [][]string{{"util", "canceltx", "-r", "{rpc}", "-w", "{w}", "{tx}"}}, typed: []string{passA + "\n"}},
		// Transfers and claims from A.
		{name: "nep17 transfer", online: true, pair: true, cmds: [][]string{
			{"wallet", "nep17", "transfer", "-w", "{w}", "-r", "{rpc}", "--from", "{A}", "--to", "{V}", "--token", "GAS", "--amount", "1.5", "--force", "--await"},
			{"wallet", "nep17", "transfer", "-w", "{w}", "-r", "{rpc}", "--from", "{A}", "--to", "{V}", "--token", "NEO", "--amount", "1", "--force", "--await", "bytes:0102"},
		}, typed: []string{passA + "\n", passA + "\n"}},
		{name: "nep17 multitransfer", online: true, pair: true, cmds: [][]string{
			{"wallet", "nep17", "multitransfer", "-w", "{w}", "-r", "{rpc}", "--from", "{A}", "--force", "--await", "GAS:{V}:0.25", "NEO:{V}:2"},
		}, typed: []string{passA + "\n"}},
		{name: "nep17 transfer of too much", online: true, stderr: true, cmds: [][]string{
			{"wallet", "nep17", "transfer", "-w", "{w}", "-r", "{rpc}", "--from", "{A}", "--to", "{V}", "--token", "NEO", "--amount", "1000", "--force"},
		}, typed: []string{passA + "\n"}},
		{name: "wallet claim", online: true, pair: true, cmds: [][]string{
			{"wallet", "claim", "-w", "{w}", "-r", "{rpc}", "-a", "{A}", "--force", "--await"},
		}, typed: []string{passA + "\n"}},
		{name: "testinvokescript", online: true, cmds: [][]string{
			{"contract", "testinvokescript", "-r", "{rpc}", "-i", "{balancenef}"},
			{"contract", "testinvokescript", "-r", "{rpc}", "-i", "{balancenef}", "{A}:Global"},
		}},
		// An NFT (testdata/nft) deployed by A on each node, two cards
		// minted, read, one transferred; the contract account imported;
		// the contract updated and destroyed.
		{name: "contract deploy", online: true, pair: true, cmds: [][]string{
			{"contract", "deploy", "-w", "{w}", "-r", "{rpc}", "--in", "{nftnef}", "--manifest", "{nftmanifest}", "--force", "--await"},
			{"contract", "deploy", "-w", "{w}", "-r", "{rpc}", "--in", "{nftdnef}", "--manifest", "{nftdmanifest}", "--force", "--await"},
		}, typed: []string{passA + "\n", passA + "\n"}},
		{name: "contract invokefunction", online: true, pair: true, height: "{hminted}", cmds: [][]string{
			{"contract", "invokefunction", "-w", "{w}", "-r", "{rpc}", "--force", "--await", "{nft}", "mint", "{A}", "--", "{A}"},
			{"contract", "invokefunction", "-w", "{w}", "-r", "{rpc}", "--force", "--await", "{nft}", "mint", "{A}", "--", "{A}"},
			{"contract", "invokefunction", "-w", "{w}", "-r", "{rpc}", "--force", "--await", "{nftd}", "mint", "{A}", "100", "--", "{A}"},
		}, typed: []string{passA + "\n", passA + "\n", passA + "\n"}},
		{name: "testinvokefunction of an iterator", online: true, cmds: [][]string{{"contract", "testinvokefunction", "-r", "{rpc}", "{nft}", "tokensOf", "{A}"}}},
		{name: "nep11 balance", online: true, unordered: true, cmds: [][]string{
			{"wallet", "nep11", "balance", "-w", "{w}", "-r", "{rpc}"},
			{"wallet", "nep11", "balance", "-w", "{w}", "-r", "{rpc}", "--token", "{nft}"},
			{"wallet", "nep11", "balance", "-w", "{w}", "-r", "{rpc}", "--token", "{nft}", "--id", card2},
			{"wallet", "nep11", "balance", "-w", "{w}", "-r", "{rpc}", "-a", "{A}", "--token", "{nft}", "--id", card1},
		}},
		{name: "nep11 import, info, remove", online: true, cmds: [][]string{
			{"wallet", "nep11", "import", "-w", "{w}", "-r", "{rpc}", "--token", "{nft}"},
			{"wallet", "nep11", "info", "-w", "{w}"},
			{"wallet", "nep11", "info", "-w", "{w}", "--token", "CARD"},
			{"wallet", "nep11", "remove", "-w", "{w}", "--token", "CARD", "--force"},
			{"wallet", "nep11", "info", "-w", "{w}"},
		}},
		{name: "nep11 properties, ownerOf, tokensOf, tokens", online: true, cmds: [][]string{
			{"wallet", "nep11", "properties", "-r", "{rpc}", "--token", "{nft}", "--id", card1},
			{"wallet", "nep11", "ownerOf", "-r", "{rpc}", "--token", "{nft}", "--id", card1},
			{"wallet", "nep11", "tokensOf", "-r", "{rpc}", "--token", "{nft}", "--address", "{A}"},
			{"wallet", "nep11", "tokens", "-r", "{rpc}", "--token", "{nft}"},
		}},
		{name: "nep11 ownerOf of no card", online: true, stderr: true, cmds: [][]string{
			{"wallet", "nep11", "ownerOf", "-r", "{rpc}", "--token", "{nft}", "--id", "00"},
		}},
		{name: "nep11 transfer", online: true, pair: true, height: "{hmoved}", cmds: [][]string{
			{"wallet", "nep11", "transfer", "-w", "{w}", "-r", "{rpc}", "--from", "{A}", "--to", "{V}", "--token", "{nft}", "--id", card1, "--force", "--await"},
			{"wallet", "nep11", "ownerOf", "-r", "{rpc}", "--token", "{nft}", "--id", card1},
			{"wallet", "nep11", "tokensOf", "-r", "{rpc}", "--token", "{nft}", "--address", "{A}"},
		}, typed: []string{passA + "\n"}},
		{name: "nep11 divisible", online: true, cmds: [][]string{
			{"wallet", "nep11", "balance", "-w", "{w}", "-r", "{rpc}", "--token", "{nftd}"},
			{"wallet", "nep11", "ownerOfD", "-r", "{rpc}", "--token", "{nftd}", "--id", share1},
			{"wallet", "nep11", "tokensOf", "-r", "{rpc}", "--token", "{nftd}", "--address", "{A}"},
			{"wallet", "nep11", "properties", "-r", "{rpc}", "--token", "{nftd}", "--id", share1},
		}},
		{name: "nep11 transfer --amount", online: true, pair: true, cmds: [][]string{
			{"wallet", "nep11", "transfer", "-w", "{w}", "-r", "{rpc}", "--from", "{A}", "--to", "{V}", "--token", "{nftd}", "--id", share1, "--amount", "0.25", "--force", "--await"},
			{"wallet", "nep11", "ownerOfD", "-r", "{rpc}", "--token", "{nftd}", "--id", share1},
			{"wallet", "nep11", "balance", "-w", "{w}", "-r", "{rpc}", "--token", "{nftd}"},
		}, typed: []string{passA + "\n"}},
		{name: "nep11 --historic", online: true, cmds: [][]string{
			{"wallet", "nep11", "ownerOf", "-r", "{rpc}", "--token", "{nft}", "--id", card1, "--historic", "{hminted}"},
			{"wallet", "nep11", "tokensOf", "-r", "{rpc}", "--token", "{nft}", "--address", "{A}", "--historic", "{hminted}"},
			{"wallet", "nep11", "properties", "-r", "{rpc}", "--token", "{nft}", "--id", card2, "--historic", "{hminted}"},
			{"wallet", "nep11", "tokens", "-r", "{rpc}", "--token", "{nft}", "--historic", "{hmoved}"},
		}},
		{name: "wallet import-deployed", online: true, cmds: [][]string{
			{"wallet", "import-deployed", "-w", "{w}", "-r", "{rpc}", "--wif", "{wifA}", "--contract", "{nft}", "-n", "cards"},
			{"wallet", "dump", "-w", "{w}"},
		}, typed: []string{passA + "\n" + passA + "\n"}},
		// --force sends the FAULTing NEP-22 form (update/3); without it
		// the CLIs fall back to update/2 and ask before sending.
		{name: "contract update --force", online: true, pair: true, cmds: [][]string{
			{"contract", "update", "-w", "{w}", "-r", "{rpc}", "--manifest", "{nftmanifest2}", "--force", "--await", "{nft}"},
		}, typed: []string{passA + "\n"}},
		{name: "contract update", online: true, pair: true, cmds: [][]string{
			{"contract", "update", "-w", "{w}", "-r", "{rpc}", "--manifest", "{nftmanifest2}", "--await", "{nft}"},
		}, typed: []string{passA + "\ny\n"}},
		{name: "contract destroy", online: true, pair: true, cmds: [][]string{
			{"contract", "destroy", "-w", "{w}", "-r", "{rpc}", "--force", "--await", "{nft}"},
		}, typed: []string{passA + "\n"}},
		{name: "nep11 tokens of a destroyed contract", online: true, stderr: true, cmds: [][]string{
			{"wallet", "nep11", "tokens", "-r", "{rpc}", "--token", "{nft}"},
		}},
		// A registers as a candidate, votes for itself, unregisters; a
		// vote for a key that is not a candidate fails in the test run.
		{name: "candidate register", online: true, pair: true, cmds: [][]string{
			{"wallet", "candidate", "register", "-w", "{w}", "-r", "{rpc}", "-a", "{A}", "--force", "--await"},
		}, typed: []string{passA + "\n"}},
		{name: "query candidates, registered", online: true, cmds: [][]string{{"query", "candidates", "-r", "{rpc}"}}},
		{name: "candidate vote", online: true, pair: true, cmds: [][]string{
			{"wallet", "candidate", "vote", "-w", "{w}", "-r", "{rpc}", "-a", "{A}", "-c", "{pubA}", "--force", "--await"},
		}, typed: []string{passA + "\n"}},
		{name: "query voter and candidates, voted", online: true, cmds: [][]string{
			{"query", "voter", "-r", "{rpc}", "{A}"},
			{"query", "candidates", "-r", "{rpc}"},
		}},
		{name: "candidate unregister", online: true, pair: true, cmds: [][]string{
			{"wallet", "candidate", "unregister", "-w", "{w}", "-r", "{rpc}", "-a", "{A}", "--force", "--await"},
			{"query", "candidates", "-r", "{rpc}"},
		}, typed: []string{passA + "\n"}},
		{name: "candidate vote for a non-candidate", online: true, stderr: true, cmds: [][]string{
			{"wallet", "candidate", "vote", "-w", "{w}", "-r", "{rpc}", "-a", "{A}", "-c", "{pubA}", "--force"},
		}, typed: []string{passA + "\n"}},
		// offline
		{name: "wallet convert", cmds: [][]string{
			{"wallet", "convert", "-w", "{neo2}", "-o", "n3.json"},
			{"wallet", "dump", "-w", "n3.json"},
		}, typed: []string{"pw\npw\n"}},
		{name: "util convert of the point at infinity", cmds: [][]string{{"util", "convert", "00"}, {"util", "convert", "AA=="}}},
		{name: "util convert address", cmds: [][]string{{"util", "convert", addrA}}},
		{name: "util convert hex", cmds: [][]string{{"util", "convert", "0x" + strings.Repeat("a1", 20)}}},
		{name: "util convert int", cmds: [][]string{{"util", "convert", "123456"}}},
		{name: "util convert base64", cmds: [][]string{{"util", "convert", "SGVsbG8="}}},
		{name: "util ops", cmds: [][]string{{"util", "ops", "DAABAgMRwB8MBHRlc3QMFM8WIqhKlzcILUThzDk6ZPVVk5JNQWJ9W1I="}}},
		{name: "util txdump", cmds: [][]string{{"util", "txdump", "{ctx}"}}},
		{name: "wallet init, import, import-multisig, remove", cmds: [][]string{
			{"wallet", "init", "-w", "new.json"},
			{"wallet", "import", "-w", "new.json", "--wif", "{wifA}", "-n", "imported"},
			{"wallet", "import-multisig", "-w", "new.json", "--min", "1", "-n", "multi", "{pubA}"},
			{"wallet", "dump", "-w", "new.json"},
			{"wallet", "remove", "-w", "new.json", "-a", "{A}", "--force"},
			{"wallet", "dump", "-w", "new.json"},
		}, typed: []string{"", passA + "\n" + passA + "\n", passA + "\n"}},
		{name: "wallet dump", cmds: [][]string{{"wallet", "dump", "-w", "{w}"}}},
		{name: "wallet dump-keys", cmds: [][]string{{"wallet", "dump-keys", "-w", "{w}"}}},
		{name: "wallet export", cmds: [][]string{{"wallet", "export", "-w", "{w}", "--decrypt", "{A}"}}, typed: []string{passA + "\n"}},
		{name: "wallet strip-keys", cmds: [][]string{{"wallet", "strip-keys", "-w", "{w}", "--force"}, {"wallet", "dump", "-w", "{w}"}}},
		{name: "wallet change-password", cmds: [][]string{
			{"wallet", "change-password", "-w", "{w}", "-a", "{A}"},
			{"wallet", "export", "-w", "{w}", "--decrypt", "{A}"},
		}, typed: []string{passA + "\nnewpass\nnewpass\n", "newpass\n"}},
		{name: "contract inspect", cmds: [][]string{{"contract", "inspect", "--in", "{nef}"}}},
		{name: "contract calc-hash", cmds: [][]string{{"contract", "calc-hash", "-s", "{A}", "--in", "{nef}", "-m", "{manifest}"}}},
		// db (last), on the stopped nodes: each CLI dumps its node's chain and
		// restores the other node's dump into an empty database, whose dump
		// must be the other one byte for byte; reset rolls it back.
		{name: "db dump", db: true, cmds: [][]string{
			{"db", "dump", "--config-file", "protocol.yml", "-o", "dump.acc"},
			{"db", "dump", "--config-file", "protocol.yml", "--start", "2", "--count", "3", "-o", "part.acc"},
		}},
		{name: "db restore of the other node's dump", db: true, cmds: [][]string{
			{"db", "restore", "--config-file", "protocol2.yml", "-i", "{other}/dump.acc"},
			{"db", "dump", "--config-file", "protocol2.yml", "-o", "redump.acc"},
			{"cmp", "redump.acc", "{other}/dump.acc"},
			{"db", "dump", "--config-file", "protocol2.yml", "--start", "2", "--count", "3", "-o", "repart.acc"},
			{"cmp", "repart.acc", "{other}/part.acc"},
		}},
		{name: "db reset", db: true, cmds: [][]string{
			{"db", "dump", "--config-file", "protocol2.yml", "--count", "4", "-o", "first4.acc"},
			{"db", "reset", "--config-file", "protocol2.yml", "--height", "3"},
			{"db", "dump", "--config-file", "protocol2.yml", "-o", "reset.acc"},
			{"cmp", "reset.acc", "first4.acc"},
		}},
	}

	stopped := false
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			type run struct {
				cli  cli
				node *target
			}
			var runs []run
			if c.db && !stopped {
				// The db cases come last: stop the nodes, give each a second
				// configuration whose database (chain2/) is empty.
				stopped = true
				for _, n := range nodes {
					if err := n.stop(); err != nil {
						t.Fatalf("%s: %v", n.name, err)
					}
					cfg, err := os.ReadFile(filepath.Join(n.dir, "protocol.yml"))
					if err != nil {
						t.Fatal(err)
					}
					const db = "DataDirectoryPath: chain\n"
					if strings.Count(string(cfg), db) != 1 {
						t.Fatalf("%s: no single %q in protocol.yml", n.name, db)
					}
					cfg = []byte(strings.Replace(string(cfg), db, "DataDirectoryPath: chain2\n", 1))
					if err := os.WriteFile(filepath.Join(n.dir, "protocol2.yml"), cfg, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			switch {
			case c.db:
				runs = []run{{ng, nodes[0]}, {n3, nodes[1]}}
			case c.online && c.pair:
				runs = []run{{ng, nodes[0]}, {n3, nodes[1]}}
			case c.online:
				runs = []run{{ng, nodes[0]}, {ng, nodes[1]}, {n3, nodes[1]}}
			default:
				runs = []run{{ng, nodes[0]}, {n3, nodes[0]}}
			}
			outs := make([]string, len(runs))
			for i, r := range runs {
				dir := t.TempDir()
				if c.db {
					dir = r.node.dir
				}
				vars := map[string]string{
					"{other}": nodes[1-i%2].dir,
					"{rpc}":   r.node.rpc, "{A}": addrA, "{tx}": r.node.tx,
					"{pubA}": keyA.PublicKey().StringCompressed(), "{wifA}": wifA, "{V}": validator,
					"{nftd}": nftd.hash, "{nftdnef}": nftd.nef, "{nftdmanifest}": nftd.manifest,
					"{nft}": nft.hash, "{nftnef}": nft.nef, "{nftmanifest}": nft.manifest, "{nftmanifest2}": nft.manifest2,
					"{balancenef}": balanceNEF,
					"{neo2}":       copyTo(t, filepath.Join(root, "cmd", "n3node", "app", "testdata", "neo2_wallet.json"), filepath.Join(dir, "neo2.json")),
					"{w}":          copyTo(t, walletA, filepath.Join(dir, "a.json")),
					"{solo}":       copyTo(t, solo, filepath.Join(dir, "solo.json")),
					"{nef}":        filepath.Join(ref, "contracts", "refchain.nef"),
					"{manifest}":   filepath.Join(ref, "contracts", "refchain.manifest.json"),
				}
				for k, v := range r.node.heights {
					vars[k] = v
				}
				if uses(c, "{ctx}") {
					// A signed transfer from A, made by neo-go's CLI against the node
					// (offline cases: the neo-go node's, the same file for both CLIs).
					ctxFile := filepath.Join(work, fmt.Sprintf("ctx-%s-%d-%s.json", strings.ReplaceAll(c.name, " ", "_"), i, strings.Fields(r.node.name)[0]))
					if c.online || i == 0 {
						_ = os.Remove(ctxFile)
						mustRun(t, ctx, ng, dir, passA+"\n", "wallet", "nep17", "transfer", "-w", vars["{w}"], "-r", r.node.rpc,
							"--from", addrA, "--to", validator, "--token", "GAS", "--amount", "1", "--force", "--out", ctxFile)
					} else {
						ctxFile = filepath.Join(work, fmt.Sprintf("ctx-%s-0-%s.json", strings.ReplaceAll(c.name, " ", "_"), strings.Fields(runs[0].node.name)[0]))
					}
					vars["{ctx}"] = ctxFile
				}
				var sb strings.Builder
				for j, args := range c.cmds {
					args = subst(args, vars)
					typed := ""
					if j < len(c.typed) {
						typed = c.typed[j]
					}
					var res result
					var err error
					if args[0] == "cmp" {
						res = cmpFiles(dir, args[1], args[2])
					} else {
						res, err = r.cli.run(ctx, dir, typed, args...)
					}
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&sb, "$ %s\nexit %d\n%s", strings.Join(c.cmds[j], " "), res.code, res.stdout)
					if c.stderr {
						fmt.Fprintf(&sb, "stderr: %s\n", res.stderr)
					} else if res.code != 0 {
						fmt.Fprintf(&sb, "(stderr: %s)\n", strings.TrimSpace(res.stderr))
					}
				}
				outs[i] = sb.String()
				if os.Getenv("N3NODE_CLIDIFF_SHOW") != "" {
					t.Logf("%s on the %s:\n%s", r.cli.name, r.node.name, outs[i])
				}
			}
			if c.height != "" {
				for _, n := range nodes {
					var count uint32
					if err := neogo.NewClient(n.rpc).Call(ctx, "getblockcount", &count); err != nil {
						t.Fatal(err)
					}
					n.heights[c.height] = fmt.Sprint(count - 1)
				}
			}
			for i := 1; i < len(runs); i++ {
				a, b := mask(outs[i-1]), mask(outs[i])
				if c.unordered {
					a, b = sortEntries(a), sortEntries(b)
				}
				if a != b {
					t.Errorf("%s on the %s and %s on the %s differ (masked):\n%s",
						runs[i-1].cli.name, runs[i-1].node.name, runs[i].cli.name, runs[i].node.name, lineDiff(a, b))
				}
			}
		})
	}
}

func uses(c cliCase, v string) bool {
	for _, args := range c.cmds {
		for _, a := range args {
			if a == v {
				return true
			}
		}
	}
	return false
}

// subst replaces the placeholders in args (whole arguments or parts, as
// in "{other}/dump.acc").
func subst(args []string, vars map[string]string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.Contains(a, "{") {
			for k, v := range vars {
				a = strings.ReplaceAll(a, k, v)
			}
		}
		out[i] = a
	}
	return out
}

func copyTo(t *testing.T, from, to string) string {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return to
}

// mustRun runs a setup command that must succeed and returns its output.
func mustRun(t *testing.T, ctx context.Context, c cli, dir, typed string, args ...string) string {
	t.Helper()
	res, err := c.run(ctx, dir, typed, args...)
	if err == nil && res.code != 0 {
		err = fmt.Errorf("exit %d", res.code)
	}
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout: %s\nstderr: %s", c.name, strings.Join(args, " "), err, res.stdout, res.stderr)
	}
	return res.stdout
}

// lineDiff lists the lines from the first difference on, a's with "-"
// and b's with "+" (enough to see what differs; the outputs are short).
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	var sb strings.Builder
	for j := max(0, i-3); j < i; j++ {
		fmt.Fprintf(&sb, "  %s\n", al[j])
	}
	for j := i; j < len(al) && j < i+12; j++ {
		fmt.Fprintf(&sb, "- %s\n", al[j])
	}
	for j := i; j < len(bl) && j < i+12; j++ {
		fmt.Fprintf(&sb, "+ %s\n", bl[j])
	}
	return sb.String()
}

// sortEntries sorts the entries of s: each line that does not start with
// white space, with the indented lines after it.
func sortEntries(s string) string {
	var entries []string
	for _, l := range strings.Split(s, "\n") {
		if len(entries) > 0 && (strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " ")) {
			entries[len(entries)-1] += "\n" + l
			continue
		}
		entries = append(entries, l)
	}
	slices.Sort(entries)
	return strings.Join(entries, "\n")
}

// nftContract is a NEP-11 token of testdata (nft: non-divisible, nftd:
// divisible) compiled by n3node's compiler: its files and its hash when
// account A deploys it.
type nftContract struct {
	nef, manifest string
	// manifest2 is the manifest with an extra field, for contract update.
	manifest2 string
	hash      string
}

func compileNFT(t *testing.T, ctx context.Context, ng, n3 cli, work, name, sender string) nftContract {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	c := nftContract{
		nef:       filepath.Join(work, name+".nef"),
		manifest:  filepath.Join(work, name+".manifest.json"),
		manifest2: filepath.Join(work, name+"2.manifest.json"),
	}
	mustRun(t, ctx, n3, work, "", "contract", "compile", "-i", src, "-c", filepath.Join(src, "contract.yml"), "-o", c.nef, "-m", c.manifest)
	data, err := os.ReadFile(c.manifest)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	m["extra"] = map[string]any{"Version": "2"}
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.manifest2, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, ctx, ng, work, "", "contract", "calc-hash", "-s", sender, "--in", c.nef, "-m", c.manifest)
	c.hash = regexp.MustCompile(`[0-9a-f]{40}`).FindString(out)
	if c.hash == "" {
		t.Fatalf("calc-hash: %q", out)
	}
	return c
}

// cmpFiles is the pseudo-command "cmp a b" of the db cases.
func cmpFiles(dir, a, b string) result {
	read := func(p string) ([]byte, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return os.ReadFile(p)
	}
	da, errA := read(a)
	db, errB := read(b)
	switch {
	case errA != nil || errB != nil:
		return result{stdout: fmt.Sprintf("%v %v\n", errA, errB), code: 2}
	case bytes.Equal(da, db):
		return result{stdout: "identical\n"}
	default:
		return result{stdout: fmt.Sprintf("differ (%d and %d bytes)\n", len(da), len(db)), code: 1}
	}
}

// scriptNEF writes a NEF file whose script asks GAS and NEO for the
// balances of holder and checks its witness (for testinvokescript).
func scriptNEF(t *testing.T, work string, holder hash.Uint160) string {
	t.Helper()
	script, err := emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.GasHash, "balanceOf", callflag.ReadOnly, holder)
		emit.AppCall(w, nativenames.NeoHash, "balanceOf", callflag.ReadOnly, holder)
		emit.Bytes(w, holder.BytesBE())
		emit.Syscall(w, "System.Runtime.CheckWitness")
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := nef.NewFile("clidiff", "", nil, script)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(work, "balance.nef")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

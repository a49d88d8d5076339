package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/node"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/actor"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/wallet"
)

// TestContractsLive is the deploy-and-run check of the compiler
// (docs/compiler.md): every contract of the compiler corpus
// (pkg/compiler/testdata/corpus) is compiled with `n3node contract
// compile`, deployed with `n3node contract deploy` on a neo-go 0.120.0
// single-node privnet and on an n3node one (the same protocol.yml, the
// same sender), and every ABI method is run on both with a test input set:
// by invokefunction (two input sets) and by a real transaction (the same
// signed bytes sent to both nodes). The contract states (hash, NEF,
// manifest) and, for every call, VM state, GAS consumed, result stack,
// notifications and FAULT text must be equal. Only what depends on the
// block must differ: contract ids (deployments of one block are ordered by
// each node's memory pool) and the values of the methods in liveMasked.
// Run with N3NODE_NEOGO=1 (make contracts-live).
func TestContractsLive(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to run against neo-go 0.120.0 (make contracts-live)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	start := time.Now()
	contracts := compileCorpus(t, ctx)
	t.Logf("compiled %d contracts in %s", len(contracts), time.Since(start).Round(time.Millisecond))

	nodes := startLivePair(t, ctx)
	committee := committeeAccount(t)

	// Deployments: the same CLI command against each node.
	for _, n := range nodes {
		n.deployAll(t, ctx, contracts)
	}
	for _, n := range nodes {
		n.awaitAll(t, ctx, n.deployTx)
	}
	var deployed []*liveContract
	for _, c := range contracts {
		a, b := nodes[0].contractState(t, ctx, c), nodes[1].contractState(t, ctx, c)
		if a == nil || b == nil {
			t.Errorf("%s: not deployed (neo-go %v, n3node %v)", c.name, a != nil, b != nil)
			continue
		}
		// The deployment: the same execution, the id aside.
		da, db := nodes[0].appLog(t, ctx, nodes[0].deployTx[c.name]), nodes[1].appLog(t, ctx, nodes[1].deployTx[c.name])
		delete(a, "id")
		delete(b, "id")
		for _, e := range []map[string]any{da, db} {
			delete(e, "stack") // the contract state, with its id
		}
		if !sameJSON(t, c.name+" contract state", a, b) || !sameJSON(t, c.name+" deployment", da, db) {
			continue
		}
		deployed = append(deployed, c)
	}
	t.Logf("deployed %d contracts on both nodes after %s", len(deployed), time.Since(start).Round(time.Millisecond))

	// Test invocations.
	signers := []map[string]any{{"account": committee.ScriptHash().StringLE(), "scopes": "Global"}}
	st := &liveStats{policy: map[string]int{}, open: map[string]int{}}
	type txCall struct {
		c      *liveContract
		method string
		script []byte
		gas    int64
	}
	var txCalls [][]txCall // per contract, in ABI order
	for _, c := range deployed {
		var own []txCall
		for _, m := range c.manifestValue.ABI.Methods {
			if strings.HasPrefix(m.Name, "_") {
				continue
			}
			for set := range liveInputSets {
				args := make([]any, len(m.Parameters))
				for i, p := range m.Parameters {
					args[i] = liveArg(p.Type.String(), set, committee)
				}
				params := []any{c.hash.StringLE(), m.Name, args, signers}
				what := fmt.Sprintf("%s.%s/%d set %d", c.name, m.Name, len(m.Parameters), set)
				ra := nodes[0].call(t, ctx, "invokefunction", params)
				rb := nodes[1].call(t, ctx, "invokefunction", params)
				gasText, _ := rb["gasconsumed"].(string)
				script, _ := base64.StdEncoding.DecodeString(rb["script"].(string))
				before := st.differ
				st.compare(t, what, c.name+"."+m.Name, ra, rb)
				if st.differ != before {
					continue
				}
				if set != 1 {
					continue
				}
				var gas int64
				fmt.Sscan(gasText, &gas)
				if gas < 100_0000_0000 {
					own = append(own, txCall{c, m.Name, script, gas})
				}
			}
		}
		txCalls = append(txCalls, own)
	}
	calls := st.compared
	t.Logf("%d test invocations compared (%d differ) after %s", calls, st.differ, time.Since(start).Round(time.Millisecond))

	// Real transactions, in rounds: the i-th call of every contract, one
	// transaction each, built once and sent to both nodes; a round waits
	// for all of them, so every contract sees its calls in order.
	act, err := actor.New(ctx, nodes[1].client, []actor.SignerAccount{{
		Signer:  transaction.Signer{Account: committee.ScriptHash(), Scopes: transaction.Global},
		Account: committee,
	}}, actor.Options{ValidUntilBlockIncrement: 1000, SystemFeeExtra: 1_0000_0000, Nonce: liveNonce()})
	if err != nil {
		t.Fatal(err)
	}
	// ledgerops.Block(7) returns null in a transaction of block 7 itself
	// (not yet traceable) and the block after: both nodes must be past
	// it, or the two runs take different paths.
	for _, n := range nodes {
		n.awaitHeight(t, ctx, 8)
	}
	sent := 0
	for round := 0; ; round++ {
		var batch []txCall
		for _, own := range txCalls {
			if round < len(own) {
				batch = append(batch, own[round])
			}
		}
		if len(batch) == 0 {
			break
		}
		hashes := make(map[string]hash.Uint256, len(batch))
		for i, tc := range batch {
			tx, err := act.MakeUnsignedUncheckedRun(ctx, tc.script, tc.gas)
			if err != nil {
				t.Fatal(err)
			}
			pc, err := act.Sign(tx)
			if err != nil {
				t.Fatal(err)
			}
			if tx, err = pc.GetCompleteTransaction(); err != nil {
				t.Fatal(err)
			}
			for _, n := range nodes {
				if _, err := n.client.SendTransaction(ctx, tx); err != nil {
					t.Fatalf("%s: %s.%s: %v", n.name, tc.c.name, tc.method, err)
				}
			}
			hashes[fmt.Sprint(i)] = tx.Hash()
		}
		for _, n := range nodes {
			n.awaitAll(t, ctx, hashes)
		}
		for i, tc := range batch {
			h := hashes[fmt.Sprint(i)]
			a, b := nodes[0].appLog(t, ctx, h), nodes[1].appLog(t, ctx, h)
			sent++
			st.compare(t, fmt.Sprintf("%s.%s transaction %s", tc.c.name, tc.method, h.StringLE()), tc.c.name+"."+tc.method, a, b)
		}
	}
	t.Logf("%d transactions and %d test invocations compared (%d differ); %d contracts, %s in all",
		sent, calls, st.differ, len(deployed), time.Since(start).Round(time.Millisecond))
	for _, m := range []struct {
		what string
		n    map[string]int
	}{{"deliberate (docs/vm.md, docs/interop.md)", st.policy}, {"open", st.open}} {
		for pat, n := range m.n {
			t.Logf("FAULT text deviation, %s: %d× neo-go %s", m.what, n, pat)
		}
	}
	if len(deployed) < 60 || calls < 200 || sent < 100 {
		t.Errorf("too little compared: %d contracts, %d calls, %d transactions", len(deployed), calls, sent)
	}
}

// liveMasked lists the methods whose results depend on the block they run
// in (its time, index, hash, the random number derived from it, or, for
// test invocations, the fake transaction's ValidUntilBlock): the values
// of their stacks and notifications are not compared (types, VM state,
// exception and GAS still are). "script" masks the script of a test
// invocation's answer.
var liveMasked = map[string]string{
	"ledgerops.block":     "values", // block 7's timestamp
	"ledgerops.container": "values", // invokefunction: ValidUntilBlock = height + 1
	"ledgerops.hash":      "values", // the current block hash
	"natives.height":      "values", // the current height
	"runtimeops.info":     "values", // runtime.GetTime
	"runtimeops.rand":     "values", // runtime.GetRandom
	// neo-go's StdLib.base58CheckEncode appends the checksum to its
	// argument in place; the argument aliases the script (a PUSHDATA), so
	// the script neo-go reports after the run has the checksum over the
	// four bytes after the argument. The run itself is the same.
	"stdlibops.b58": "script",
}

// liveTextDeviation is a known difference between the FAULT texts of the
// two nodes: neo-go's text matches NeoGo, n3node's N3node.
type liveTextDeviation struct {
	NeoGo, N3node *regexp.Regexp
	// Policy is true for a deliberate difference: the VM's texts, where
	// n3node follows C# (docs/vm.md "Deviations"), and neo-go's Go runtime
	// panic texts, which n3node does not imitate; false marks a difference
	// still to remove.
	Policy bool
	// Stack: the result stacks differ too (C# checks the type of a popped
	// item before removing it, neo-go after).
	Stack bool
}

func textDev(neogo, n3node string, policy, stack bool) liveTextDeviation {
	return liveTextDeviation{regexp.MustCompile("^" + neogo + "$"), regexp.MustCompile("^" + n3node + "$"), policy, stack}
}

// liveTextDeviations are the FAULT texts known to differ (docs/compiler.md
// lists them). A difference not listed here fails the test.
var liveTextDeviations = []liveTextDeviation{
	// The VM: C#'s texts.
	textDev(`(.*)unhandled exception: "The value -?\d+ is out of range."`, `(.*)unhandled exception: "The index of (VMArray|PrimitiveType|Buffer) is out of range, .*"`, true, false),
	textDev(`(.*)SETITEM: invalid item type \w+`, `(.*)Invalid type for SETITEM: \w+`, true, false),
	textDev(`(.*)\(SUBSTR\): negative length`, `(.*)\(SUBSTR\): The count can not be negative for SUBSTR, count: -\d+\.`, true, false),
	textDev(`(.*)\(SUBSTR\): invalid offset`, `(.*)\(SUBSTR\): The index \+ count is out of range for SUBSTR, .*`, true, false),
	textDev(`(.*)\(MEMCPY\): interface conversion: .* not \*stackitem.Buffer`, `(.*)\(MEMCPY\): The item can't be casted to type Buffer \(\w+\)`, true, true),
	textDev(`(.*)\(ADD\): invalid conversion: Null/Integer`, `(.*)\(ADD\): invalid cast: Any to Integer`, true, false),
	textDev(`(.*)\(PICKITEM\): invalid conversion: Null/ByteString`, `(.*)\(PICKITEM\): Invalid type for PICKITEM: Any`, true, false),
	// neo-go's Go runtime panic for a non-byte-string key (its
	// CreateMultisigAccount type-asserts the item's value): not imitated.
	textDev(`(.*)\(SYSCALL\): interface conversion: interface \{\} is \*big.Int, not \[\]uint8`, `(.*)\(SYSCALL\): System.Contract.CreateMultisigAccount failed: invalid argument: key 0 is Integer`, true, false),
}

// liveStats counts what the comparisons found.
type liveStats struct {
	compared, differ int
	policy, open     map[string]int // FAULT text deviations by neo-go's pattern
}

// compare checks neo-go's result a against n3node's b for method
// (contract.method) after the masks and the known FAULT text deviations.
func (st *liveStats) compare(t *testing.T, what, method string, a, b map[string]any) {
	t.Helper()
	st.compared++
	switch liveMasked[method] {
	case "values":
		maskValues(a)
		maskValues(b)
	case "script":
		delete(a, "script")
		delete(b, "script")
	}
	ea, _ := a["exception"].(string)
	eb, _ := b["exception"].(string)
	if ea != eb && ea != "" && eb != "" {
		for _, d := range liveTextDeviations {
			ma, mb := d.NeoGo.FindStringSubmatch(ea), d.N3node.FindStringSubmatch(eb)
			if ma == nil || mb == nil || ma[1] != mb[1] {
				continue
			}
			if d.Policy {
				st.policy[d.NeoGo.String()]++
			} else {
				st.open[d.NeoGo.String()]++
			}
			a["exception"], b["exception"] = "(known deviation)", "(known deviation)"
			if d.Stack {
				delete(a, "stack")
				delete(b, "stack")
			}
			break
		}
	}
	if !sameJSON(t, what, a, b) {
		st.differ++
	}
}

// maskValues replaces every scalar "value" member under v by "masked".
func maskValues(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "value" {
				if _, compound := e.([]any); !compound {
					x[k] = "masked"
					continue
				}
			}
			maskValues(e)
		}
	case []any:
		for _, e := range x {
			maskValues(e)
		}
	}
}

// liveInputSets is the number of argument sets every method is called
// with: set 0 holds zero values, set 1 small non-zero ones.
const liveInputSets = 2

// liveArg is the ContractParameter JSON of an argument of type typ in set.
func liveArg(typ string, set int, committee *wallet.Account) map[string]any {
	pick := func(a, b any) any {
		if set == 0 {
			return a
		}
		return b
	}
	switch typ {
	case "Integer":
		return map[string]any{"type": typ, "value": pick("0", "7")}
	case "Boolean":
		return map[string]any{"type": typ, "value": pick(false, true)}
	case "String":
		return map[string]any{"type": typ, "value": pick("", "neo")}
	case "ByteArray":
		return map[string]any{"type": typ, "value": pick("", base64.StdEncoding.EncodeToString([]byte{1, 2, 3}))}
	case "Hash160":
		return map[string]any{"type": typ, "value": committee.ScriptHash().StringLE()}
	case "Hash256":
		return map[string]any{"type": typ, "value": strings.Repeat(pick("00", "11").(string), 32)}
	case "PublicKey":
		return map[string]any{"type": typ, "value": hexKey(committee)}
	case "Array":
		return map[string]any{"type": typ, "value": pick([]any{}, []any{
			map[string]any{"type": "Integer", "value": "1"},
			map[string]any{"type": "String", "value": "x"},
		})}
	case "Map":
		return map[string]any{"type": typ, "value": pick([]any{}, []any{
			map[string]any{"key": map[string]any{"type": "String", "value": "k"}, "value": map[string]any{"type": "Integer", "value": "1"}},
		})}
	default: // Any, Signature, InteropInterface
		if set == 0 {
			return map[string]any{"type": "Any"}
		}
		return map[string]any{"type": "Integer", "value": "5"}
	}
}

func hexKey(a *wallet.Account) string {
	return fmt.Sprintf("%x", a.PrivateKey().PublicKey().Bytes())
}

// liveNonce gives transactions fixed nonces, so a run's transactions are
// the same bytes on every run.
func liveNonce() func() uint32 {
	var mu sync.Mutex
	n := uint32(1000)
	return func() uint32 {
		mu.Lock()
		defer mu.Unlock()
		n++
		return n
	}
}

// committeeAccount is the 1-of-1 multi-signature account of the privnet's
// validator key (wallet1_solo.json), which holds the genesis GAS.
func committeeAccount(t *testing.T) *wallet.Account {
	ks, err := wallet.ReadKeys(config.Wallet{Path: privnetCommittee.Path, Password: privnetCommittee.Password})
	if err != nil {
		t.Fatal(err)
	}
	acc, err := wallet.NewMultisigAccount(ks[0], 1, []*keys.PublicKey{ks[0].PublicKey()})
	if err != nil {
		t.Fatal(err)
	}
	if acc.Address != privnetCommittee.Address {
		t.Fatalf("committee account %s, want %s", acc.Address, privnetCommittee.Address)
	}
	return acc
}

// liveContract is one compiled corpus contract.
type liveContract struct {
	name          string // corpus directory
	nef, manifest string // paths
	hash          hash.Uint160
	manifestValue *manifest.Manifest
}

// compileCorpus compiles every corpus contract with `n3node contract compile`.
func compileCorpus(t *testing.T, ctx context.Context) []*liveContract {
	root := filepath.Join("..", "..", "..", "pkg", "compiler", "testdata", "corpus")
	mains, err := filepath.Glob(filepath.Join(root, "*", "main.go"))
	if err != nil || len(mains) < 60 {
		t.Fatalf("corpus: %d contracts, %v", len(mains), err)
	}
	sort.Strings(mains)
	out := t.TempDir()
	var cs []*liveContract
	for _, mainGo := range mains {
		dir := filepath.Dir(mainGo)
		name := filepath.Base(dir)
		cfg := filepath.Join(dir, "contract.yml")
		if _, err := os.Stat(cfg); err != nil {
			cfg = filepath.Join(out, name+".yml")
			if err := os.WriteFile(cfg, []byte("name: "+name+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c := &liveContract{name: name, nef: filepath.Join(out, name+".nef"), manifest: filepath.Join(out, name+".manifest.json")}
		if _, err := cliRun(ctx, "", "contract", "compile", "-i", dir, "-o", c.nef, "-m", c.manifest, "-c", cfg); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(c.manifest)
		if err != nil {
			t.Fatal(err)
		}
		c.manifestValue = new(manifest.Manifest)
		if err := json.Unmarshal(data, c.manifestValue); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

// liveNode is one node of the pair.
type liveNode struct {
	name     string
	url      string
	raw      *neogo.Client
	client   *rpcclient.Client
	deployTx map[string]hash.Uint256
}

// Loopback ports of this test (away from wallet-e2e's 40352-40353).
const (
	liveNeoGoRPC, liveNeoGoP2P   = 40372, 40373
	liveN3nodeRPC, liveN3nodeP2P = 40374, 40375
)

// startLivePair starts neo-go (a process) and n3node (in this process) on
// testdata/refchain/protocol.yml, each with its own ports and database.
func startLivePair(t *testing.T, ctx context.Context) []*liveNode {
	var nodes []*liveNode
	add := func(name string, port int) {
		url := fmt.Sprintf("http://127.0.0.1:%d", port)
		cl, err := rpcclient.New(url, rpcclient.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		nodes = append(nodes, &liveNode{name: name, url: url, raw: neogo.NewClient(url), client: cl, deployTx: map[string]hash.Uint256{}})
	}
	startNeoGoPrivnet(t, ctx, liveNeoGoRPC, liveNeoGoP2P)
	add("neo-go", liveNeoGoRPC)

	// n3node, the same protocol configuration.
	cfg, dir := privnetConfig(t, liveN3nodeRPC, liveN3nodeP2P)
	c, err := config.LoadBytes("protocol.yml", cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.ResolveRelativePaths(dir)
	n, err := node.New(&c, node.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	add("n3node", liveN3nodeRPC)
	return nodes
}

var txLine = regexp.MustCompile(`(?m)^([0-9a-f]{64})$`)

// deployAll deploys every contract with `n3node contract deploy` (not
// awaited) and records the transactions.
func (n *liveNode) deployAll(t *testing.T, ctx context.Context, cs []*liveContract) {
	cfgPath := cheapCommitteeWallet(t)
	for _, c := range cs {
		out, err := cliRun(ctx, "", "contract", "deploy", "--wallet-config", cfgPath, "-a", privnetCommittee.Address,
			"-r", n.url, "--force", "--in", c.nef, "--manifest", c.manifest)
		if err != nil {
			t.Fatalf("%s: %v", n.name, err)
		}
		m := txLine.FindStringSubmatch(out)
		h := regexp.MustCompile(`Contract: ([0-9a-f]{40})`).FindStringSubmatch(out)
		if m == nil || h == nil {
			t.Fatalf("%s: deploy %s printed:\n%s", n.name, c.name, out)
		}
		txh, err := hash.Uint256DecodeStringLE(m[1])
		if err != nil {
			t.Fatal(err)
		}
		ch, err := hash.Uint160DecodeStringLE(h[1])
		if err != nil {
			t.Fatal(err)
		}
		if c.hash != (hash.Uint160{}) && c.hash != ch {
			t.Fatalf("%s: contract hash %s, the other node's %s", c.name, ch.StringLE(), c.hash.StringLE())
		}
		c.hash = ch
		n.deployTx[c.name] = txh
	}
}

// cheapCommitteeWallet writes the committee's wallet with its keys
// re-encrypted under scrypt N=16 (each CLI command decrypts it; the
// standard parameters cost a second on a loaded machine) and returns a
// wallet configuration naming it.
func cheapCommitteeWallet(t *testing.T) string {
	data, err := config.EmbeddedWallet("wallet1_solo.json")
	if err != nil {
		t.Fatal(err)
	}
	w, err := wallet.NewWalletFromBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	cheap := keys.ScryptParams{N: 16, R: 1, P: 1}
	for _, acc := range w.Accounts {
		if err := acc.Decrypt(privnetCommittee.Password, w.Scrypt); err != nil {
			t.Fatal(err)
		}
		if err := acc.Encrypt(privnetCommittee.Password, cheap); err != nil {
			t.Fatal(err)
		}
	}
	w.Scrypt = cheap
	out, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "committee.json")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "committee.yml")
	if err := os.WriteFile(cfgPath, []byte(fmt.Sprintf("Path: %q\nPassword: %q\n", path, privnetCommittee.Password)), 0o600); err != nil {
		t.Fatal(err)
	}
	return cfgPath
}

// awaitAll waits until every transaction has an application log.
func (n *liveNode) awaitAll(t *testing.T, ctx context.Context, txs map[string]hash.Uint256) {
	for what, h := range txs {
		for {
			r, err := n.raw.CallRaw(ctx, "getapplicationlog", []any{h.StringLE()})
			if err != nil {
				t.Fatalf("%s: %v", n.name, err)
			}
			if r.Err() == nil {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %s (%s) not accepted: %v", n.name, what, h.StringLE(), r.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// awaitHeight waits until the node has persisted block h.
func (n *liveNode) awaitHeight(t *testing.T, ctx context.Context, h int) {
	t.Helper()
	for {
		var count int
		if err := n.raw.Call(ctx, "getblockcount", &count); err != nil {
			t.Fatalf("%s: getblockcount: %v", n.name, err)
		}
		if count > h {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: block %d not reached: %v", n.name, h, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// call returns a method's result as generic JSON.
func (n *liveNode) call(t *testing.T, ctx context.Context, method string, params []any) map[string]any {
	t.Helper()
	var out map[string]any
	if err := n.raw.Call(ctx, method, &out, params...); err != nil {
		t.Fatalf("%s: %s: %v", n.name, method, err)
	}
	return out
}

// appLog is the only execution of a transaction's application log.
func (n *liveNode) appLog(t *testing.T, ctx context.Context, h hash.Uint256) map[string]any {
	t.Helper()
	r := n.call(t, ctx, "getapplicationlog", []any{h.StringLE()})
	ex, _ := r["executions"].([]any)
	if len(ex) != 1 {
		t.Fatalf("%s: %s: %d executions", n.name, h.StringLE(), len(ex))
	}
	return ex[0].(map[string]any)
}

// contractState is getcontractstate's answer, nil for an unknown contract.
func (n *liveNode) contractState(t *testing.T, ctx context.Context, c *liveContract) map[string]any {
	r, err := n.raw.CallRaw(ctx, "getcontractstate", []any{c.hash.StringLE()})
	if err != nil {
		t.Fatal(err)
	}
	if r.Err() != nil {
		return nil
	}
	var out map[string]any
	if err := json.Unmarshal(r.Result, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameJSON reports (as a test error) whether neo-go's a and n3node's b differ.
func sameJSON(t *testing.T, what string, a, b map[string]any) bool {
	t.Helper()
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	t.Errorf("%s differs:\nneo-go: %s\nn3node: %s", what, ja, jb)
	return false
}

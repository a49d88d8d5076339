package clienttest

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain/neogo"
)

// EnvClients enables TestClients (`make clients`).
const EnvClients = "N3NODE_CLIENTS"

// scenarioTimeout bounds one scenario run; against neo-go one takes about 4 s.
const scenarioTimeout = 3 * time.Minute

var (
	nodeFlag     = flag.String("node", "neogo", "node to start for TestClients (a key of Starters)")
	rpcFlag      = flag.String("rpc", "", "run TestClients against the node at this RPC URL instead of starting one")
	wifFlag      = flag.String("committee-wif", "", "committee WIF with -rpc (default: the reference chain's validator key)")
	magicFlag    = flag.Uint("magic", 0, "network magic the node must report, with -rpc (0: unchecked)")
	sessionsFlag = flag.String("sessions", "both", "RPC sessions of the started node: on, off or both (one node each)")
)

// TestClients installs the SDKs (first run only), starts a node (one per
// -sessions setting) and runs every scenario against it.
func TestClients(t *testing.T) {
	if os.Getenv(EnvClients) != "1" {
		t.Skipf("set %s=1 (make clients): needs npm, Python >= 3.13 with pip and neo-go", EnvClients)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()

	interp := map[string]string{}
	for _, c := range Clients {
		start := time.Now()
		path, err := Install(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		interp[c.Name] = path
		t.Logf("%s: %s (%s)", c.Name, path, time.Since(start).Round(time.Millisecond))
	}

	if *rpcFlag != "" {
		_ = runClients(ctx, t, interp, rpcTarget(t), nil)
		return
	}
	names := strings.Split(*nodeFlag, ",")
	for _, name := range names {
		if Starters[name] == nil {
			t.Fatalf("unknown -node %q", name)
		}
	}
	settings := map[string][]bool{"on": {true}, "off": {false}, "both": {true, false}}[*sessionsFlag]
	if settings == nil {
		t.Fatalf("-sessions %q: want on, off or both", *sessionsFlag)
	}
	if slices.Contains(names, "n3node") && os.Getenv(EnvN3NodeBinary) == "" {
		// One build for every n3node the test starts.
		start := time.Now()
		bin, err := BuildN3Node(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(EnvN3NodeBinary, bin)
		t.Logf("built %s (%s)", bin, time.Since(start).Round(time.Millisecond))
	}
	// fees[setting/client][node] are the fees of the transactions sent.
	fees := map[string]map[string][]string{}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			for _, sessions := range settings {
				setting := map[bool]string{true: "sessions-on", false: "sessions-off"}[sessions]
				t.Run(setting, func(t *testing.T) {
					node := startNode(ctx, t, Starters[name], StartOptions{Sessions: sessions})
					for client, f := range runClients(ctx, t, interp, node.Target, node) {
						key := setting + "/" + client
						if fees[key] == nil {
							fees[key] = map[string][]string{}
						}
						fees[key][name] = f
					}
				})
			}
		})
	}
	// The nodes must agree on the fees of the same transactions.
	for key, byNode := range fees {
		for _, name := range names[1:] {
			if f, ok := byNode[name]; ok && byNode[names[0]] != nil && !slices.Equal(f, byNode[names[0]]) {
				t.Errorf("%s: fees on %s differ from %s:\n%s: %q\n%s: %q", key, name, names[0], names[0], byNode[names[0]], name, f)
			}
		}
	}
}

// runClients runs every scenario against target; node, if not nil, is the
// node the test started (its log tail goes into failure messages). It
// returns the fees of each passed scenario's transactions by client.
func runClients(ctx context.Context, t *testing.T, interp map[string]string, target Target, node *Node) map[string][]string {
	fees := map[string][]string{}
	for _, c := range Clients {
		t.Run(c.Name, func(t *testing.T) {
			start := time.Now()
			sctx, cancel := context.WithTimeout(ctx, scenarioTimeout)
			defer cancel()
			r := Run(sctx, interp[c.Name], c, target)
			elapsed := time.Since(start).Round(time.Millisecond)
			if r.Summary != nil {
				for _, st := range r.Summary.Steps {
					t.Logf("%-20s ok=%-5v %5d ms", st.Name, st.OK, st.MS)
				}
				for _, q := range r.Summary.Quirks {
					t.Logf("quirk: %s", q)
				}
				t.Logf("%s against %s (%s): %s", r.Summary.SDK, r.Summary.Node, target.RPC, elapsed)
			}
			err := r.Err
			if r.Summary != nil {
				err = errors.Join(err, r.Summary.Check())
			}
			if err != nil {
				msg := "scenario log:\n" + string(r.Stderr)
				if node != nil {
					msg += "\nnode log tail:\n" + node.LogTail()
				}
				t.Fatalf("%s: %v\n%s", c.Name, err, msg)
			}
			f, err := r.Summary.Fees()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("fees (system/network): %q", f)
			fees[c.Name] = f
		})
	}
	return fees
}

// rpcTarget is the node of -rpc.
func rpcTarget(t *testing.T) Target {
	wif := *wifFlag
	if wif == "" {
		var err error
		if wif, err = CommitteeWIF(); err != nil {
			t.Fatal(err)
		}
	}
	return Target{RPC: *rpcFlag, CommitteeWIF: wif, Magic: uint32(*magicFlag)}
}

// startNode starts a node (stopped when the test ends).
func startNode(ctx context.Context, t *testing.T, start Starter, o StartOptions) *Node {
	begin := time.Now()
	node, err := start(ctx, t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := node.Stop(); err != nil {
			t.Errorf("stop %s: %v", node.Name, err)
		}
	})
	t.Logf("%s at %s, sessions %v (%s)", node.Name, node.RPC, o.Sessions, time.Since(begin).Round(time.Millisecond))
	return node
}

func TestNeoGoConfig(t *testing.T) {
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "testdata", "refchain", "protocol.yml"))
	if err != nil {
		t.Fatal(err)
	}
	off, err := NeoGoConfig(tmpl, 0, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(off), "    SessionEnabled: false\n") || !strings.Contains(string(off), `"127.0.0.1:40332"`) {
		t.Errorf("sessions off, template ports:\n%s", off)
	}
	cfg, err := NeoGoConfig(tmpl, 1111, 2222, true)
	if err != nil {
		t.Fatal(err)
	}
	s := string(cfg)
	for _, want := range []string{"    SessionEnabled: true\n", `"127.0.0.1:1111"`, `"127.0.0.1:2222"`, "  Consensus:\n    Enabled: true\n", "Magic: 56753"} {
		if !strings.Contains(s, want) {
			t.Errorf("config lacks %q", want)
		}
	}
	if _, err := NeoGoConfig(cfg, 1, 2, true); !errors.Is(err, ErrConfig) {
		t.Errorf("config without SessionEnabled: false: %v", err)
	}
}

func TestCommitteeWIF(t *testing.T) {
	wif, err := CommitteeWIF()
	if err != nil {
		t.Fatal(err)
	}
	if len(wif) != 52 || (wif[0] != 'K' && wif[0] != 'L') {
		t.Errorf("not a compressed-key WIF: %q", wif)
	}
}

func TestSummary(t *testing.T) {
	good := `{"client":"x","sdk":"x 1","ok":true,"quirks":["q"],"steps":[` +
		`{"name":"version","ok":true,"ms":1,"network":56753},{"name":"blocks","ok":true,"ms":1},{"name":"contracts","ok":true,"ms":1},` +
		`{"name":"balances","ok":true,"ms":1},{"name":"transfer-multisig","ok":true,"ms":1},` +
		`{"name":"transfer-single-sig","ok":true,"ms":1},{"name":"invoke","ok":true,"ms":1},` +
		`{"name":"session","ok":true,"ms":1,"transactions":[{"hash":"0x01","sysfee":"7","netfee":"8"}]}]}`
	s, err := ParseSummary([]byte("noise\n" + good + "\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if string(s.Steps[0].Detail["network"]) != "56753" || s.Steps[7].Detail["transactions"] == nil || s.Quirks[0] != "q" {
		t.Errorf("details lost: %+v", s)
	}
	if f, err := s.Fees(); err != nil || !slices.Equal(f, []string{"session: 7/8"}) {
		t.Errorf("fees: %q, %v", f, err)
	}

	bad := strings.Replace(good, `{"name":"invoke","ok":true,"ms":1}`, `{"name":"invoke","ok":false,"ms":1,"error":"boom"}`, 1)
	bad = strings.Replace(bad, `"ok":true,"quirks"`, `"ok":false,"quirks"`, 1)
	if s, err = ParseSummary([]byte(bad)); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("failed step: %v", err)
	}
	short := `{"ok":true,"steps":[{"name":"version","ok":true}]}`
	if s, err = ParseSummary([]byte(short)); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "session did not run") {
		t.Errorf("missing steps: %v", err)
	}
	for _, junk := range []string{"", "\n\n", "not json", `["array"]`} {
		if _, err := ParseSummary([]byte(junk)); !errors.Is(err, ErrSummary) {
			t.Errorf("%q: %v", junk, err)
		}
	}
}

// TestScenarioSyntax parses the scenarios with the local interpreters, when
// there are any, so a syntax error shows up in the default suite.
func TestScenarioSyntax(t *testing.T) {
	root, err := neogo.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string][]string{
		"neon-js":   {"node", "--check", filepath.Join(root, "clients", "neon-js", "scenario.mjs")},
		"neo-mamba": {"python3", "-c", "import ast, sys; ast.parse(open(sys.argv[1]).read())", filepath.Join(root, "clients", "neo-mamba", "scenario.py")},
	}
	if len(checks) != len(Clients) {
		t.Fatalf("%d syntax checks for %d clients", len(checks), len(Clients))
	}
	for _, c := range Clients {
		args := checks[c.Name]
		if _, err := exec.LookPath(args[0]); err != nil {
			t.Logf("%s: no %s, skipped", c.Name, args[0])
			continue
		}
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", c.Name, err, out)
		}
	}
}

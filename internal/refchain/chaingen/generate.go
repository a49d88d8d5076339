package chaingen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Input files of a fixture directory (besides refchain.ProtocolFile).
const (
	AccountsFile     = "accounts.json"
	WalletFile       = "wallet1_solo.json"
	ContractsDir     = "contracts"
	helperNEF        = "management_helper1.nef"
	helperManifest   = "management_helper1.manifest.json"
	startEmptyBlocks = 3 // blocks to wait for before the first transaction
)

// Options configure Generate.
type Options struct {
	Binary string // neo-go binary; "" runs neogo.Binary
	In     string // inputs: protocol.yml, wallet1_solo.json, accounts.json, contracts/management_helper1.*
	Out    string // outputs (may equal In): chain.acc, scenario.json, rpc/*.json, contracts/refchain*
	Work   string // scratch directory for node databases and logs; "" makes a temp dir
	Keep   bool   // keep Work afterwards (it is always kept after a failure)
	// P2PPort and RPCPort override the loopback ports of protocol.yml
	// (0 keeps them: neogo.DefaultP2PPort, neogo.DefaultRPCPort).
	P2PPort, RPCPort int
	// NoVerify skips restoring the dump into a second neo-go node and
	// replaying every record against it.
	NoVerify bool
	Log      io.Writer // progress messages; nil for none
}

// Generate builds the reference chain with neo-go and writes the fixtures.
func Generate(ctx context.Context, o Options) (sc *refchain.Scenario, err error) {
	if o.Binary == "" {
		if o.Binary, err = neogo.Binary(ctx); err != nil {
			return nil, err
		}
	}
	if o.RPCPort == 0 {
		o.RPCPort = neogo.DefaultRPCPort
	}
	if o.P2PPort == 0 {
		o.P2PPort = neogo.DefaultP2PPort
	}
	if o.Work == "" {
		if o.Work, err = os.MkdirTemp("", "refchain-"); err != nil {
			return nil, err
		}
	}
	defer func() {
		if err != nil {
			err = fmt.Errorf("%w (work directory %s kept)", err, o.Work)
		} else if !o.Keep {
			_ = os.RemoveAll(o.Work)
		}
	}()
	g := &generation{o: o}
	return g.run(ctx)
}

type generation struct {
	o        Options
	template []byte
	w        *world
}

func (g *generation) logf(format string, args ...any) {
	if g.o.Log != nil {
		fmt.Fprintf(g.o.Log, format+"\n", args...)
	}
}

// nodeDir prepares a node directory holding the wallet and returns it with
// the rendered config.
func (g *generation) nodeDir(name string, consensus bool) (string, []byte, error) {
	dir := filepath.Join(g.o.Work, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	wallet, err := os.ReadFile(filepath.Join(g.o.In, WalletFile))
	if err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, WalletFile), wallet, 0o600); err != nil {
		return "", nil, err
	}
	cfg, err := neogo.RenderConfig(g.template, neogo.ConfigOptions{P2PPort: g.o.P2PPort, RPCPort: g.o.RPCPort, Consensus: consensus})
	if err != nil {
		return "", nil, err
	}
	return dir, cfg, os.WriteFile(filepath.Join(dir, refchain.ProtocolFile), cfg, 0o644)
}

func (g *generation) start(ctx context.Context, dir string, cfg []byte) (*neogo.Node, error) {
	return neogo.Start(ctx, neogo.StartOptions{Binary: g.o.Binary, Dir: dir, Config: cfg, RPCPort: g.o.RPCPort, P2PPort: g.o.P2PPort})
}

func (g *generation) run(ctx context.Context) (*refchain.Scenario, error) {
	var err error
	if g.template, err = os.ReadFile(filepath.Join(g.o.In, refchain.ProtocolFile)); err != nil {
		return nil, err
	}
	accounts, err := loadAccounts(filepath.Join(g.o.In, AccountsFile))
	if err != nil {
		return nil, err
	}

	// 1. Build the chain with consensus on.
	dir, cfg, err := g.nodeDir("chain", true)
	if err != nil {
		return nil, err
	}
	g.logf("starting neo-go (consensus) in %s", dir)
	node, err := g.start(ctx, dir, cfg)
	if err != nil {
		return nil, err
	}
	txs, err := g.drive(ctx, node, accounts)
	if stopErr := node.Stop(); err == nil && stopErr != nil {
		err = stopErr
	}
	if err != nil {
		return nil, err
	}

	// 2. Record answers from the same database with consensus off, so the
	// chain no longer grows.
	if cfg, err = neogo.RenderConfig(g.template, neogo.ConfigOptions{P2PPort: g.o.P2PPort, RPCPort: g.o.RPCPort}); err != nil {
		return nil, err
	}
	g.logf("restarting neo-go without consensus to record answers")
	node, err = g.start(ctx, dir, cfg)
	if err != nil {
		return nil, err
	}
	sc, rec, err := g.record(ctx, node, accounts, txs)
	if stopErr := node.Stop(); err == nil && stopErr != nil {
		err = stopErr
	}
	if err != nil {
		return nil, err
	}

	// 3. Dump.
	acc := filepath.Join(g.o.Work, refchain.ChainAccFile)
	g.logf("dumping %d blocks", sc.Height+1)
	if err := neogo.Dump(ctx, g.o.Binary, dir, acc); err != nil {
		return nil, err
	}

	// 4. Prove the dump: restore it into a fresh node and replay every record.
	if !g.o.NoVerify {
		if err := g.verify(ctx, acc, rec); err != nil {
			return nil, err
		}
	}

	// 5. Write the fixtures and check them.
	if err := g.write(acc, sc, rec); err != nil {
		return nil, err
	}
	f, err := refchain.Load(g.o.Out)
	if err != nil {
		return nil, err
	}
	if err := refchain.Check(f); err != nil {
		return nil, fmt.Errorf("chaingen: written fixtures are inconsistent: %w", err)
	}
	return sc, nil
}

// drive runs the scenario on a consensus node.
func (g *generation) drive(ctx context.Context, node *neogo.Node, accounts map[string]*Account) ([]refchain.TxInfo, error) {
	var ver struct {
		Protocol struct {
			Network uint32 `json:"network"`
		} `json:"protocol"`
	}
	if err := node.RPC.Call(ctx, "getversion", &ver); err != nil {
		return nil, err
	}
	d := &driver{rpc: node.RPC, log: g.o.Log, magic: ver.Protocol.Network, nonce: firstNonce}
	if err := d.loadNatives(ctx); err != nil {
		return nil, err
	}
	w, err := newWorld(d, accounts, g.o.In)
	if err != nil {
		return nil, err
	}
	g.w = w
	if err := d.waitHeight(ctx, startEmptyBlocks); err != nil {
		return nil, err
	}
	return w.run(ctx)
}

// newWorld assembles the contracts and computes their hashes.
func newWorld(d *driver, accounts map[string]*Account, in string) (*world, error) {
	w := &world{
		d: d, acc: accounts,
		neo: d.natives["NeoToken"], gas: d.natives["GasToken"], policy: d.natives["PolicyContract"],
		mgmt: d.natives["ContractManagement"], roles: d.natives["RoleManagement"],
	}
	var err error
	if w.refchainV1, err = RefChainContract(RefChainName, 1, w.mgmt); err != nil {
		return nil, err
	}
	if w.refchainV2, err = RefChainContract(RefChainName, 2, w.mgmt); err != nil {
		return nil, err
	}
	if w.doomed, err = RefChainContract(DoomedName, 1, w.mgmt); err != nil {
		return nil, err
	}
	if w.helper.NEF, err = os.ReadFile(filepath.Join(in, ContractsDir, helperNEF)); err != nil {
		return nil, err
	}
	if w.helper.Manifest, err = os.ReadFile(filepath.Join(in, ContractsDir, helperManifest)); err != nil {
		return nil, err
	}
	w.helper.Manifest = bytes.TrimSpace(w.helper.Manifest)
	var hm struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(w.helper.Manifest, &hm); err != nil {
		return nil, fmt.Errorf("%s: %w", helperManifest, err)
	}
	w.refchainHash = ContractHash(accounts["A"].Hash, NEFChecksum(w.refchainV1.NEF), RefChainName)
	w.helperHash = ContractHash(accounts["B"].Hash, NEFChecksum(w.helper.NEF), hm.Name)
	w.doomedHash = ContractHash(accounts["C"].Hash, NEFChecksum(w.doomed.NEF), DoomedName)
	return w, nil
}

// record collects every answer from a node that no longer adds blocks.
func (g *generation) record(ctx context.Context, node *neogo.Node, accounts map[string]*Account, txs []refchain.TxInfo) (*refchain.Scenario, *recorder, error) {
	var count uint32
	if err := node.RPC.Call(ctx, "getblockcount", &count); err != nil {
		return nil, nil, err
	}
	height := count - 1
	rec := &recorder{rpc: node.RPC, files: make(map[string][]refchain.Record)}
	g.logf("recording answers for heights 0..%d", height)
	txBlock, order, err := rec.recordChain(ctx, height)
	if err != nil {
		return nil, nil, err
	}
	if len(order) != len(txs) {
		return nil, nil, fmt.Errorf("chaingen: chain holds %d transactions, the scenario sent %d", len(order), len(txs))
	}
	byHash := make(map[string]refchain.TxInfo, len(txs))
	for _, t := range txs {
		if b, ok := txBlock[t.Hash]; !ok || b != t.Block {
			return nil, nil, fmt.Errorf("chaingen: tx %s: block %d in the chain, %d when sent", t.Hash, b, t.Block)
		}
		byHash[t.Hash] = t
	}
	sc := &refchain.Scenario{NeoGoVersion: neogo.Version, Network: g.w.d.magic, Height: height}
	for _, h := range order {
		sc.Transactions = append(sc.Transactions, byHash[h])
	}
	for _, name := range []string{"V", "M", "A", "B", "C", "D", "E"} {
		a := accounts[name]
		ra := refchain.Account{Name: name, Address: a.Address(), ScriptHash: a.Hash.String(), WIF: ""}
		if len(a.Keys) == 1 && name != "M" {
			ra.PublicKey = a.Keys[0].PubHex()
		}
		ra.Note = accountNotes[name]
		sc.Accounts = append(sc.Accounts, ra)
	}
	for _, c := range []struct {
		name string
		h    hash.Uint160
		note string
	}{
		{RefChainName, g.w.refchainHash, "hand-assembled by chaingen, deployed by A, updated to version 2 by B"},
		{"TestMain", g.w.helperHash, "neo-go's internal/contracts/management_helper1, deployed by B"},
		{DoomedName, g.w.doomedHash, "RefChain copy deployed by C and destroyed"},
	} {
		sc.Contracts = append(sc.Contracts, refchain.Contract{Name: c.name, Hash: c.h.String(), ID: g.w.ids[c.h], Note: c.note})
	}
	unsent, err := unsentTx(g.w.d.magic, g.w.gas, accounts["A"], accounts["B"])
	if err != nil {
		return nil, nil, err
	}
	if err := g.w.recordState(ctx, rec, height, order[0], unsent); err != nil {
		return nil, nil, err
	}
	return sc, rec, nil
}

var accountNotes = map[string]string{
	"V": "validator and sole committee member (key of neo-go's wallet1_solo.json)",
	"M": "1-of-1 multisig of V: the validators' and committee's address, holder of the initial NEO and GAS",
	"A": "candidate, later unregistered; deploys RefChain",
	"B": "candidate registered by a GAS transfer to NEO; deploys TestMain",
	"C": "votes for A, then B; deploys and destroys RefChainDoomed",
	"D": "small GAS holder; votes for V, then withdraws its vote",
	"E": "never sends; blocked by Policy and designated as Oracle node",
}

// unsentTx signs a GAS transfer from A to B that is never relayed, for the
// calculatenetworkfee record. It is fully determined by its arguments.
func unsentTx(magic uint32, gasHash hash.Uint160, A, B *Account) ([]byte, error) {
	script, err := transfers(gasHash, true, tr(A, B, gas(1)))
	if err != nil {
		return nil, err
	}
	tx := &Tx{Nonce: 999999, SystemFee: gasFactor, ValidUntilBlock: fixedValidUntilBlock, Script: script,
		Signers:   []Signer{{Account: A.Hash, Scopes: ScopeCalledByEntry}},
		Witnesses: []Witness{{Verification: A.Verification}}}
	d := &driver{magic: magic}
	if err := d.sign(tx, []sig{entry(A)}); err != nil {
		return nil, err
	}
	return tx.Bytes(), nil
}

// verify restores the dump into a fresh node and replays every record.
func (g *generation) verify(ctx context.Context, acc string, rec *recorder) error {
	dir, cfg, err := g.nodeDir("verify", false)
	if err != nil {
		return err
	}
	g.logf("restoring the dump into %s", dir)
	if err := neogo.Restore(ctx, g.o.Binary, dir, acc); err != nil {
		return err
	}
	node, err := g.start(ctx, dir, cfg)
	if err != nil {
		return err
	}
	defer node.Stop()
	var all []refchain.Record
	for _, f := range []string{refchain.BlocksRecords, refchain.TransactionsRecords, refchain.StateRecords, refchain.ErrorRecords} {
		all = append(all, rec.files[f]...)
	}
	g.logf("replaying %d records against the restored node", len(all))
	call := func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, json.RawMessage, error) {
		r, err := node.RPC.CallRaw(ctx, method, params)
		return r.Result, r.Error, err
	}
	mm, err := refchain.Replay(ctx, call, all, refchain.ReplayOptions{ErrorMessages: true})
	if err != nil {
		return err
	}
	if len(mm) != 0 {
		var sb strings.Builder
		for i, m := range mm {
			if i == 10 {
				fmt.Fprintf(&sb, "... and %d more\n", len(mm)-10)
				break
			}
			sb.WriteString(m.String() + "\n")
		}
		return fmt.Errorf("chaingen: %d of %d records differ on the restored node:\n%s", len(mm), len(all), sb.String())
	}
	return node.Stop()
}

// write puts the fixtures into Out.
func (g *generation) write(acc string, sc *refchain.Scenario, rec *recorder) error {
	out := g.o.Out
	if err := os.MkdirAll(filepath.Join(out, refchain.RPCDir), 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, ContractsDir), 0o755); err != nil {
		return err
	}
	data, err := os.ReadFile(acc)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, refchain.ChainAccFile), data, 0o644); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(out, refchain.ScenarioFile), sc); err != nil {
		return err
	}
	for name, recs := range rec.files {
		if err := writeJSON(filepath.Join(out, refchain.RPCDir, name+".json"), recs); err != nil {
			return err
		}
	}
	for name, c := range map[string]Contract{"refchain": g.w.refchainV1, "refchain_v2": g.w.refchainV2, "refchain_doomed": g.w.doomed} {
		if err := os.WriteFile(filepath.Join(out, ContractsDir, name+".nef"), c.NEF, 0o644); err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := json.Indent(&buf, c.Manifest, "", "  "); err != nil {
			return err
		}
		buf.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(out, ContractsDir, name+".manifest.json"), buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes v indented, without HTML escaping, keeping the key order
// of raw answers.
func writeJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// loadAccounts reads accounts.json and adds M, the 1-of-1 multisig of V.
func loadAccounts(path string) (map[string]*Account, error) {
	var list []refchain.Account
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	accs := make(map[string]*Account)
	for _, a := range list {
		k, err := KeyFromWIF(a.WIF)
		if err != nil {
			return nil, fmt.Errorf("account %s: %w", a.Name, err)
		}
		accs[a.Name] = NewSigAccount(a.Name, k)
	}
	for _, n := range []string{"V", "A", "B", "C", "D", "E"} {
		if accs[n] == nil {
			return nil, fmt.Errorf("%s: account %s missing", path, n)
		}
	}
	accs["M"] = NewMultisigAccount("M", 1, accs["V"].Keys)
	return accs, nil
}

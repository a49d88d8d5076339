package node

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
)

// account is a (multi-)signature account whose signing keys the test
// holds, in the verification script's key order.
type account struct {
	script  []byte
	signers []*keys.PrivateKey
}

func (a account) hash() hash.Uint160 { return hash.Hash160(a.script) }

// witness signs tx for the account.
func (a account) witness(tx *transaction.Transaction, magic uint32) transaction.Witness {
	sd := tx.SignData(magic)
	w := nio.NewBufBinWriter()
	for _, k := range a.signers {
		emit.Bytes(w, k.Sign(sd[:]))
	}
	return transaction.Witness{InvocationScript: w.Bytes(), VerificationScript: a.script}
}

func sigAccount(k *keys.PrivateKey) account {
	return account{script: k.PublicKey().VerificationScript(), signers: []*keys.PrivateKey{k}}
}

// multisigAccount is the m-of-n account of ks (signed by the first m in
// key order).
func multisigAccount(t testing.TB, m int, ks []*keys.PrivateKey) account {
	t.Helper()
	pubs := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		pubs[i] = k.PublicKey()
	}
	keys.SortPublicKeys(pubs)
	script, err := smartcontract.CreateMultiSigRedeemScript(m, pubs)
	if err != nil {
		t.Fatal(err)
	}
	a := account{script: script}
	for _, p := range pubs[:m] {
		for _, k := range ks {
			if k.PublicKey().Equal(p) {
				a.signers = append(a.signers, k)
			}
		}
	}
	return a
}

// txSender builds, signs and sends transactions to a node over RPC.
type txSender struct {
	t     testing.TB
	n     *Node
	c     *rpcclient.Client
	magic uint32
	nonce uint32
}

func newTxSender(t testing.TB, n *Node) *txSender {
	return &txSender{t: t, n: n, c: rpcClient(t, n), magic: uint32(n.Config().ProtocolConfiguration.Magic), nonce: uint32(time.Now().UnixNano())}
}

// send sends script as a transaction of acc (CalledByEntry) and returns
// its hash.
func (s *txSender) send(acc account, script []byte, sysFee int64) hash.Uint256 {
	s.t.Helper()
	s.nonce++
	tx := transaction.New(script, s.nonce, sysFee, 5000_0000, s.n.Chain().BlockHeight()+100)
	tx.Signers = []transaction.Signer{{Account: acc.hash(), Scopes: transaction.CalledByEntry}}
	tx.Witnesses = []transaction.Witness{acc.witness(tx, s.magic)}
	h, err := s.c.SendTransaction(context.Background(), tx)
	if err != nil {
		s.t.Fatalf("sendrawtransaction: %v", err)
	}
	return h
}

// wait waits for a transaction's block and requires it to HALT.
func (s *txSender) wait(h hash.Uint256) *state.Execution {
	s.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		log, err := s.c.GetApplicationLog(context.Background(), h)
		if err == nil {
			if len(log.Executions) != 1 || log.Executions[0].VMState.String() != "HALT" {
				s.t.Fatalf("transaction %s: %+v", h.StringLE(), log.Executions)
			}
			return &log.Executions[0]
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("transaction %s not in a block within %s: %v", h.StringLE(), waitTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// run sends and waits.
func (s *txSender) run(acc account, script []byte, sysFee int64) *state.Execution {
	s.t.Helper()
	return s.wait(s.send(acc, script, sysFee))
}

// designateScript designates pubs for role.
func designateScript(w *nio.BinWriter, role noderoles.Role, pubs ...*keys.PublicKey) {
	args := make([]any, len(pubs))
	for i, p := range pubs {
		args[i] = p.Bytes()
	}
	emit.AppCall(w, nativenames.DesignationHash, "designateAsRole", callflag.All, int64(role), args)
}

// waitFor polls cond until it holds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, waitTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startFourValidators starts the embedded 4-node private network in one
// process with 250 ms blocks and in-memory databases, plus extra nodes
// made by extra (started first, so that they see every block), with RPC
// on node 1 only. Every validator waits for all the other nodes (MinPeers)
// before consensus starts, so no node misses a block. mod adjusts the
// configurations (i is 1..4 for validators, 0 for the extra nodes).
func startFourValidators(t *testing.T, extra int, mod func(i int, cfg *config.Config)) (validators, others []*Node) {
	t.Helper()
	return startFourValidatorsWith(t, extra, func(i int, cfg *config.Config, _ *ServiceOptions) {
		if mod != nil {
			mod(i, cfg)
		}
	})
}

// startFourValidatorsWith is startFourValidators whose mod also sets the
// nodes' service options.
func startFourValidatorsWith(t *testing.T, extra int, mod func(i int, cfg *config.Config, o *ServiceOptions)) (validators, others []*Node) {
	t.Helper()
	var seeds []string
	load := func(i int) (config.Config, ServiceOptions) {
		name := fmt.Sprintf("privnet4-%d", max(i, 1))
		cfg, err := config.LoadNetwork(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg.ProtocolConfiguration.MaxTimePerBlock = 0
		fastBlocks(&cfg.ProtocolConfiguration)
		cfg.ProtocolConfiguration.SeedList = append([]string(nil), seeds...)
		app := &cfg.ApplicationConfiguration
		app.P2P.Addresses = []string{"127.0.0.1:0"}
		app.P2P.MinPeers = 3 + extra
		app.RPC.Enabled = i == 1
		app.RPC.Addresses = []string{"127.0.0.1:0"}
		if i == 0 {
			app.Consensus.Enabled = false
		}
		if err := SetDatabase(&cfg, "inmemory", ""); err != nil {
			t.Fatal(err)
		}
		var o ServiceOptions
		if mod != nil {
			mod(i, &cfg, &o)
		}
		return cfg, o
	}
	for range extra {
		cfg, o := load(0)
		n := startNodeWith(t, cfg, o)
		others = append(others, n)
		seeds = append(seeds, n.P2PAddresses()...)
	}
	for i := 1; i <= 4; i++ {
		cfg, o := load(i)
		n := startNodeWith(t, cfg, o)
		validators = append(validators, n)
		seeds = append(seeds, n.P2PAddresses()...)
	}
	return validators, others
}

// startNodeWith is startNode with service options.
func startNodeWith(t testing.TB, cfg config.Config, o ServiceOptions) *Node {
	t.Helper()
	n, err := New(&cfg, Options{Logger: testLogger(t), ServiceOptions: o})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Shutdown(context.Background()) })
	return n
}

// freeAddresses returns n loopback addresses whose ports were free a
// moment ago (for services that must know each other's addresses before
// they start).
func freeAddresses(t testing.TB, n int) []string {
	t.Helper()
	var (
		out []string
		ls  []net.Listener
	)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().String())
	}
	for _, l := range ls {
		_ = l.Close()
	}
	return out
}

// committeeOf returns the 3-of-4 committee account of the 4-node network
// (the validators' keys).
func committeeOf(t testing.TB, validators []*Node) account {
	var ks []*keys.PrivateKey
	for _, n := range validators {
		ks = append(ks, n.keys[0])
	}
	return multisigAccount(t, 3, ks)
}

// stateRootJSON is a getstateroot result.
type stateRootJSON struct {
	Index     uint32 `json:"index"`
	RootHash  string `json:"roothash"`
	Witnesses []struct {
		Invocation   []byte `json:"invocation"`
		Verification []byte `json:"verification"`
	} `json:"witnesses"`
}

// TestStateRootValidators: four validators designated as state validators
// by a committee transaction sign and exchange the state roots of the
// following blocks; node 1's getstateheight reports the validated roots,
// getstateroot returns them with the 3-of-4 witness of the designated
// keys, and a node without keys (watch-only, StateRoot disabled) stores
// the same validated roots from the network.
func TestStateRootValidators(t *testing.T) {
	if testing.Short() {
		t.Skip("five nodes")
	}
	t.Parallel()
	vals, others := startFourValidators(t, 1, func(i int, cfg *config.Config) {
		if i > 0 {
			app := &cfg.ApplicationConfiguration
			app.StateRoot.Enabled = true
			app.StateRoot.UnlockWallet = app.Consensus.UnlockWallet
		}
	})
	watcher := others[0]
	if watcher.StateRootService().IsAuthorized() || !vals[0].StateRootService().IsAuthorized() {
		t.Fatal("StateService keys: the watcher has some or a validator has none")
	}
	s := newTxSender(t, vals[0])
	ctx := context.Background()
	waitBlockCount(t, s.c, 2)

	pubs := make([]*keys.PublicKey, len(vals))
	for i, n := range vals {
		pubs[i] = n.ValidatorKeys()[0]
	}
	committee := committeeOf(t, vals)
	txh := s.send(committee, chaintest.Script(func(w *nio.BinWriter) {
		designateScript(w, noderoles.StateValidator, pubs...)
	}), 1_0000_0000)
	s.wait(txh)
	d, err := s.c.GetTransactionHeight(ctx, txh)
	if err != nil {
		t.Fatal(err)
	}

	// The designation is effective from block d+1.
	var sh struct {
		Local     uint32 `json:"localrootindex"`
		Validated uint32 `json:"validatedrootindex"`
	}
	waitFor(t, "validated state roots", func() bool {
		if err := s.c.Call(ctx, "getstateheight", nil, &sh); err != nil {
			t.Fatal(err)
		}
		return sh.Validated >= d+3
	})
	var root stateRootJSON
	if err := s.c.Call(ctx, "getstateroot", []any{sh.Validated}, &root); err != nil {
		t.Fatal(err)
	}
	local, err := vals[0].Chain().GetStateRoot(sh.Validated)
	if err != nil {
		t.Fatal(err)
	}
	if root.Index != sh.Validated || root.RootHash != "0x"+local.RootHash.StringLE() || len(root.Witnesses) != 1 {
		t.Fatalf("getstateroot %d: %+v", sh.Validated, root)
	}
	// M = 3 signatures of the 3-of-4 multisig of the designated keys (the
	// same account as the committee's).
	w := root.Witnesses[0]
	if hash.Hash160(w.Verification) != committee.hash() || len(w.Invocation) != 3*66 {
		t.Fatalf("witness: invocation %d bytes, verification %x", len(w.Invocation), w.Verification)
	}
	if before, err := vals[0].Chain().GetStateRoot(d); err != nil || len(before.Witness) != 0 {
		t.Fatalf("root %d (before the designation) validated: %+v, %v", d, before, err)
	}
	// Every node, keys or not, stores validated roots. A node keeps only
	// roots above its validated height (C# StateStore), so one that gets
	// root k+1 before root k skips k: check each node's latest.
	for i, n := range append(vals, watcher) {
		var v uint32
		waitFor(t, fmt.Sprintf("node %d validated root %d", i, sh.Validated), func() bool {
			v = n.Chain().StateModule().CurrentValidatedHeight()
			return v >= sh.Validated
		})
		waitFor(t, "node 1 at the height", func() bool { return vals[0].Chain().BlockHeight() >= v })
		ref, err := vals[0].Chain().GetStateRoot(v)
		if err != nil {
			t.Fatal(err)
		}
		r, err := n.Chain().GetStateRoot(v)
		if err != nil || r.RootHash != ref.RootHash || len(r.Witness) != 1 ||
			hash.Hash160(r.Witness[0].VerificationScript) != committee.hash() || len(r.Witness[0].InvocationScript) != 3*66 {
			t.Fatalf("node %d: root %d %+v, %v", i, v, r, err)
		}
	}
	st := watcher.StateRootService().Stats()
	if st.RootsValidated == 0 || st.VotesSent != 0 || st.Mismatches != 0 {
		t.Fatalf("watcher StateService: %+v", st)
	}
	t.Logf("designated in block %d; validated root %d at local height %d; watcher %+v", d, sh.Validated, sh.Local, st)
}

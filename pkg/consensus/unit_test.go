package consensus

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/nspcc-dev/dbft"
	"go.uber.org/zap"
)

// The node's memory pool is a Mempool as it is.
var _ Mempool = (*mempool.Pool)(nil)

func TestZapBridge(t *testing.T) {
	var buf bytes.Buffer
	h := slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})
	l := newZapLogger(h).With(zap.String("module", "dbft"))
	l.Debug("hidden")
	l.Info("initializing", zap.Uint32("height", 7), zap.Stringer("type", message.CommitType))
	l.Warn("careful", zap.Error(errTooManyTxs))
	l.Fatal("does not exit")
	out := buf.String()
	for _, want := range []string{
		`level=INFO msg=initializing module=dbft height=7 type=Commit`,
		`level=WARN msg=careful module=dbft error="PrepareRequest: more transactions than MaxTransactionsPerBlock"`,
		`level=ERROR msg="does not exit"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "hidden") {
		t.Error("debug entry passed an info handler")
	}
}

func TestRoundTimer(t *testing.T) {
	c := newFakeClock()
	rt := newRoundTimer(c)
	if rt.C() != nil {
		t.Fatal("unarmed timer has a channel")
	}
	rt.Reset(5, 1, 0)
	select {
	case <-rt.C():
	default:
		t.Fatal("zero reset did not fire")
	}
	if rt.Height() != 5 || rt.View() != 1 {
		t.Fatal("height/view")
	}
	rt.Reset(6, 0, 10*time.Second)
	rt.Extend(5 * time.Second)
	c.AdvanceTo(testEpoch.Add(14 * time.Second))
	select {
	case <-rt.C():
		t.Fatal("fired before the extended deadline")
	default:
	}
	c.AdvanceTo(testEpoch.Add(15 * time.Second))
	select {
	case <-rt.C():
	default:
		t.Fatal("did not fire at the extended deadline")
	}
	// Extending a deadline that passed does nothing.
	rt.Reset(7, 0, time.Second)
	c.AdvanceTo(testEpoch.Add(20 * time.Second))
	rt.Extend(time.Second)
	if at, ok := c.Next(); ok {
		t.Fatalf("re-armed for %s", at)
	}
	rt.stop()
}

func TestSelectTransactions(t *testing.T) {
	var txs []*transaction.Transaction
	for i := range 10 {
		txs = append(txs, newTx(uint32(i), 10, 200))
	}
	ks := testKeys(t, 4)
	script, _ := smartcontract.CreateDefaultMultiSigRedeemScript(pubsOf(ks))
	ws := witnessSize(3, script)
	// The witness neo-go reserves: 3 signature pushes and the script.
	if w := (transaction.Witness{InvocationScript: make([]byte, 3*66), VerificationScript: script}); w.Size() != ws {
		t.Fatalf("witness size %d, want %d", ws, w.Size())
	}
	full := &block.Block{Transactions: txs}
	full.Witness = transaction.Witness{InvocationScript: make([]byte, 3*66), VerificationScript: script}
	fullSize := full.Size()
	cases := []struct {
		name string
		l    blockLimits
		want int
	}{
		{"all", blockLimits{512, 1 << 20, 1 << 40, ws, 0}, 10},
		{"count", blockLimits{4, 1 << 20, 1 << 40, ws, 0}, 4},
		{"size exact", blockLimits{512, fullSize, 1 << 40, ws, 0}, 10},
		{"size one short", blockLimits{512, fullSize - 1, 1 << 40, ws, 0}, 9},
		{"fee exact", blockLimits{512, 1 << 20, 100, ws, 0}, 10},
		{"fee", blockLimits{512, 1 << 20, 35, ws, 0}, 3},
		{"nothing fits", blockLimits{512, 100, 1 << 40, ws, 0}, 0},
	}
	for _, c := range cases {
		if got := selectTransactions(txs, c.l); len(got) != c.want {
			t.Errorf("%s: %d transactions, want %d", c.name, len(got), c.want)
		}
	}
}

// TestRecoveredChangeViewReasons: a ChangeView rebuilt from a recovery
// message keeps its original reason, found by trying them.
func TestRecoveredChangeViewReasons(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	s := c.nodes[0].s
	vals := pubsOf(c.keys)
	rm := &message.RecoveryMessage{}
	reasons := map[uint8]message.ChangeViewReason{1: message.CVChangeAgreement, 2: message.CVTxInvalid, 3: message.CVBlockRejectedByPolicy}
	want := map[uint8]Hash{}
	for i, r := range reasons {
		cv := &message.ChangeView{Timestamp: 1000 + uint64(i), Reason: r, HasRejectedHashes: r.HasHashes()}
		p := message.NewPayload(&message.Message{BlockIndex: 1, ValidatorIndex: i, Body: cv}, vals[i].ScriptHash())
		p.Sign(testMagic, c.keys[i])
		rm.AddPayload(p)
		want[i] = p.Hash()
	}
	// One with a forged signature.
	bad := message.NewPayload(&message.Message{BlockIndex: 1, ValidatorIndex: 0, Body: &message.ChangeView{}}, vals[0].ScriptHash())
	bad.Sign(testMagic, c.keys[1])
	rm.AddPayload(bad)

	rec := message.NewPayload(&message.Message{BlockIndex: 1, ValidatorIndex: 1, ViewNumber: 1, Body: rm}, vals[1].ScriptHash())
	d := s.wrap(rec)
	dvals := make([]dbft.PublicKey, len(vals))
	for i, v := range vals {
		dvals[i] = v
	}
	got := d.GetRecoveryMessage().GetChangeViews(d, dvals)
	if len(got) != len(reasons) {
		t.Fatalf("rebuilt %d change views, want %d", len(got), len(reasons))
	}
	for _, g := range got {
		i := uint8(g.ValidatorIndex())
		if g.Hash() != want[i] || g.GetChangeView().Reason() != dbft.ChangeViewReason(reasons[i]) {
			t.Fatalf("validator %d: reason %s", i, g.GetChangeView().Reason())
		}
	}
}

package bench

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/bench/procstat"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

var neoToken, _ = hash.Uint160DecodeStringLE("ef4073a0f2b305a38ec4050e4d3d28bc40ea63f5")

func testParams(count int) Params {
	return Params{
		Magic: 56753, Token: neoToken, SenderWIF: DefaultSenderWIF, Amount: 1, Count: count,
		ValidUntilBlock: DefaultValidUntilBlock, SystemFee: DefaultSystemFee, NetworkFee: DefaultNetworkFee,
	}
}

// verifyWorkload decodes every transaction and checks its fields and witness.
func verifyWorkload(t *testing.T, w *Workload) {
	t.Helper()
	k, _ := keys.NewPrivateKeyFromWIF(w.Params.SenderWIF)
	seen := make(map[hash.Uint256]bool, w.Len())
	for i := range w.Len() {
		tx, err := transaction.NewTransactionFromBytes(w.Tx(i))
		if err != nil {
			t.Fatalf("tx %d: %v", i, err)
		}
		if tx.Nonce != uint32(i) || tx.SystemFee != w.Params.SystemFee || tx.NetworkFee != w.Params.NetworkFee ||
			tx.ValidUntilBlock != w.Params.ValidUntilBlock || len(tx.Signers) != 1 ||
			tx.Signers[0].Account != w.Sender || tx.Signers[0].Scopes != transaction.CalledByEntry {
			t.Fatalf("tx %d: unexpected fields %+v", i, tx)
		}
		sig, ok := smartcontract.ParseSignatureInvocation(tx.Witnesses[0].InvocationScript)
		if !ok {
			t.Fatalf("tx %d: invocation script %x", i, tx.Witnesses[0].InvocationScript)
		}
		sd := tx.SignData(w.Params.Magic)
		if !k.PublicKey().VerifyMessage(sig, sd[:]) {
			t.Fatalf("tx %d: signature does not verify", i)
		}
		if seen[tx.Hash()] {
			t.Fatalf("tx %d: duplicate hash", i)
		}
		seen[tx.Hash()] = true
	}
}

func TestWorkloadCache(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := testParams(3000) // several generator chunks
	w1, cached, path, err := LoadOrGenerate(ctx, dir, p, nil)
	if err != nil || cached {
		t.Fatalf("first: cached=%v err=%v", cached, err)
	}
	verifyWorkload(t, w1)
	w2, cached, path2, err := LoadOrGenerate(ctx, dir, p, nil)
	if err != nil || !cached || path2 != path {
		t.Fatalf("second: cached=%v path %s/%s err=%v", cached, path, path2, err)
	}
	if string(w1.data) != string(w2.data) || w2.TxSize != w1.TxSize || w2.Sender != w1.Sender {
		t.Fatal("cached workload differs")
	}
	// Generation is deterministic: a fresh one is byte-identical.
	w3, err := Generate(ctx, p, nil)
	if err != nil || string(w3.data) != string(w1.data) {
		t.Fatalf("regenerated workload differs (err %v)", err)
	}
	// Every parameter selects another file.
	other := []func(*Params){
		func(p *Params) { p.Magic++ }, func(p *Params) { p.Token[0]++ }, func(p *Params) { p.To[0]++ },
		func(p *Params) { p.Amount++ }, func(p *Params) { p.Count++ }, func(p *Params) { p.ValidUntilBlock++ },
		func(p *Params) { p.SystemFee++ }, func(p *Params) { p.NetworkFee++ },
		func(p *Params) { p.SenderWIF = SingleNodeWIFs[0] },
	}
	for i, change := range other {
		q := p
		change(&q)
		if pq, _ := CachePath(dir, q); pq == path {
			t.Errorf("change %d keeps the cache file", i)
		}
		if _, err := ReadCache(path, q); !errors.Is(err, ErrCacheFile) {
			t.Errorf("change %d: reading the old file: %v", i, err)
		}
	}
	// A damaged file is detected and regenerated.
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 1
	os.WriteFile(path, data, 0o644)
	if _, err := ReadCache(path, p); !errors.Is(err, ErrCacheFile) {
		t.Fatalf("damaged file: %v", err)
	}
	w4, cached, _, err := LoadOrGenerate(ctx, dir, p, nil)
	if err != nil || cached || string(w4.data) != string(w1.data) {
		t.Fatalf("regeneration after damage: cached=%v err=%v", cached, err)
	}
	os.WriteFile(path, data[:100], 0o644)
	if _, err := ReadCache(path, p); !errors.Is(err, ErrCacheFile) {
		t.Fatalf("short file: %v", err)
	}
}

func TestGenerateErrors(t *testing.T) {
	ctx := context.Background()
	for _, p := range []Params{
		{Count: 0, SenderWIF: DefaultSenderWIF, ValidUntilBlock: 1},
		{Count: 1, SenderWIF: "bad", ValidUntilBlock: 1},
		{Count: 1, SenderWIF: DefaultSenderWIF, ValidUntilBlock: 0},
		{Count: 1, SenderWIF: DefaultSenderWIF, ValidUntilBlock: 1, SystemFee: -1},
	} {
		if _, err := Generate(ctx, p, nil); !errors.Is(err, ErrParams) {
			t.Errorf("%+v: %v", p, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Generate(cctx, testParams(5000), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestBodies(t *testing.T) {
	w, err := Generate(context.Background(), testParams(5), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := EncodeBodies(w)
	for i := range w.Len() {
		var req struct {
			JSONRPC, Method string
			Params          []string
			ID              int
		}
		if err := json.Unmarshal(b.Body(i), &req); err != nil {
			t.Fatal(err)
		}
		raw, _ := base64.StdEncoding.DecodeString(req.Params[0])
		if req.JSONRPC != "2.0" || req.Method != "sendrawtransaction" || string(raw) != string(w.Tx(i)) {
			t.Fatalf("body %d: %s", i, b.Body(i))
		}
	}
}

// TestCommitteeKeys checks the built-in committee keys against the
// embedded neo-go privnet wallets: wallet1_solo.json's single key and the
// 3-of-4 multisig account of wallet1..4.json.
func TestCommitteeKeys(t *testing.T) {
	wallet := func(name string) string {
		b, err := config.EmbeddedWallet(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct {
		wifs   []string
		wallet string
	}{{SingleNodeWIFs, "wallet1_solo.json"}, {FourNodeWIFs, "wallet1.json"}} {
		m, err := NewMultisig(c.wifs)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(wallet(c.wallet), base64.StdEncoding.EncodeToString(m.Script)) {
			t.Errorf("%s lacks the multisig script of %d keys", c.wallet, len(c.wifs))
		}
		if want := map[int]int{1: 1, 4: 3}[len(c.wifs)]; m.M != want {
			t.Errorf("%d keys: m = %d", len(c.wifs), m.M)
		}
	}
	// Each 4-node key is the single-signature account of one of wallet1..4.
	found := make(map[string]bool)
	for i, wif := range FourNodeWIFs {
		k, _ := keys.NewPrivateKeyFromWIF(wif)
		script := base64.StdEncoding.EncodeToString(k.PublicKey().VerificationScript())
		for _, name := range []string{"wallet1.json", "wallet2.json", "wallet3.json", "wallet4.json"} {
			if strings.Contains(wallet(name), `"script": "`+script+`"`) {
				found[name] = true
			}
		}
		if len(found) != i+1 {
			t.Errorf("WIF %d is not the account of a privnet wallet", i)
		}
	}
	if CommitteeWIFs(7) != nil || len(CommitteeWIFs(4)) != 4 {
		t.Error("CommitteeWIFs")
	}
}

// TestMultisigSignature checks that a 3-of-4 witness verifies in key order.
func TestMultisigSignature(t *testing.T) {
	m, err := NewMultisig(FourNodeWIFs)
	if err != nil {
		t.Fatal(err)
	}
	tx := transaction.New([]byte{0x11}, 1, 0, 0, 10)
	tx.Signers = []transaction.Signer{{Account: m.Account, Scopes: transaction.CalledByEntry}}
	m.Sign(tx, 42)
	mm, pubs, ok := smartcontract.ParseMultiSigContract(tx.Witnesses[0].VerificationScript)
	sigs, ok2 := smartcontract.ParseMultiSigInvocation(mm, tx.Witnesses[0].InvocationScript)
	if !ok || !ok2 || mm != 3 {
		t.Fatalf("witness does not parse: %v %v %d", ok, ok2, mm)
	}
	sd := tx.SignData(42)
	// C# CheckMultisig walks keys and signatures in order.
	j := 0
	for _, s := range sigs {
		for j < len(pubs) && !pubs[j].VerifyMessage(s, sd[:]) {
			j++
		}
		if j == len(pubs) {
			t.Fatal("signatures not in key order")
		}
		j++
	}
}

func TestComputeTPS(t *testing.T) {
	bs := func(ts []uint64, txs []int) []BlockStat {
		out := make([]BlockStat, len(ts))
		for i := range ts {
			out[i] = BlockStat{Index: uint32(10 + i), Timestamp: ts[i], Txs: txs[i]}
		}
		return out
	}
	// Reference block 10 (with stray txs: not counted), two empty blocks,
	// load in 13..17 with an empty 15, then empty 18, 19.
	blocks := bs(
		[]uint64{1000, 2000, 3000, 4010, 5020, 6000, 7500, 8000, 9000, 10000},
		[]int{99, 0, 0, 500, 700, 0, 900, 100, 0, 0},
	)
	got, ok := ComputeTPS(blocks)
	if !ok {
		t.Fatal("no TPS")
	}
	want := TPS{TPS: 2200.0 * 1000 / 5000, Txs: 2200, WindowMS: 5000, StartBlock: 12, FirstBlock: 13, LastBlock: 17,
		StartMS: 3000, EndMS: 8000, MaxBlockTxs: 900}
	if got != want {
		t.Fatalf("ComputeTPS = %+v\nwant %+v", got, want)
	}
	// neo-bench's way: Σ txs / Σ per-block deltas over the same blocks.
	var sumTx, sumDT float64
	for i := 3; i <= 7; i++ {
		sumTx += float64(blocks[i].Txs)
		sumDT += float64(blocks[i].Timestamp - blocks[i-1].Timestamp)
	}
	if math.Abs(sumTx*1000/sumDT-got.TPS) > 1e-9 {
		t.Fatalf("differs from the per-delta sum: %v vs %v", sumTx*1000/sumDT, got.TPS)
	}
	per := PerBlockTPS(blocks, got)
	if len(per) != 5 || per[0].Index != 13 || per[0].Seconds != 1.01 || math.Abs(per[0].TPS-500*1000/1010.0) > 1e-9 ||
		per[2].TPS != 0 || per[4].Seconds != 5 || per[4].TPS != 200 {
		t.Fatalf("PerBlockTPS = %+v", per)
	}
	if _, ok := ComputeTPS(bs([]uint64{1, 2, 3}, []int{5, 0, 0})); ok {
		t.Error("TPS without load blocks")
	}
	if _, ok := ComputeTPS(bs([]uint64{5, 5}, []int{0, 3})); ok {
		t.Error("TPS over an empty window")
	}
	if _, ok := ComputeTPS(nil); ok {
		t.Error("TPS of nothing")
	}
	// Phases: 2 blocks of 100 txs in (0, 20 s], none later.
	long := bs([]uint64{0, 1000, 10_000, 20_000, 70_000, 130_000}, []int{0, 0, 100, 100, 0, 0})
	long[5].Txs = 30 // keep the window to 129 s
	lt, _ := ComputeTPS(long)
	if e, ok := PhaseTPS(long, lt, 0, 20); !ok || e != 200.0*1000/19_000 {
		t.Errorf("early phase %v %v", e, ok)
	}
	if l, ok := PhaseTPS(long, lt, 60, 120); !ok || l != 0 {
		t.Errorf("late phase %v %v", l, ok)
	}
	if _, ok := PhaseTPS(blocks, got, 0, 20); ok {
		t.Error("phase beyond a 5 s window")
	}
	if RPS(500, 2000) != 250 || RPS(5, 0) != 0 {
		t.Error("RPS")
	}
}

func TestSummarizeSamples(t *testing.T) {
	s := []procstat.Sample{
		{UnixMilli: 900, CPU: 99, RSS: 1 * mib, SelfCPU: 50, HostBusy: 100}, // before the window
		{UnixMilli: 1000, CPU: 60, RSS: 100 * mib, SelfCPU: 10, HostBusy: 80},
		{UnixMilli: 2000, CPU: 80, RSS: 200 * mib, SelfCPU: 20, HostBusy: 90},
		{UnixMilli: 3001, CPU: 1, RSS: 1 * mib}, // after
	}
	r := SummarizeSamples(s, 1000, 3000)
	want := Resources{Samples: 2, CPUMean: 70, CPUMax: 80, RSSMeanMiB: 150, RSSMaxMiB: 200, ClientCPU: 15, HostBusyMean: 85, OtherCPU: 0, Window: "tps"}
	if r != want {
		t.Fatalf("SummarizeSamples = %+v", r)
	}
	if r := SummarizeSamples(s, 5000, 6000); r.Window != "all" || r.Samples != 4 {
		t.Fatalf("outside the window: %+v", r)
	}
	if r := SummarizeSamples(nil, 0, 1); r.Samples != 0 {
		t.Fatal("no samples")
	}
}

func TestStatAndComparison(t *testing.T) {
	if s := NewStat([]float64{5, 1, 3}); s.Median != 3 || s.Min != 1 || s.Max != 5 {
		t.Fatalf("odd: %+v", s)
	}
	if s := NewStat([]float64{4, 1, 3, 10}); s.Median != 3.5 {
		t.Fatalf("even: %+v", s)
	}
	mk := func(tps, cpu float64) *Result {
		r := &Result{RPS: tps}
		r.TPS.TPS = tps
		r.Resources = Resources{Samples: 1, CPUMean: cpu, RSSMeanMiB: 100, RSSMaxMiB: 120}
		return r
	}
	a := Summarize("neo-go", []*Result{mk(5000, 70), mk(5200, 72), mk(4000, 75)})
	b := Summarize("n3node", []*Result{mk(10400, 60)})
	var sb strings.Builder
	WriteComparison(&sb, a, b)
	out := sb.String()
	for _, want := range []string{"| TPS | 5000 (4000 … 5200) | 10400 (10400 … 10400) | 2.08 |", "| node CPU, % of the host | 72.0 (70.0 … 75.0) | 60.0 (60.0 … 60.0) | 0.83 |",
		"| TPS per % of node CPU | 71 (53 … 72) | 173 (173 … 173) | 2.43 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %q:\n%s", want, out)
		}
	}
}

func TestClassify(t *testing.T) {
	for body, want := range map[string]outcome{
		`{"jsonrpc":"2.0","id":1,"result":{"hash":"0x01"}}`:                                                        outAccepted,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-502,"message":"Mempool capacity reached"}}`:                      outMempoolFull,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-500,"message":"Verification failed","data":"OutOfMemory pool"}}`: outMempoolFull,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-501,"message":"Already exists"}}`:                                outError,
		`{"jsonrpc":"2.0","id":1,"result":null}`:                                                                   outError,
		`<html>`:                                                                                                   outError,
	} {
		if got, msg := classify([]byte(body)); got != want {
			t.Errorf("%s: %v %q, want %v", body, got, msg, want)
		}
	}
}

func TestQueue(t *testing.T) {
	q := &queue{n: 3}
	var got []int
	i, _ := q.take()
	got = append(got, i)
	q.put(i) // mempool full: back first
	for {
		i, ok := q.take()
		if !ok {
			break
		}
		got = append(got, i)
	}
	if len(got) != 4 || got[0] != 0 || got[1] != 0 || got[2] != 1 || got[3] != 2 {
		t.Fatalf("order %v", got)
	}
	if _, ok := q.take(); ok {
		t.Fatal("exhausted queue handed out an index")
	}
}

func TestReadResponse(t *testing.T) {
	cases := []struct {
		in, body string
		keep     bool
	}{
		{"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello", "hello", true},
		{"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nConnection: close\r\n\r\nhi", "hi", false},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: v\r\n\r\n", "abcde", true},
		{"HTTP/1.0 200 OK\r\n\r\nuntil eof", "until eof", false},
		{"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx", "x", true},
	}
	for _, c := range cases {
		br := bufio.NewReader(strings.NewReader(c.in))
		body, keep, err := readResponse(br, nil)
		if err != nil || string(body) != c.body || keep != c.keep {
			t.Errorf("%q: body %q keep %v err %v", c.in, body, keep, err)
		}
	}
	for _, bad := range []string{"SSH-2.0\r\n", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", "HTTP/1.1 200 OK\r\nbad header\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"} {
		if _, _, err := readResponse(bufio.NewReader(strings.NewReader(bad)), nil); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzReadResponse(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		readResponse(bufio.NewReader(strings.NewReader(string(data))), nil)
		classify(data)
	})
}

func TestWriteOutputsWithoutSamples(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := &Result{Description: "x"}
	r.Blocks = []BlockStat{{Index: 1, Timestamp: 1000}, {Index: 2, Timestamp: 2000, Txs: 10}}
	r.TPS, _ = ComputeTPS(r.Blocks)
	r.PerBlock = PerBlockTPS(r.Blocks, r.TPS)
	if err := WriteOutputs(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ResultFile, SummaryFile, TPSPlotFile} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ResourcesFile)); err == nil {
		t.Error("resource plot without samples")
	}
	back, err := ReadResult(filepath.Join(dir, ResultFile))
	if err != nil || back.TPS != r.TPS {
		t.Fatalf("ReadResult: %v %+v", err, back)
	}
}

func BenchmarkGenerate(b *testing.B) {
	p := testParams(1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Generate(context.Background(), p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeBodies(b *testing.B) {
	w, err := Generate(context.Background(), testParams(1000), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		EncodeBodies(w)
	}
}

func BenchmarkClassify(b *testing.B) {
	ok := []byte(`{"jsonrpc":"2.0","id":1,"result":{"hash":"0x8f45d8fe3c5b1f0b62d1d4a1f00fcd7b1d4ec8a64f32e2dba7a1d6c1b5b8f0a1"}}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if out, _ := classify(ok); out != outAccepted {
			b.Fatal(out)
		}
	}
}

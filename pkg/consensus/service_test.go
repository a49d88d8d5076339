package consensus

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

const tpb = testMsPerBlock * time.Millisecond

func epochMs() uint64 { return uint64(testEpoch.UnixMilli()) }

// checkChain checks what the fake chain does not: NextConsensus is the
// validators' BFT address and the witness has M signatures.
func checkChain(t *testing.T, c *cluster, blocks []*block.Block) {
	t.Helper()
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubsOf(c.keys))
	if err != nil {
		t.Fatal(err)
	}
	m := smartcontract.GetDefaultHonestNodeCount(len(c.keys))
	for _, b := range blocks[1:] {
		if b.NextConsensus != hash.Hash160(script) {
			t.Fatalf("block %d: NextConsensus", b.Index)
		}
		if len(b.Witness.InvocationScript) != m*smartcontract.SignatureInvocationSize {
			t.Fatalf("block %d: %d-byte invocation script", b.Index, len(b.Witness.InvocationScript))
		}
	}
}

func TestSingleValidatorOnTime(t *testing.T) {
	c := newCluster(t, 1, testConfig(1))
	nd := c.nodes[0]
	var txs []*transaction.Transaction
	for i := range 10 {
		txs = append(txs, newTx(uint32(i), 100, 300))
	}
	nd.pool.Add(txs...)
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 6 })

	blocks := nd.chain.Blocks()
	checkChain(t, c, blocks)
	// The first block right away (nothing was produced for a long
	// time), then one every TimePerBlock exactly.
	for i, b := range blocks[1:] {
		if want := epochMs() + uint64(i)*testMsPerBlock; b.Timestamp != want {
			t.Errorf("block %d at %d, want %d", b.Index, b.Timestamp, want)
		}
		if b.PrimaryIndex != 0 {
			t.Errorf("block %d: primary %d", b.Index, b.PrimaryIndex)
		}
	}
	if !slices.Equal(blocks[1].Transactions, txs) {
		t.Fatalf("block 1 has %d transactions, want the 10 pooled", len(blocks[1].Transactions))
	}
	for _, b := range blocks[2:] {
		if len(b.Transactions) != 0 {
			t.Fatalf("block %d has transactions", b.Index)
		}
	}
	if nd.pool.Len() != 0 {
		t.Fatal("pool not emptied")
	}
	if got := c.clock.Now().Sub(testEpoch); got != 5*tpb {
		t.Fatalf("6 blocks took %s", got)
	}
}

// TestSingleValidatorLimits: proposals take the best pooled transactions
// up to each block limit, and no more.
func TestSingleValidatorLimits(t *testing.T) {
	cases := []struct {
		name   string
		maxTx  uint16
		size   uint32
		sysFee int64
		txs    int
		txSize int
		fee    int64
	}{
		{"count", 7, 262144, 1 << 40, 20, 250, 1},
		{"size", 512, 5000, 1 << 40, 20, 1000, 1},
		{"system fee", 512, 262144, 1000, 20, 250, 300},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(1)
			cfg.MaxTransactionsPerBlock = tc.maxTx
			cfg.MaxBlockSize = tc.size
			cfg.MaxBlockSystemFee = tc.sysFee
			c := newCluster(t, 1, cfg)
			nd := c.nodes[0]
			var txs []*transaction.Transaction
			for i := range tc.txs {
				txs = append(txs, newTx(uint32(i), tc.fee, tc.txSize))
			}
			nd.pool.Add(txs...)
			c.start()
			c.runUntil(time.Hour, func() bool { return nd.pool.Len() == 0 })
			blocks := nd.chain.Blocks()
			checkChain(t, c, blocks)
			var got []*transaction.Transaction
			for _, b := range blocks[1:] {
				if len(b.Transactions) == 0 {
					t.Fatalf("block %d is empty with transactions pooled", b.Index)
				}
				got = append(got, b.Transactions...)
				// Maximal: the next transaction would not have fit.
				if len(got) < len(txs) {
					next := txs[len(got)]
					bigger := *b
					bigger.Transactions = append(slices.Clone(b.Transactions), next)
					var fee int64
					for _, tx := range bigger.Transactions {
						fee += tx.SystemFee
					}
					if len(bigger.Transactions) <= int(tc.maxTx) && bigger.Size() <= int(tc.size) && fee <= tc.sysFee {
						t.Fatalf("block %d (%d txs, %d bytes) could have taken one more", b.Index, len(b.Transactions), b.Size())
					}
				}
			}
			if !slices.Equal(got, txs) {
				t.Fatal("transactions not included in pool order")
			}
			if len(blocks) < 3 {
				t.Fatalf("limits did not split the pool: %d blocks", len(blocks)-1)
			}
		})
	}
}

func sameChains(t *testing.T, c *cluster) []*block.Block {
	t.Helper()
	var ref []*block.Block
	for _, nd := range c.nodes {
		if !nd.up {
			continue
		}
		bs := nd.chain.Blocks()
		if ref == nil {
			ref = bs
			continue
		}
		n := min(len(ref), len(bs))
		for i := range n {
			if ref[i].Hash() != bs[i].Hash() {
				t.Fatalf("chains differ at %d", i)
			}
		}
	}
	return ref
}

func TestFourValidators(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	var txs []*transaction.Transaction
	for i := range 30 {
		txs = append(txs, newTx(uint32(i), 100, 300))
	}
	for _, nd := range c.nodes {
		nd.pool.Add(txs...)
	}
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 8 })
	blocks := sameChains(t, c)
	checkChain(t, c, blocks)
	if !slices.Equal(blocks[1].Transactions, txs) {
		t.Fatalf("block 1 has %d transactions", len(blocks[1].Transactions))
	}
	for _, b := range blocks[1:] {
		if want := message.PrimaryIndex(b.Index, 0, 4); b.PrimaryIndex != want {
			t.Fatalf("block %d by %d, want %d (view 0)", b.Index, b.PrimaryIndex, want)
		}
	}
	for i := 2; i < len(blocks); i++ {
		if d := blocks[i].Timestamp - blocks[i-1].Timestamp; d != testMsPerBlock {
			t.Errorf("block %d %d ms after the previous one", i, d)
		}
	}
	if c.sent[message.ChangeViewType] != 0 {
		t.Fatalf("%d change views without a fault", c.sent[message.ChangeViewType])
	}
}

// TestFourValidatorsFetchTransactions: only the primary has the
// transactions; the others ask for them and then agree.
func TestFourValidatorsFetchTransactions(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	primary := c.nodes[message.PrimaryIndex(1, 0, 4)]
	var txs []*transaction.Transaction
	for i := range 5 {
		txs = append(txs, newTx(uint32(i), 100, 300))
	}
	primary.pool.Add(txs...)
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 1 })
	blocks := sameChains(t, c)
	if !slices.Equal(blocks[1].Transactions, txs) {
		t.Fatalf("block 1 has %d transactions", len(blocks[1].Transactions))
	}
	if c.sent[message.ChangeViewType] != 0 {
		t.Fatal("view changed")
	}
}

// TestPrimaryDown: with one validator stopped, the other three keep
// committing; each height whose view-0 primary is the stopped one needs a
// view change.
func TestPrimaryDown(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	down := int(message.PrimaryIndex(1, 0, 4))
	c.stop(down)
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 6 })
	blocks := sameChains(t, c)
	checkChain(t, c, blocks)
	changed := 0
	for _, b := range blocks[1:] {
		if int(b.PrimaryIndex) == down {
			t.Fatalf("block %d by the stopped validator", b.Index)
		}
		if b.PrimaryIndex != message.PrimaryIndex(b.Index, 0, 4) {
			changed++
			if b.PrimaryIndex != message.PrimaryIndex(b.Index, 1, 4) {
				t.Fatalf("block %d by %d, not the view 1 primary", b.Index, b.PrimaryIndex)
			}
		}
	}
	if changed == 0 || c.sent[message.ChangeViewType] == 0 {
		t.Fatal("no view change")
	}
}

// TestBackupDown: a stopped backup costs nothing.
func TestBackupDown(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	c.stop(int(message.PrimaryIndex(3, 0, 4))) // primary of height 3 only
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 2 })
	if c.sent[message.ChangeViewType] != 0 {
		t.Fatal("view changed")
	}
	if got := c.clock.Now().Sub(testEpoch); got != tpb {
		t.Fatalf("2 blocks took %s", got)
	}
}

// TestRecovery: two validators are stopped, the two others cannot agree.
// One stopped validator restarts with no consensus state; the recovery
// messages of the others bring it into their round and the three commit.
func TestRecovery(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	c.stop(2)
	c.stop(3)
	c.start()
	c.runUntil(10*time.Minute, func() bool { return c.clock.Now().Sub(testEpoch) >= 2*time.Minute })
	if c.height() != 0 {
		t.Fatal("two validators made a block")
	}
	c.restart(3, 0)
	c.runUntil(time.Hour, func() bool { return c.height() >= 3 })
	blocks := sameChains(t, c)
	checkChain(t, c, blocks)
	if c.nodes[3].s.recovered.Load() == 0 {
		t.Fatal("the restarted validator used no recovery message")
	}
	if c.sent[message.RecoveryMessageType] == 0 {
		t.Fatal("no recovery message sent")
	}
}

// TestPrimaryRestartsInItsRound (simulator seed 41): the primary of
// block 2 proposes, two backups commit to its block, then it restarts with
// no consensus state while the third backup saw nothing. The restarted
// primary must not propose a second block in that view (the two locked
// backups could then never agree with the other two): it asks for
// recovery first and the block it proposed before is agreed.
func TestPrimaryRestartsInItsRound(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 1 })
	p := int(message.PrimaryIndex(2, 0, 4))
	backup, blind := (p+1)%4, (p+3)%4
	c.drop = func(_, to int, _ *message.Message) bool { return to == p || to == blind }
	commits := c.sent[message.CommitType]
	c.runUntil(time.Minute, func() bool { return c.sent[message.CommitType] >= commits+2 })
	c.stop(p)
	for c.step() {
	}
	if c.height() != 1 {
		t.Fatal("block 2 made without the primary")
	}
	c.drop = nil
	c.restart(p, backup)
	c.runUntil(time.Hour, func() bool { return c.height() >= 3 })
	blocks := sameChains(t, c)
	checkChain(t, c, blocks)
	if blocks[2].PrimaryIndex != uint8(p) {
		t.Fatalf("block 2 by %d after a view change, want the restarted primary's first proposal", blocks[2].PrimaryIndex)
	}
}

// TestCatchUpAfterBlocks: a validator that was down while blocks were made
// restarts at the chain's height (synced) and takes part again.
func TestCatchUpAfterBlocks(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	c.stop(0)
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 3 })
	c.restart(0, 1)
	c.stop(1)
	c.runUntil(time.Hour, func() bool { return c.height() >= 7 })
	blocks := sameChains(t, c)
	checkChain(t, c, blocks)
}

// signedPayload builds a payload for node from as key signs it.
func signedPayload(m *message.Message, sender hash.Uint160, key *keys.PrivateKey) *message.Extensible {
	p := message.NewPayload(m, sender)
	p.Sign(testMagic, key)
	e := p.Extensible
	return &e
}

// TestForeignPayloads: payloads that a non-validator sent, or that carry a
// wrong signature, never reach dbft.
func TestForeignPayloads(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	primary := int(message.PrimaryIndex(1, 0, 4))
	c.stop(primary) // so only forged requests exist
	c.start()
	backup := c.nodes[(primary+1)%4]
	outsiderSeed := [32]byte{1, 2, 3}
	outsider, err := keys.NewPrivateKeyFromBytes(outsiderSeed[:])
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(c.keys, func(k *keys.PrivateKey) bool { return k.PublicKey().Equal(outsider.PublicKey()) }) {
		t.Fatal("outsider is a validator")
	}
	req := func() *message.Message {
		return &message.Message{BlockIndex: 1, ValidatorIndex: uint8(primary), Body: &message.PrepareRequest{
			PrevHash: backup.chain.CurrentBlockHash(), Timestamp: epochMs(), TransactionHashes: []hash.Uint256{},
		}}
	}
	primaryKey := c.keys[primary]
	other := c.keys[(primary+2)%4]

	badSig := signedPayload(req(), primaryKey.ScriptHash(), primaryKey)
	badSig.Witness.InvocationScript[10] ^= 1
	otherCategory := signedPayload(req(), primaryKey.ScriptHash(), primaryKey)
	otherCategory.Category = "StateService"
	garbage := signedPayload(req(), primaryKey.ScriptHash(), primaryKey)
	garbage.Data = []byte{0x20, 1, 2}
	old := req()
	old.BlockIndex = 0
	bigIndex := req()
	bigIndex.ValidatorIndex = 4

	cases := []struct {
		name string
		e    *message.Extensible
		err  error
	}{
		{"non-validator", signedPayload(req(), outsider.ScriptHash(), outsider), ErrNotValidator},
		{"non-validator posing", signedPayload(req(), primaryKey.ScriptHash(), outsider), ErrNotValidator},
		{"other validator's key", signedPayload(req(), other.ScriptHash(), other), ErrNotValidator},
		{"bad signature", badSig, ErrNotValidator},
		{"validator index out of range", signedPayload(bigIndex, primaryKey.ScriptHash(), primaryKey), ErrNotValidator},
		{"other category", otherCategory, ErrInvalidPayload},
		{"malformed", garbage, ErrInvalidPayload},
		{"persisted height", signedPayload(old, primaryKey.ScriptHash(), primaryKey), ErrOutdated},
	}
	for _, tc := range cases {
		err := c.receive(backup, tc.e)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.err)
		}
		// Through OnPayload too (the Service is not running: the
		// checks come first).
		if err := backup.s.OnPayload(tc.e); !errors.Is(err, tc.err) {
			t.Errorf("%s: OnPayload: %v", tc.name, err)
		}
	}
	for c.step() {
	}
	if c.sent[message.PrepareResponseType] != 0 {
		t.Fatal("a backup answered a forged request")
	}
	// The genuine request is answered.
	if err := c.receive(backup, signedPayload(req(), primaryKey.ScriptHash(), primaryKey)); err != nil {
		t.Fatal(err)
	}
	if c.sent[message.PrepareResponseType] != 1 {
		t.Fatal("no answer to the genuine request")
	}
}

// TestMaxTimePerBlock: with MaxTimePerBlock set, an idle network waits for
// it, and a transaction entering the pool makes the block at once.
func TestMaxTimePerBlock(t *testing.T) {
	cfg := testConfig(1)
	cfg.MaxTimePerBlock = 4 * tpb
	c := newCluster(t, 1, cfg)
	nd := c.nodes[0]
	c.start() // block 1 at once, forced
	c.runUntil(time.Hour, func() bool { return c.height() >= 2 })
	blocks := nd.chain.Blocks()
	if d := blocks[2].Timestamp - blocks[1].Timestamp; d != uint64(cfg.MaxTimePerBlock.Milliseconds()) {
		t.Fatalf("empty block after %d ms", d)
	}
	// Wait past TimePerBlock, then a transaction arrives.
	c.runUntil(time.Hour, func() bool { return c.clock.Now().Sub(testEpoch) >= cfg.MaxTimePerBlock+2*tpb })
	tx := newTx(1, 100, 300)
	nd.pool.Add(tx)
	at := c.clock.Now()
	c.runUntil(time.Hour, func() bool { return c.height() >= 3 })
	b := nd.chain.Blocks()[3]
	if b.Timestamp != uint64(at.UnixMilli()) || !slices.Equal(b.Transactions, []*transaction.Transaction{tx}) {
		t.Fatalf("block 3 at %d with %d txs, want at %d with the new one", b.Timestamp, len(b.Transactions), at.UnixMilli())
	}
}

// TestInvalidProposal: a proposal with a transaction the backups refuse
// makes them change view (TxInvalid, naming it); a later primary proposes
// without it once it is gone from the pools.
func TestInvalidProposal(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	bad := newTx(1, 100, 300)
	primary := c.nodes[message.PrimaryIndex(1, 0, 4)]
	primary.pool.Add(bad)
	for _, nd := range c.nodes {
		if nd != primary {
			nd.chain.invalid[bad.Hash()] = true
		}
	}
	var rejected []hash.Uint256
	c.drop = func(from, to int, m *message.Message) bool {
		if cv := m.ChangeView(); cv != nil && cv.Reason == message.CVTxInvalid {
			rejected = cv.RejectedHashes
		}
		return false
	}
	c.start()
	c.runUntil(time.Hour, func() bool { return rejected != nil })
	if !slices.Equal(rejected, []hash.Uint256{bad.Hash()}) {
		t.Fatalf("rejected hashes %v", rejected)
	}
	for _, nd := range c.nodes { // it reached the backups' pools through RequestTx
		nd.pool.Remove([]*transaction.Transaction{bad})
	}
	c.runUntil(time.Hour, func() bool { return c.height() >= 1 })
	if b := sameChains(t, c)[1]; len(b.Transactions) != 0 {
		t.Fatal("the invalid transaction got in")
	}
}

// TestServiceLoop runs one validator through Start, its event loop and
// Shutdown (goleak checks that nothing is left running).
func TestServiceLoop(t *testing.T) {
	clock := newFakeClock()
	ks := testKeys(t, 1)
	pool := &fakePool{}
	chain := newFakeChain(t, testConfig(1), pubsOf(ks), pool)
	type added struct {
		b   *block.Block
		seq uint64 // timers created before the block was persisted
	}
	blocks := make(chan added, 16)
	var s *Service
	chain.onAdd = func(b *block.Block) {
		s.OnNewBlock(&b.Header)
		blocks <- added{b, clock.Seq()}
	}
	net := &nullNet{}
	var err error
	s, err = New(Config{Ledger: chain, Mempool: pool, Broadcaster: net, Keys: ks, Clock: clock, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	timeout := time.After(30 * time.Second)
	wait := func() added {
		select {
		case a := <-blocks:
			return a
		case <-timeout:
			t.Fatal("no block")
			return added{}
		}
	}
	pool.Add(newTx(1, 1, 300))
	s.Start()
	s.Start() // no-op
	a := wait()
	if a.b.Index != 1 || len(a.b.Transactions) != 1 {
		t.Fatalf("block %d with %d txs", a.b.Index, len(a.b.Transactions))
	}
	for i := uint32(2); i <= 4; i++ {
		// The loop arms the timer for the next height when it handles
		// the block, after the ledger persisted it.
		at, ok := clock.WaitTimerAfter(a.seq, timeout)
		if !ok {
			t.Fatal("no timer")
		}
		if want := time.UnixMilli(int64(a.b.Timestamp)).Add(tpb); !at.Equal(want) {
			t.Fatalf("timer at %s, want %s", at, want)
		}
		clock.AdvanceTo(at)
		a = wait()
		if a.b.Index != i || a.b.Timestamp != uint64(at.UnixMilli()) {
			t.Fatalf("block %d at %d, want %d at %d", a.b.Index, a.b.Timestamp, i, at.UnixMilli())
		}
	}
	s.Shutdown()
	s.Shutdown() // no-op
	if err := s.OnPayload(&message.Extensible{Category: message.Category}); err == nil {
		t.Fatal("empty payload accepted")
	}
	s.OnTransaction(newTx(2, 1, 300)) // does not block
	if net.sent == 0 {
		t.Fatal("nothing broadcast")
	}
}

func TestNewErrors(t *testing.T) {
	pool := &fakePool{}
	ks := testKeys(t, 1)
	if _, err := New(Config{}); !errors.Is(err, ErrConfig) {
		t.Fatal(err)
	}
	cfg := testConfig(1)
	cfg.StateRootInHeader = true
	if _, err := New(Config{Ledger: newFakeChain(t, cfg, pubsOf(ks), pool), Mempool: pool, Broadcaster: &nullNet{}}); !errors.Is(err, ErrStateRootInHeader) {
		t.Fatal(err)
	}
	chain := newFakeChain(t, testConfig(1), pubsOf(ks), pool)
	chain.validators = nil
	if _, err := New(Config{Ledger: chain, Mempool: pool, Broadcaster: &nullNet{}}); !errors.Is(err, ErrConfig) {
		t.Fatal(err)
	}
}

// TestBlockFromNetwork: a validator that misses the commits of a height
// gets the block from the network (persisted by its chain), moves on and
// proposes at its next turn.
func TestBlockFromNetwork(t *testing.T) {
	c := newCluster(t, 4, testConfig(4))
	const lagging = 3
	c.drop = func(from, to int, m *message.Message) bool {
		return to == lagging && m.Type() == message.CommitType && m.BlockIndex <= 2
	}
	c.start()
	c.runUntil(time.Hour, func() bool { return c.nodes[lagging].s.dbft.BlockIndex == 5 })
	blocks := sameChains(t, c)
	if b := blocks[3]; b.PrimaryIndex != lagging || c.sent[message.ChangeViewType] != 0 {
		t.Fatalf("block 3 by %d after %d change views, want by %d at view 0", b.PrimaryIndex, c.sent[message.ChangeViewType], lagging)
	}
}

// An agreed block the ledger refuses (its database refuses writes) is
// offered again every unaddedRetry until the ledger takes it; a single
// validator has no peer to fetch it from.
func TestAgreedBlockRetried(t *testing.T) {
	c := newCluster(t, 1, testConfig(1))
	nd := c.nodes[0]
	c.start()
	c.runUntil(time.Hour, func() bool { return c.height() >= 2 })
	nd.chain.mu.Lock()
	nd.chain.refuse = 5
	nd.chain.mu.Unlock()
	start := c.clock.Now()
	c.runUntil(time.Hour, func() bool { return c.height() >= 4 })
	if nd.chain.refuse != 0 {
		t.Fatalf("%d refusals left", nd.chain.refuse)
	}
	// Block 3 was refused once by processBlock and four times on retry;
	// the retries do not delay block 4.
	if got := c.clock.Now().Sub(start); got > 2*tpb {
		t.Fatalf("two blocks took %s", got)
	}
	checkChain(t, c, nd.chain.Blocks())
}

package consensus_test

// A mixed network in one process: four validators of the 4-node privnet,
// two of them n3node Services and two neo-go v0.120.0 consensus services
// (MIT), each over its own neo-go Blockchain (which verifies every block,
// witness included, with its VM). Payloads travel as bytes over an
// in-memory bus; blocks are relayed between the chains. The network must
// keep producing blocks, also with one neo-go validator stopped (view
// changes across the two implementations). It runs on the wall clock with
// 200 ms blocks.

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus"
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/wallet"
	ngconfig "github.com/nspcc-dev/neo-go/pkg/config"
	ngconsensus "github.com/nspcc-dev/neo-go/pkg/consensus"
	ngcore "github.com/nspcc-dev/neo-go/pkg/core"
	ngblock "github.com/nspcc-dev/neo-go/pkg/core/block"
	ngfee "github.com/nspcc-dev/neo-go/pkg/core/fee"
	ngmempool "github.com/nspcc-dev/neo-go/pkg/core/mempool"
	ngstorage "github.com/nspcc-dev/neo-go/pkg/core/storage"
	ngtx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	ngkeys "github.com/nspcc-dev/neo-go/pkg/crypto/keys"
	ngio "github.com/nspcc-dev/neo-go/pkg/io"
	ngpayload "github.com/nspcc-dev/neo-go/pkg/network/payload"
	ngsc "github.com/nspcc-dev/neo-go/pkg/smartcontract"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"
	"go.uber.org/zap"
)

const mixedConfig = `ProtocolConfiguration:
  Magic: 56753
  MaxTraceableBlocks: 200000
  TimePerBlock: 200ms
  Genesis:
    TimePerBlock: 200ms
  MemPoolSize: 50000
  StandbyCommittee:
%s  ValidatorsCount: 4
  VerifyTransactions: true
  P2PSigExtensions: false
ApplicationConfiguration:
  DBConfiguration:
    Type: inmemory
`

// mixedWallets writes a NEP-6 wallet per validator, with cheap scrypt
// parameters (NEP-2's real ones cost a second per decryption), and
// returns their paths and the protocol configuration for the four keys.
func mixedWallets(t *testing.T, dir string) ([]string, string) {
	var paths []string
	var committee strings.Builder
	for i := range 4 {
		seed := sha256.Sum256([]byte(fmt.Sprintf("mixed validator %d", i)))
		k, err := keys.NewPrivateKeyFromBytes(seed[:])
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&committee, "    - %s\n", k.PublicKey().StringCompressed())
		w := wallet.NewInMemoryWallet()
		w.Scrypt = keys.ScryptParams{N: 16, R: 1, P: 1}
		acc := wallet.NewAccountFromPrivateKey(k)
		if err := acc.Encrypt("pass", w.Scrypt); err != nil {
			t.Fatal(err)
		}
		w.AddAccount(acc)
		data, err := w.JSON()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("wallet%d.json", i))
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths, fmt.Sprintf(mixedConfig, committee.String())
}

func mustBytes(t *testing.T, v interface{ EncodeBinary(*ngio.BinWriter) }) []byte {
	t.Helper()
	w := ngio.NewBufBinWriter()
	v.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		t.Fatal(w.Err)
	}
	return w.Bytes()
}

// ngLedger is consensus.Ledger over a neo-go Blockchain; values cross by
// their binary encodings.
type ngLedger struct {
	t   *testing.T
	bc  *ngcore.Blockchain
	cfg config.Blockchain
}

// LocalStateRoot implements consensus.StateRootLedger.
func (l *ngLedger) LocalStateRoot(height uint32) (hash.Uint256, error) {
	r, err := l.bc.GetStateRoot(height)
	if err != nil {
		return hash.Uint256{}, err
	}
	return hash.Uint256(r.Root), nil
}

func (l *ngLedger) GetConfig() config.Blockchain   { return l.cfg }
func (l *ngLedger) BlockHeight() uint32            { return l.bc.BlockHeight() }
func (l *ngLedger) CurrentBlockHash() hash.Uint256 { return hash.Uint256(l.bc.CurrentBlockHash()) }
func (l *ngLedger) GetMillisecondsPerBlock() uint32 {
	return l.bc.GetMillisecondsPerBlock()
}

func (l *ngLedger) GetHeader(h hash.Uint256) (*block.Header, error) {
	nh, err := l.bc.GetHeader(ngutil.Uint256(h))
	if err != nil {
		return nil, err
	}
	return block.DecodeHeader(mustBytes(l.t, nh), l.cfg.StateRootInHeader)
}

func (l *ngLedger) GetNextBlockValidators() ([]*keys.PublicKey, error) {
	ks, err := l.bc.GetNextBlockValidators()
	if err != nil {
		return nil, err
	}
	return l.keys(ks), nil
}

func (l *ngLedger) ComputeNextBlockValidators() []*keys.PublicKey {
	return l.keys(l.bc.ComputeNextBlockValidators())
}

func (l *ngLedger) keys(ks []*ngkeys.PublicKey) []*keys.PublicKey {
	var out []*keys.PublicKey
	for _, nk := range ks {
		k, err := keys.NewPublicKeyFromBytes(nk.Bytes())
		if err != nil {
			l.t.Error(err)
			return nil
		}
		out = append(out, k)
	}
	return out
}

func (l *ngLedger) VerifyProposedTransactions(txs []*transaction.Transaction) error {
	pool := ngmempool.New(len(txs), 0, false, nil)
	for _, tx := range txs {
		ntx, err := ngtx.NewTransactionFromBytes(tx.Bytes())
		if err != nil {
			return err
		}
		if err := l.bc.PoolTx(ntx, pool); err != nil {
			return &consensus.RejectedTxError{Hash: tx.Hash(), Err: err}
		}
	}
	return nil
}

func (l *ngLedger) AddBlock(b *block.Block) error {
	nb := ngblock.New(l.cfg.StateRootInHeader)
	r := ngio.NewBinReaderFromBuf(b.Bytes())
	nb.DecodeBinary(r)
	if r.Err != nil {
		return r.Err
	}
	return l.bc.AddBlock(nb)
}

// ngPool is consensus.Mempool over a neo-go memory pool.
type ngPool struct{ mp *ngmempool.Pool }

func (p ngPool) GetVerifiedTransactions() []*transaction.Transaction {
	var out []*transaction.Transaction
	for _, tx := range p.mp.GetVerifiedTransactions() {
		if ours, err := transaction.NewTransactionFromBytes(tx.Bytes()); err == nil {
			out = append(out, ours)
		}
	}
	return out
}

func (p ngPool) TryGetValue(h hash.Uint256) (*transaction.Transaction, bool) {
	tx, ok := p.mp.TryGetValue(ngutil.Uint256(h))
	if !ok {
		return nil, false
	}
	ours, err := transaction.NewTransactionFromBytes(tx.Bytes())
	return ours, err == nil
}

func (p ngPool) RegisterTransactionAddedSubscriber(ch chan struct{}) {
	p.mp.RegisterTransactionAddedSubscriber(ch)
}

type mixedNode struct {
	name   string
	index  int
	chain  *ngcore.Blockchain
	ours   *consensus.Service
	theirs ngconsensus.Service
	up     atomic.Bool
}

// mixedBus delivers every payload to every other running node.
type mixedBus struct {
	t     *testing.T
	nodes []*mixedNode
	ch    chan busMsg
	done  chan struct{}
	stats sync.Map // "from->type" counts, for the log
}

type busMsg struct {
	from int
	raw  []byte
}

func (b *mixedBus) send(from int, raw []byte) {
	if b.nodes[from].up.Load() {
		b.ch <- busMsg{from, raw}
	}
}

func (b *mixedBus) run() {
	defer close(b.done)
	for m := range b.ch {
		for i, n := range b.nodes {
			if i == m.from || !n.up.Load() {
				continue
			}
			if n.ours != nil {
				var e message.Extensible
				if err := nio.FromBytes(m.raw, &e); err != nil {
					b.t.Errorf("%s: undecodable payload: %v", n.name, err)
					continue
				}
				if err := n.ours.OnPayload(&e); err != nil && !errors.Is(err, consensus.ErrOutdated) {
					b.t.Errorf("%s refuses a payload of %s: %v", n.name, b.nodes[m.from].name, err)
				}
			} else {
				e := ngpayload.NewExtensible()
				r := ngio.NewBinReaderFromBuf(m.raw)
				e.DecodeBinary(r)
				if r.Err != nil {
					b.t.Errorf("%s: neo-go cannot decode a payload of %s: %v", n.name, b.nodes[m.from].name, r.Err)
					continue
				}
				_ = n.theirs.OnPayload(e)
			}
		}
	}
}

// busNet is the Broadcaster of an n3node node.
type busNet struct {
	b    *mixedBus
	from int
}

func (n busNet) BroadcastExtensible(e *message.Extensible) {
	raw, err := nio.ToBytes(e)
	if err != nil {
		n.b.t.Error(err)
		return
	}
	n.b.send(n.from, raw)
}
func (busNet) RequestTx(...hash.Uint256) {}
func (busNet) StopTxFlow()               {}

func TestMixedNetworkWithNeoGo(t *testing.T) { runMixedNetwork(t, false) }

// TestMixedStateRootInHeader is the same network with StateRootInHeader:
// proposals carry the previous state root and headers PrevStateRoot, in
// neo-go's format, checked by both implementations.
func TestMixedStateRootInHeader(t *testing.T) { runMixedNetwork(t, true) }

func runMixedNetwork(t *testing.T, stateRootInHeader bool) {
	if testing.Short() {
		t.Skip("wall-clock network test")
	}
	dir := t.TempDir()
	walletPaths, protocol := mixedWallets(t, dir)
	if stateRootInHeader {
		protocol = strings.Replace(protocol, "ProtocolConfiguration:\n", "ProtocolConfiguration:\n  StateRootInHeader: true\n", 1)
	}
	cfgPath := filepath.Join(dir, "protocol.yml")
	if err := os.WriteFile(cfgPath, []byte(protocol), 0o644); err != nil {
		t.Fatal(err)
	}
	ngcfg, err := ngconfig.LoadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	ourCfg, err := config.LoadBytes("mixed", []byte(protocol))
	if err != nil {
		t.Fatal(err)
	}
	ourChainCfg, err := ourCfg.Blockchain()
	if err != nil {
		t.Fatal(err)
	}

	bus := &mixedBus{t: t, ch: make(chan busMsg, 100000), done: make(chan struct{})}
	var stops []func()
	defer func() {
		for _, f := range slices.Backward(stops) {
			f()
		}
	}()
	for i, path := range walletPaths {
		bc, err := ngcore.NewBlockchain(ngstorage.NewMemoryStore(), ngcfg.Blockchain(), zap.NewNop())
		if err != nil {
			t.Fatal(err)
		}
		go bc.Run()
		stops = append(stops, bc.Close)
		n := &mixedNode{chain: bc}
		n.up.Store(true)
		ks, err := consensus.UnlockWallet(config.Wallet{Path: path, Password: "pass"})
		if err != nil {
			t.Fatal(err)
		}
		vals, err := bc.GetNextBlockValidators()
		if err != nil {
			t.Fatal(err)
		}
		n.index = -1
		for j, v := range vals {
			if string(v.Bytes()) == string(ks[0].PublicKey().Bytes()) {
				n.index = j
			}
		}
		if i < 2 {
			n.name = fmt.Sprintf("n3node-%d", i)
			n.ours, err = consensus.New(consensus.Config{
				Ledger:      &ngLedger{t: t, bc: bc, cfg: ourChainCfg},
				Mempool:     ngPool{bc.GetMemPool()},
				Broadcaster: busNet{bus, i},
				Keys:        ks,
				Logger:      mixedLog(),
			})
		} else {
			n.name = fmt.Sprintf("neo-go-%d", i)
			from := i
			n.theirs, err = ngconsensus.NewService(ngconsensus.Config{
				Logger: ngLog(),
				Broadcast: func(p *ngpayload.Extensible) {
					bus.send(from, mustBytes(t, p))
				},
				Chain:                 bc,
				BlockQueue:            ngQueue{bc},
				ProtocolConfiguration: bc.GetConfig().ProtocolConfiguration,
				RequestTx:             func(...ngutil.Uint256) {},
				StopTxFlow:            func() {},
				Wallet:                ngconfig.Wallet{Path: path, Password: "pass"},
			})
		}
		if err != nil {
			t.Fatal(err)
		}
		bus.nodes = append(bus.nodes, n)
	}
	go bus.run()
	stops = append(stops, func() { close(bus.ch); <-bus.done })

	// Block relay: each chain passes its blocks on to the others (filling
	// gaps from itself) and to its n3node service.
	for i, n := range bus.nodes {
		ch := make(chan *ngblock.Block, 100)
		n.chain.SubscribeForBlocks(ch)
		quit := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-quit:
					return
				case b := <-ch:
					if n.ours != nil {
						h, err := block.DecodeHeader(mustBytes(t, &b.Header), stateRootInHeader)
						if err != nil {
							t.Error(err)
							continue
						}
						n.ours.OnNewBlock(h)
					}
					for j, o := range bus.nodes {
						if j == i || !o.up.Load() {
							continue
						}
						for o.chain.BlockHeight() < b.Index {
							nb, err := n.chain.GetBlock(n.chain.GetHeaderHash(o.chain.BlockHeight() + 1))
							if err != nil || o.chain.AddBlock(nb) != nil {
								break
							}
						}
					}
				}
			}
		}()
		stops = append(stops, func() { close(quit); <-done; n.chain.UnsubscribeFromBlocks(ch) })
	}
	for _, n := range bus.nodes {
		if n.ours != nil {
			n.ours.Start()
			stops = append(stops, n.ours.Shutdown)
		} else {
			n.theirs.Start()
			stops = append(stops, n.theirs.Shutdown)
		}
	}

	waitHeight := func(h uint32) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			low := ^uint32(0)
			for _, n := range bus.nodes {
				if n.up.Load() {
					low = min(low, n.chain.BlockHeight())
				}
			}
			if low >= h {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the network is at height %d, not %d, after a minute", low, h)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	primaries := func(from, to uint32) []int {
		var ps []int
		ref := bus.nodes[0].chain
		for h := from; h <= to; h++ {
			b, err := ref.GetBlock(ref.GetHeaderHash(h))
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, int(b.PrimaryIndex))
		}
		return ps
	}
	names := func(ps []int) string {
		var s []string
		for _, p := range ps {
			for _, n := range bus.nodes {
				if n.index == p {
					s = append(s, strings.SplitN(n.name, "-", 2)[0])
				}
			}
		}
		return strings.Join(s, " ")
	}

	start := time.Now()
	waitHeight(8)
	if stateRootInHeader {
		ref := bus.nodes[0].chain
		for h := uint32(1); h <= 8; h++ {
			b, err := ref.GetBlock(ref.GetHeaderHash(h))
			if err != nil {
				t.Fatal(err)
			}
			r, err := ref.GetStateRoot(h - 1)
			if err != nil {
				t.Fatal(err)
			}
			if !b.StateRootEnabled || b.PrevStateRoot != r.Root {
				t.Fatalf("block %d: previous state root %s, local %s", h, b.PrevStateRoot.StringLE(), r.Root.StringLE())
			}
		}
	}
	t.Logf("8 blocks in %s", time.Since(start))
	start = time.Now()
	ps := primaries(1, 8)
	t.Logf("blocks 1..8 proposed by %v (%s)", ps, names(ps))
	var byOurs, byTheirs bool
	for _, p := range ps {
		for _, n := range bus.nodes {
			if n.index == p {
				byOurs = byOurs || n.ours != nil
				byTheirs = byTheirs || n.theirs != nil
			}
		}
	}
	if !byOurs || !byTheirs {
		t.Fatalf("blocks not proposed by both implementations: %v", ps)
	}

	// Transactions: each round pools a few in every node's mempool and
	// waits for the block that takes them, until both implementations
	// have proposed such a block.
	var withTxOurs, withTxTheirs bool
	var nonce uint32
	for round := 0; round < 12 && !(withTxOurs && withTxTheirs); round++ {
		var txs []*ngtx.Transaction
		for range 3 {
			nonce++
			txs = append(txs, mixedTx(t, bus.nodes[0].chain, walletPaths, nonce))
		}
		for _, n := range bus.nodes {
			for _, tx := range txs {
				if err := n.chain.PoolTx(tx); err != nil {
					t.Fatalf("%s: %v", n.name, err)
				}
			}
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			var in []uint32
			for _, n := range bus.nodes {
				for _, tx := range txs {
					// (a pooled transaction is reported at height MaxUint32)
					if _, h, err := n.chain.GetTransaction(tx.Hash()); err == nil && h != math.MaxUint32 {
						in = append(in, h)
					}
				}
			}
			if len(in) == len(txs)*len(bus.nodes) {
				b, err := bus.nodes[0].chain.GetBlock(bus.nodes[0].chain.GetHeaderHash(in[0]))
				if err != nil {
					t.Fatal(err)
				}
				if len(b.Transactions) != len(txs) {
					t.Fatalf("block %d has %d transactions", b.Index, len(b.Transactions))
				}
				ours := slices.ContainsFunc(bus.nodes, func(n *mixedNode) bool { return n.ours != nil && n.index == int(b.PrimaryIndex) })
				withTxOurs = withTxOurs || ours
				withTxTheirs = withTxTheirs || !ours
				t.Logf("round %d: transactions in block %d proposed by %s", round, b.Index, names([]int{int(b.PrimaryIndex)}))
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("transactions not included")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !withTxOurs || !withTxTheirs {
		t.Fatal("no block with transactions from each implementation")
	}

	// Stop one neo-go validator: the other three go on, changing view
	// at the heights it should propose.
	stopped := bus.nodes[3]
	stopped.up.Store(false)
	stopped.theirs.Shutdown()
	h := bus.nodes[0].chain.BlockHeight()
	waitHeight(h + 5)
	t.Logf("5 blocks in %s", time.Since(start))
	ps = primaries(h+1, h+5)
	t.Logf("blocks %d..%d proposed by %v (%s) with validator %d stopped", h+1, h+5, ps, names(ps), stopped.index)
	if slices.Contains(ps, stopped.index) {
		t.Fatal("a block proposed by the stopped validator")
	}
	for _, n := range bus.nodes[:3] {
		if n.chain.BlockHeight() < h+5 {
			t.Fatalf("%s is behind", n.name)
		}
	}
}

type ngQueue struct{ bc *ngcore.Blockchain }

func (q ngQueue) Put(b *ngblock.Block) error { return q.bc.AddBlock(b) }

func mixedLog() *slog.Logger {
	if os.Getenv("N3NODE_CONSENSUS_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func ngLog() *zap.Logger {
	if os.Getenv("N3NODE_CONSENSUS_LOG") != "" {
		l, _ := zap.NewDevelopment()
		return l
	}
	return zap.NewNop()
}

// mixedTx makes a transaction from the validators' BFT account (which holds
// the genesis GAS), signed by three of them, with neo-go's fee rules.
func mixedTx(t *testing.T, bc *ngcore.Blockchain, walletPaths []string, nonce uint32) *ngtx.Transaction {
	var ks []*ngkeys.PrivateKey
	var pubs ngkeys.PublicKeys
	for _, p := range walletPaths {
		ours, err := consensus.UnlockWallet(config.Wallet{Path: p, Password: "pass"})
		if err != nil {
			t.Fatal(err)
		}
		k, err := ngkeys.NewPrivateKeyFromBytes(ours[0].Bytes())
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, k)
		pubs = append(pubs, k.PublicKey())
	}
	slices.SortFunc(ks, func(a, b *ngkeys.PrivateKey) int { return a.PublicKey().Cmp(b.PublicKey()) })
	script, err := ngsc.CreateDefaultMultiSigRedeemScript(pubs)
	if err != nil {
		t.Fatal(err)
	}
	tx := ngtx.New([]byte{0x11}, 1_000_000) // PUSH1
	tx.Nonce = nonce
	tx.ValidUntilBlock = bc.BlockHeight() + 100
	tx.Signers = []ngtx.Signer{{Account: ngutil.Uint160(hash.Hash160(script)), Scopes: ngtx.CalledByEntry}}
	netFee, sizeDelta := ngfee.Calculate(bc.GetBaseExecFee(), script)
	tx.NetworkFee = netFee + int64(ngio.GetVarSize(tx)+sizeDelta)*bc.FeePerByte() + bc.CalculateAttributesFee(tx)
	var inv []byte
	for _, k := range ks[:3] {
		inv = append(inv, 0x0c, 64)
		inv = append(inv, k.SignHashable(56753, tx)...)
	}
	tx.Scripts = []ngtx.Witness{{InvocationScript: inv, VerificationScript: script}}
	return tx
}

package testchain

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
)

// Magic is the network magic of the test chains.
const Magic = 42

// Options are the settings of New. The zero value is a chain with every
// hardfork from genesis over a fresh memory store.
type Options struct {
	// Protocol and App are appended to the ProtocolConfiguration and
	// ApplicationConfiguration sections (two-space indented YAML lines,
	// e.g. "  P2PSigExtensions: true\n").
	Protocol, App string
	// Core are the ledger options (Logger nil: discard).
	Core core.Options
	// Store is the chain's store (nil: a new memory store).
	Store storage.Store
}

// Config returns a chain configuration: one validator, every hardfork from
// genesis, VerifyTransactions, and the extra lines of o.
func Config(t testing.TB, o Options) config.Blockchain {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "ProtocolConfiguration:\n  Magic: %d\n  TimePerBlock: 1s\n  ValidatorsCount: 1\n  VerifyTransactions: true\n  StandbyCommittee:\n    - %s\n",
		Magic, chaintest.CommitteeKey.PublicKey().StringCompressed())
	sb.WriteString("  Hardforks:\n")
	for _, hf := range config.Hardforks() {
		fmt.Fprintf(&sb, "    %s: 0\n", hf)
	}
	sb.WriteString(o.Protocol)
	sb.WriteString("ApplicationConfiguration:\n  DBConfiguration:\n    Type: inmemory\n")
	sb.WriteString(o.App)
	f, err := config.LoadBytes("testchain", []byte(sb.String()))
	if err != nil {
		t.Fatalf("config: %v\n%s", err, sb.String())
	}
	cfg, err := f.Blockchain()
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Chain is a signed single-validator chain.
type Chain struct {
	T     testing.TB
	BC    *core.Blockchain
	Cfg   config.Blockchain
	Store storage.Store
	Key   *keys.PrivateKey // validator and committee

	nonce uint32
	prev  *block.Header // the last block NextBlock made
}

// New opens a chain configured by Config(t, o) and closes it when the test
// ends.
func New(t testing.TB, o ...Options) *Chain {
	t.Helper()
	var opt Options
	if len(o) > 0 {
		opt = o[0]
	}
	return Open(t, Config(t, opt), opt.Store, opt.Core)
}

// Open opens a chain with cfg over store (a new memory store if nil) and
// closes it when the test ends.
func Open(t testing.TB, cfg config.Blockchain, store storage.Store, opts core.Options) *Chain {
	t.Helper()
	if store == nil {
		store = storage.NewMemoryStore()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	bc, err := core.New(cfg, store, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bc.Close() })
	return &Chain{T: t, BC: bc, Cfg: cfg, Store: store, Key: chaintest.CommitteeKey, nonce: 1}
}

// ValidatorScript is the verification script of the blocks and of the
// committee account: the validator's 1-of-1 multisig.
func (c *Chain) ValidatorScript() []byte {
	s, err := smartcontract.CreateDefaultMultiSigRedeemScript([]*keys.PublicKey{c.Key.PublicKey()})
	if err != nil {
		c.T.Fatal(err)
	}
	return s
}

// Account is the validator's (and committee's) account; it holds the
// genesis NEO and GAS.
func (c *Chain) Account() hash.Uint160 { return hash.Hash160(c.ValidatorScript()) }

// NextNonce returns a nonce no earlier transaction of the chain used.
func (c *Chain) NextNonce() uint32 {
	c.nonce++
	return c.nonce - 1
}

// PushData returns a script pushing b (an invocation script of one
// signature when b is one).
func PushData(b []byte) []byte {
	w := nio.NewBufBinWriter()
	emit.Bytes(w, b)
	return w.Bytes()
}

// BlockAfter returns the signed block after prev (the chain's latest
// header if nil) holding txs; with StateRootInHeader it carries the local
// state root of prev.
func (c *Chain) BlockAfter(prev *block.Header, txs ...*transaction.Transaction) *block.Block {
	if prev == nil {
		var err error
		if prev, err = c.BC.GetHeader(c.BC.CurrentHeaderHash()); err != nil {
			c.T.Fatal(err)
		}
	}
	b := &block.Block{Header: block.Header{
		PrevHash:      prev.Hash(),
		Timestamp:     prev.Timestamp + 1000,
		Nonce:         uint64(prev.Index+1) * 7919,
		Index:         prev.Index + 1,
		NextConsensus: prev.NextConsensus,

		StateRootEnabled: c.Cfg.StateRootInHeader,
	}, Transactions: txs}
	if b.StateRootEnabled {
		// The previous block's root, once the chain has it (a block made
		// ahead of it keeps a zero root).
		if r, err := c.BC.GetStateRoot(prev.Index); err == nil {
			b.PrevStateRoot = r.RootHash
		}
	}
	b.RebuildMerkleRoot()
	c.SignBlock(b)
	return b
}

// SignBlock sets the validator's witness on b.
func (c *Chain) SignBlock(b *block.Block) {
	sd := b.Header.SignData(uint32(c.Cfg.Magic))
	b.Witness = transaction.Witness{InvocationScript: PushData(c.Key.Sign(sd[:])), VerificationScript: c.ValidatorScript()}
}

// NextBlock returns the signed block after the chain's latest header (or
// after the last block NextBlock made, if the chain has not taken it yet)
// holding txs.
func (c *Chain) NextBlock(txs ...*transaction.Transaction) *block.Block {
	prev := c.prev
	if prev == nil || prev.Index < c.BC.HeaderHeight() {
		var err error
		if prev, err = c.BC.GetHeader(c.BC.CurrentHeaderHash()); err != nil {
			c.T.Fatal(err)
		}
	}
	b := c.BlockAfter(prev, txs...)
	c.prev = &b.Header
	return b
}

// AddBlock adds the next block with txs (verified by the chain) and
// returns it.
func (c *Chain) AddBlock(txs ...*transaction.Transaction) *block.Block {
	c.T.Helper()
	b := c.NextBlock(txs...)
	if err := c.BC.AddBlock(b); err != nil {
		c.T.Fatal(err)
	}
	return b
}

// AddPooled adds a block with every verified transaction of the memory
// pool.
func (c *Chain) AddPooled() *block.Block {
	c.T.Helper()
	return c.AddBlock(c.BC.Mempool().GetVerifiedTransactions()...)
}

// NewTx makes an unsigned transaction valid for 100 blocks with the given
// fees and signers.
func (c *Chain) NewTx(script []byte, sysFee, netFee int64, signers ...transaction.Signer) *transaction.Transaction {
	tx := transaction.New(script, c.NextNonce(), sysFee, netFee, c.BC.BlockHeight()+min(100, c.Cfg.MaxValidUntilBlockIncrement))
	tx.Signers = signers
	return tx
}

// TxBy makes a transaction with script signed (CalledByEntry, standard
// accounts) by each of ks, the first paying 1 GAS system and 0.1 GAS
// network fee. It does not sign it (Sign does).
func (c *Chain) TxBy(script []byte, ks ...*keys.PrivateKey) *transaction.Transaction {
	signers := make([]transaction.Signer, len(ks))
	for i, k := range ks {
		signers[i] = transaction.Signer{Account: k.PublicKey().ScriptHash(), Scopes: transaction.CalledByEntry}
	}
	return c.NewTx(script, 1_0000_0000, 1000_0000, signers...)
}

// Sign replaces tx's witnesses with the single-signature witnesses of ks
// (in signer order) and returns tx.
func (c *Chain) Sign(tx *transaction.Transaction, ks ...*keys.PrivateKey) *transaction.Transaction {
	tx.Witnesses = make([]transaction.Witness, 0, len(ks))
	for _, k := range ks {
		tx.Witnesses = append(tx.Witnesses, SigWitness(tx, k))
	}
	return tx
}

// SignCommittee sets the committee's witness on tx (its only signer) and
// returns tx.
func (c *Chain) SignCommittee(tx *transaction.Transaction) *transaction.Transaction {
	sd := tx.SignData(uint32(c.Cfg.Magic))
	tx.Witnesses = []transaction.Witness{{InvocationScript: PushData(c.Key.Sign(sd[:])), VerificationScript: c.ValidatorScript()}}
	return tx
}

// Tx returns a committee transaction running script (20 GAS system fee,
// 0.1 GAS network fee), signed.
func (c *Chain) Tx(script []byte) *transaction.Transaction {
	return c.SignCommittee(c.NewTx(script, 20_0000_0000, 1000_0000,
		transaction.Signer{Account: c.Account(), Scopes: transaction.CalledByEntry}))
}

// SigWitness is the single-signature witness of k for tx on the test
// network.
func SigWitness(tx *transaction.Transaction, k *keys.PrivateKey) transaction.Witness {
	sd := tx.SignData(Magic)
	return transaction.Witness{InvocationScript: PushData(k.Sign(sd[:])), VerificationScript: k.PublicKey().VerificationScript()}
}

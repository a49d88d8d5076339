package core_test

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
	"github.com/stretchr/testify/require"
)

// testChain is a single-validator chain (chaintest.CommitteeKey) whose
// blocks are signed, so that they pass verification.
type testChain struct {
	t     testing.TB
	bc    *core.Blockchain
	cfg   config.Blockchain
	store storage.Store
	key   *keys.PrivateKey
	nonce uint32
}

type chainOpts struct {
	extra string // extra ProtocolConfiguration lines
	app   string // extra ApplicationConfiguration lines
	opts  core.Options
	store storage.Store
}

func testConfig(t testing.TB, o chainOpts) config.Blockchain {
	var sb strings.Builder
	fmt.Fprintf(&sb, "ProtocolConfiguration:\n  Magic: 42\n  TimePerBlock: 1s\n  ValidatorsCount: 1\n  VerifyTransactions: true\n  StandbyCommittee:\n    - %s\n", chaintest.CommitteeKey.PublicKey().StringCompressed())
	sb.WriteString("  Hardforks:\n")
	for _, hf := range config.Hardforks() {
		fmt.Fprintf(&sb, "    %s: 0\n", hf)
	}
	sb.WriteString(o.extra)
	sb.WriteString("ApplicationConfiguration:\n  DBConfiguration:\n    Type: inmemory\n")
	sb.WriteString(o.app)
	c, err := config.LoadBytes("test", []byte(sb.String()))
	require.NoError(t, err, sb.String())
	cfg, err := c.Blockchain()
	require.NoError(t, err)
	return cfg
}

func newTestChain(t testing.TB, o ...chainOpts) *testChain {
	var opt chainOpts
	if len(o) > 0 {
		opt = o[0]
	}
	cfg := testConfig(t, opt)
	if opt.opts.Logger == nil {
		opt.opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.store == nil {
		opt.store = storage.NewMemoryStore()
	}
	bc, err := core.New(cfg, opt.store, opt.opts)
	require.NoError(t, err)
	c := &testChain{t: t, bc: bc, cfg: cfg, store: opt.store, key: chaintest.CommitteeKey, nonce: 1}
	t.Cleanup(func() { _ = c.bc.Close() })
	return c
}

// validatorScript is the verification script of the block witness.
func (c *testChain) validatorScript() []byte {
	s, err := smartcontract.CreateDefaultMultiSigRedeemScript([]*keys.PublicKey{c.key.PublicKey()})
	require.NoError(c.t, err)
	return s
}

// nextBlock builds the signed block after prev (the chain's top header if
// nil) with txs.
func (c *testChain) blockAfter(prev *block.Header, txs ...*transaction.Transaction) *block.Block {
	if prev == nil {
		var err error
		prev, err = c.bc.GetHeader(c.bc.CurrentHeaderHash())
		require.NoError(c.t, err)
	}
	b := &block.Block{Header: block.Header{
		PrevHash:      prev.Hash(),
		Timestamp:     prev.Timestamp + 1000,
		Nonce:         uint64(prev.Index+1) * 7919,
		Index:         prev.Index + 1,
		NextConsensus: prev.NextConsensus,
	}, Transactions: txs}
	b.RebuildMerkleRoot()
	c.signBlock(b)
	return b
}

func (c *testChain) signBlock(b *block.Block) {
	sd := b.Header.SignData(uint32(c.cfg.Magic))
	sig := c.key.Sign(sd[:])
	b.Witness = transaction.Witness{InvocationScript: pushData(sig), VerificationScript: c.validatorScript()}
}

func pushData(b []byte) []byte {
	w := nio.NewBufBinWriter()
	emit.Bytes(w, b)
	return w.Bytes()
}

// addBlock adds a signed block with txs and returns it.
func (c *testChain) addBlock(txs ...*transaction.Transaction) *block.Block {
	c.t.Helper()
	b := c.blockAfter(nil, txs...)
	require.NoError(c.t, c.bc.AddBlock(b))
	return b
}

// validatorAccount is the account of the block validator (the 1-of-1
// multisig), which is also the committee account.
func (c *testChain) validatorAccount() hash.Uint160 { return hash.Hash160(c.validatorScript()) }

// newTx makes a transaction with script, signed (single-signature) by each
// key; the first pays. Fees: 1 GAS system, 0.1 GAS network.
func (c *testChain) newTx(script []byte, signers ...*keys.PrivateKey) *transaction.Transaction {
	tx := transaction.New(script, c.nonce, 1_0000_0000, 1000_0000, c.bc.BlockHeight()+100)
	c.nonce++
	for _, k := range signers {
		tx.Signers = append(tx.Signers, transaction.Signer{Account: k.PublicKey().ScriptHash(), Scopes: transaction.CalledByEntry})
	}
	return tx
}

// sign adds single-signature witnesses of keys (in signer order).
func (c *testChain) sign(tx *transaction.Transaction, ks ...*keys.PrivateKey) *transaction.Transaction {
	tx.Witnesses = nil
	sd := tx.SignData(uint32(c.cfg.Magic))
	for _, k := range ks {
		tx.Witnesses = append(tx.Witnesses, transaction.Witness{
			InvocationScript:   pushData(k.Sign(sd[:])),
			VerificationScript: smartcontract.CreateSignatureRedeemScript(k.PublicKey()),
		})
	}
	return tx
}

func newKey(t testing.TB, seed byte) *keys.PrivateKey {
	b := make([]byte, 32)
	b[0], b[31] = 1, seed
	k, err := keys.NewPrivateKeyFromBytes(b)
	require.NoError(t, err)
	return k
}

// Package blockgen makes valid, signed blocks for a core.Blockchain in
// tests: a chain of one consensus validator (chaintest.CommitteeKey), whose
// 1-of-1 multisig account holds the genesis NEO and GAS and pays for the
// transactions; and a small storage contract (put/delete) so that tests can
// grow contract storage and the state trie.
//
// It is a test helper: it fails the test on any error.
package blockgen

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
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

// Magic is the network magic of the test chains.
const Magic = 42

// Config returns a chain configuration: one validator, every hardfork from
// genesis, VerifyTransactions; extraProto and extraApp are appended to the
// ProtocolConfiguration and ApplicationConfiguration sections (two-space
// indented YAML lines).
func Config(t testing.TB, extraProto, extraApp string) config.Blockchain {
	var sb strings.Builder
	fmt.Fprintf(&sb, "ProtocolConfiguration:\n  Magic: %d\n  TimePerBlock: 1s\n  ValidatorsCount: 1\n  VerifyTransactions: true\n  StandbyCommittee:\n    - %s\n",
		Magic, chaintest.CommitteeKey.PublicKey().StringCompressed())
	sb.WriteString("  Hardforks:\n")
	for _, hf := range config.Hardforks() {
		fmt.Fprintf(&sb, "    %s: 0\n", hf)
	}
	sb.WriteString(extraProto)
	sb.WriteString("ApplicationConfiguration:\n  DBConfiguration:\n    Type: inmemory\n")
	sb.WriteString(extraApp)
	c, err := config.LoadBytes("test", []byte(sb.String()))
	require.NoError(t, err, sb.String())
	cfg, err := c.Blockchain()
	require.NoError(t, err)
	return cfg
}

// Gen builds blocks on top of a Blockchain.
type Gen struct {
	T     testing.TB
	BC    *core.Blockchain
	Cfg   config.Blockchain
	Key   *keys.PrivateKey
	nonce uint32
	prev  *block.Header
}

// New opens a chain with cfg over store (a new memory store if nil) and
// closes it when the test ends.
func New(t testing.TB, cfg config.Blockchain, store storage.Store) *Gen {
	if store == nil {
		store = storage.NewMemoryStore()
	}
	bc, err := core.New(cfg, store, core.Options{Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = bc.Close() })
	return &Gen{T: t, BC: bc, Cfg: cfg, Key: chaintest.CommitteeKey, nonce: 1}
}

// ValidatorScript is the verification script of the blocks and of the
// account paying for transactions.
func (g *Gen) ValidatorScript() []byte {
	s, err := smartcontract.CreateDefaultMultiSigRedeemScript([]*keys.PublicKey{g.Key.PublicKey()})
	require.NoError(g.T, err)
	return s
}

// Account is the validators' multisig account (it holds the genesis GAS).
func (g *Gen) Account() hash.Uint160 { return hash.Hash160(g.ValidatorScript()) }

// PushData returns a script pushing b.
func PushData(b []byte) []byte {
	w := nio.NewBufBinWriter()
	emit.Bytes(w, b)
	return w.Bytes()
}

// NextBlock returns the signed block after the chain's latest header (or
// after the last block NextBlock made, if the chain has not taken it yet)
// holding txs.
func (g *Gen) NextBlock(txs ...*transaction.Transaction) *block.Block {
	prev := g.prev
	if prev == nil || prev.Index < g.BC.HeaderHeight() {
		var err error
		prev, err = g.BC.GetHeader(g.BC.CurrentHeaderHash())
		require.NoError(g.T, err)
	}
	b := &block.Block{Header: block.Header{
		PrevHash:      prev.Hash(),
		Timestamp:     prev.Timestamp + 1000,
		Nonce:         uint64(prev.Index+1) * 7919,
		Index:         prev.Index + 1,
		NextConsensus: prev.NextConsensus,
	}, Transactions: txs}
	b.RebuildMerkleRoot()
	sd := b.Header.SignData(Magic)
	b.Witness = transaction.Witness{InvocationScript: PushData(g.Key.Sign(sd[:])), VerificationScript: g.ValidatorScript()}
	g.prev = &b.Header
	return b
}

// AddBlock adds the next block with txs and returns it.
func (g *Gen) AddBlock(txs ...*transaction.Transaction) *block.Block {
	g.T.Helper()
	b := g.NextBlock(txs...)
	require.NoError(g.T, g.BC.AddBlock(b))
	return b
}

// Tx returns a transaction running script paid by Account, signed.
func (g *Gen) Tx(script []byte) *transaction.Transaction {
	tx := transaction.New(script, g.nonce, 20_0000_0000, 1000_0000, g.BC.BlockHeight()+min(100, g.Cfg.MaxValidUntilBlockIncrement))
	g.nonce++
	tx.Signers = []transaction.Signer{{Account: g.Account(), Scopes: transaction.CalledByEntry}}
	sd := tx.SignData(Magic)
	tx.Witnesses = []transaction.Witness{{InvocationScript: PushData(g.Key.Sign(sd[:])), VerificationScript: g.ValidatorScript()}}
	return tx
}

// DeployStorage deploys the storage contract (methods put(key, value) and
// delete(key)) in a new block and returns its hash.
func (g *Gen) DeployStorage() hash.Uint160 {
	cb := chaintest.NewContractBuilder("storage")
	bs := chaintest.Param("key", smartcontract.ByteArrayType)
	cb.Method("put", []manifest.Parameter{bs, chaintest.Param("value", smartcontract.ByteArrayType)}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG1, opcode.LDARG0)
		emit.Syscall(w, "System.Storage.GetContext")
		emit.Syscall(w, "System.Storage.Put")
	})
	cb.Method("delete", []manifest.Parameter{bs}, smartcontract.VoidType, func(w *nio.BinWriter) {
		emit.Opcodes(w, opcode.LDARG0)
		emit.Syscall(w, "System.Storage.GetContext")
		emit.Syscall(w, "System.Storage.Delete")
	})
	f, m := cb.Build()
	g.AddBlock(g.Tx(chaintest.DeployScript(f, m)))
	return smartcontract.GetContractHash(g.Account(), f.Checksum, "storage")
}

// PutScript returns a script calling put(key, value) of contract h for
// each pair (keys[i], values[i]); a nil value calls delete instead.
func PutScript(h hash.Uint160, ks, vs [][]byte) []byte {
	s, err := emit.Script(func(w *nio.BinWriter) {
		for i := range ks {
			if vs[i] == nil {
				emit.AppCall(w, h, "delete", callflag.All, ks[i])
			} else {
				emit.AppCall(w, h, "put", callflag.All, ks[i], vs[i])
			}
		}
	})
	if err != nil {
		panic(err)
	}
	return s
}

// Package chaintest is a test harness for execution: an in-memory chain
// that runs blocks with the native contracts of pkg/core/native (genesis
// included), so that tests can run scripts as transactions with given
// signers and look at the execution results and the state.
//
//	c := chaintest.New(t)                       // all hardforks from genesis
//	aer := c.Run(script, c.CommitteeSigner())   // one tx in a new block
//	require.Equal(t, vmstate.Halt, aer.VMState)
//
// The committee is one key (CommitteeKey) unless Options say otherwise;
// transactions are not witnessed (the executor does not check witnesses),
// but signers and their scopes are what CheckWitness sees. A sender that
// cannot pay its transactions' fees gets the missing GAS minted out of band
// before the block (no transaction, nothing in the results). It is not a
// Blockchain: no verification, no mempool, no state root.
package chaintest

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// Options configure a test chain.
type Options struct {
	// Hardforks maps hardfork names to heights (the configuration's
	// Hardforks section); nil enables every hardfork n3node knows from
	// genesis (Gorgon included).
	Hardforks map[string]uint32
	// NoHardforks disables every hardfork.
	NoHardforks bool
	// Committee keys (default: CommitteeKey alone).
	Committee []*keys.PrivateKey
	// ValidatorsCount (default 1).
	ValidatorsCount int
	// Magic (default 42).
	Magic uint32
	// Extra YAML lines for ProtocolConfiguration.
	Extra string
}

// CommitteeKey is the default committee and validator key.
var CommitteeKey = mustKey("7d128a6d096f0c14c3a25a2b0c41cf79661bfcb4a8cc95aaaea28bde4d732344")

func mustKey(h string) *keys.PrivateKey {
	k, err := keys.NewPrivateKeyFromHex(h)
	if err != nil {
		panic(err)
	}
	return k
}

// Chain is an in-memory test chain.
type Chain struct {
	T         testing.TB
	Cfg       *config.Blockchain
	Natives   *native.Contracts
	Store     storage.Store
	DAO       *dao.Simple
	Blocks    []*block.Block
	Committee []*keys.PrivateKey
	// GenesisResults are the execution results of the genesis block.
	GenesisResults []*state.AppExecResult

	nonce   uint32
	pending *block.Block
}

// New makes a chain and persists its genesis block.
func New(t testing.TB, opts ...Options) *Chain {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if len(o.Committee) == 0 {
		o.Committee = []*keys.PrivateKey{CommitteeKey}
	}
	if o.ValidatorsCount == 0 {
		o.ValidatorsCount = 1
	}
	if o.Magic == 0 {
		o.Magic = 42
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "ProtocolConfiguration:\n  Magic: %d\n  TimePerBlock: 1s\n  ValidatorsCount: %d\n  StandbyCommittee:\n", o.Magic, o.ValidatorsCount)
	for _, k := range o.Committee {
		fmt.Fprintf(&sb, "    - %s\n", k.PublicKey().StringCompressed())
	}
	switch {
	case o.NoHardforks:
		sb.WriteString("  Hardforks: {}\n")
	case o.Hardforks != nil:
		sb.WriteString("  Hardforks:\n")
		for _, hf := range config.Hardforks() {
			if h, ok := o.Hardforks[hf.String()]; ok {
				fmt.Fprintf(&sb, "    %s: %d\n", hf, h)
			}
		}
	default:
		sb.WriteString("  Hardforks:\n")
		for _, hf := range config.Hardforks() {
			fmt.Fprintf(&sb, "    %s: 0\n", hf)
		}
	}
	sb.WriteString(o.Extra)
	sb.WriteString("ApplicationConfiguration:\n  DBConfiguration:\n    Type: inmemory\n")
	cfgFile, err := config.LoadBytes("chaintest", []byte(sb.String()))
	if err != nil {
		t.Fatalf("chaintest config: %v\n%s", err, sb.String())
	}
	cfg, err := cfgFile.Blockchain()
	if err != nil {
		t.Fatalf("chaintest config: %v", err)
	}
	c := &Chain{T: t, Cfg: &cfg, Store: storage.NewMemoryStore(), Committee: o.Committee, nonce: 1}
	c.DAO = dao.NewSimple(c.Store)
	c.Natives = native.NewContracts(c.Cfg)
	vals := make([]*keys.PublicKey, 0, o.ValidatorsCount)
	for _, k := range o.Committee[:o.ValidatorsCount] {
		vals = append(vals, k.PublicKey())
	}
	g, err := block.NewGenesis(vals)
	if err != nil {
		t.Fatal(err)
	}
	c.GenesisResults = c.persist(g)
	return c
}

// BlockHeight implements interop.Ledger.
func (c *Chain) BlockHeight() uint32 { return uint32(len(c.Blocks) - 1) }

// GetHeaderHash implements interop.Ledger (the block being persisted
// included, as a node knows its header before persisting it).
func (c *Chain) GetHeaderHash(i uint32) hash.Uint256 {
	if int(i) < len(c.Blocks) {
		return c.Blocks[i].Hash()
	}
	if c.pending != nil && c.pending.Index == i {
		return c.pending.Hash()
	}
	return hash.Uint256{}
}

// faucet mints, out of band, the GAS the senders of blk's transactions
// lack for their fees, so that tests need not fund every account they sign
// with. Nothing is minted for a sender that can pay; tests of fee handling
// fund their accounts or call Natives.ExecuteBlock directly.
func (c *Chain) faucet(blk *block.Block) {
	if blk.Index == 0 || len(blk.Transactions) == 0 {
		return
	}
	fees := map[hash.Uint160]*big.Int{}
	var order []hash.Uint160
	for _, tx := range blk.Transactions {
		s := tx.Sender()
		if fees[s] == nil {
			fees[s] = new(big.Int)
			order = append(order, s)
		}
		fees[s].Add(fees[s], big.NewInt(tx.SystemFee+tx.NetworkFee))
	}
	d := c.DAO.GetPrivate()
	ic := c.Natives.NewContext(trigger.Application, c, d, blk, nil)
	for _, s := range order {
		bal, err := c.Natives.GAS.BalanceOf(d, s)
		if err != nil {
			c.T.Fatal(err)
		}
		if bal.Cmp(fees[s]) >= 0 {
			continue
		}
		if err := c.Natives.GAS.Mint(ic, s, fees[s].Sub(fees[s], bal), false, func() error { return nil }); err != nil {
			c.T.Fatal(err)
		}
	}
	if _, err := d.Persist(); err != nil {
		c.T.Fatal(err)
	}
}

// persist executes blk, stores it and returns its execution results.
func (c *Chain) persist(blk *block.Block) []*state.AppExecResult {
	c.T.Helper()
	c.faucet(blk)
	c.pending = blk
	defer func() { c.pending = nil }()
	d := c.DAO.GetPrivate()
	aers, err := c.Natives.ExecuteBlock(c, d, blk)
	if err != nil {
		c.T.Fatalf("block %d: %v", blk.Index, err)
	}
	if err := native.StoreBlock(d, blk, aers); err != nil {
		c.T.Fatal(err)
	}
	if _, err := d.Persist(); err != nil {
		c.T.Fatal(err)
	}
	c.Blocks = append(c.Blocks, blk)
	return aers
}

// NextBlock returns an unpersisted block after the current one with txs.
func (c *Chain) NextBlock(txs ...*transaction.Transaction) *block.Block {
	prev := c.Blocks[len(c.Blocks)-1]
	b := &block.Block{Header: block.Header{
		PrevHash:      prev.Hash(),
		Timestamp:     prev.Timestamp + 1000,
		Nonce:         uint64(len(c.Blocks)) * 7919,
		Index:         prev.Index + 1,
		NextConsensus: prev.NextConsensus,
		Witness:       transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}},
	}, Transactions: txs}
	b.RebuildMerkleRoot()
	return b
}

// AddBlock persists a block with txs and returns the results of its
// transactions (OnPersist and PostPersist results are in the full slice
// AddBlockFull returns).
func (c *Chain) AddBlock(txs ...*transaction.Transaction) []*state.AppExecResult {
	c.T.Helper()
	aers := c.persist(c.NextBlock(txs...))
	return aers[1 : len(aers)-1]
}

// AddBlockFull persists a block with txs and returns all its results.
func (c *Chain) AddBlockFull(txs ...*transaction.Transaction) []*state.AppExecResult {
	c.T.Helper()
	return c.persist(c.NextBlock(txs...))
}

// DefaultSystemFee is the GAS limit of NewTx transactions (100 GAS).
const DefaultSystemFee = 100_0000_0000

// NewTx makes a transaction with script, signers (the first pays) and
// DefaultSystemFee. Witnesses are empty.
func (c *Chain) NewTx(script []byte, signers ...transaction.Signer) *transaction.Transaction {
	if len(signers) == 0 {
		signers = []transaction.Signer{c.CommitteeSigner()}
	}
	tx := transaction.New(script, c.nonce, DefaultSystemFee, 0, uint32(len(c.Blocks))+100)
	c.nonce++
	tx.Signers = signers
	tx.Witnesses = make([]transaction.Witness, len(signers))
	for i := range tx.Witnesses {
		tx.Witnesses[i] = transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	}
	return tx
}

// Run executes script as one transaction in a new block and returns its
// result.
func (c *Chain) Run(script []byte, signers ...transaction.Signer) *state.AppExecResult {
	c.T.Helper()
	return c.AddBlock(c.NewTx(script, signers...))[0]
}

// RunOK is Run that fails the test unless the script HALTs.
func (c *Chain) RunOK(script []byte, signers ...transaction.Signer) *state.AppExecResult {
	c.T.Helper()
	aer := c.Run(script, signers...)
	if aer.VMState != vmstate.Halt {
		c.T.Fatalf("FAULT: %s", aer.FaultException)
	}
	return aer
}

// TestInvoke runs script against the current state in the next block's
// context without persisting anything; it returns the result and the
// context (for inspection of its DAO layer).
func (c *Chain) TestInvoke(script []byte, gas int64, signers ...transaction.Signer) (*state.AppExecResult, *interop.Context) {
	tx := c.NewTx(script, signers...)
	tx.SystemFee = gas
	blk := c.NextBlock(tx)
	ic := c.Natives.NewContext(trigger.Application, c, c.DAO.GetPrivate(), blk, tx)
	ic.SpawnVM()
	ic.VM.SetGasLimit(gas)
	return ic.Execute(tx.Hash(), tx.Script, 0x0f), ic
}

// CommitteeAddress returns the committee's multi-signature account.
func (c *Chain) CommitteeAddress() hash.Uint160 {
	return c.Natives.Committee().CommitteeAddress(c.DAO)
}

// CommitteeSigner is a signer of the committee account with the
// CalledByEntry scope.
func (c *Chain) CommitteeSigner() transaction.Signer {
	return transaction.Signer{Account: c.CommitteeAddress(), Scopes: transaction.CalledByEntry}
}

// AccountSigner returns a CalledByEntry signer of the standard account of k.
func AccountSigner(k *keys.PrivateKey) transaction.Signer {
	return transaction.Signer{Account: k.PublicKey().ScriptHash(), Scopes: transaction.CalledByEntry}
}

// StandardAccount returns the script hash of the signature contract of k.
func StandardAccount(k *keys.PublicKey) hash.Uint160 {
	return hash.Hash160(smartcontract.CreateSignatureRedeemScript(k))
}

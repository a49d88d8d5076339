package servicechain

import (
	"fmt"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/vmstate"

	nio "github.com/n3node/n3node/pkg/io"
)

// Magic is the network magic of test chains.
const Magic = 42

// Chain is a signed single-validator chain.
type Chain struct {
	T   testing.TB
	BC  *core.Blockchain
	Cfg config.Blockchain
	Key *keys.PrivateKey // validator and committee

	nonce uint32
}

// New makes a chain with every hardfork from genesis; extra is added to
// ProtocolConfiguration (e.g. "  P2PSigExtensions: true\n").
func New(t testing.TB, extra string) *Chain {
	var sb strings.Builder
	fmt.Fprintf(&sb, "ProtocolConfiguration:\n  Magic: %d\n  TimePerBlock: 1s\n  ValidatorsCount: 1\n  VerifyTransactions: true\n  StandbyCommittee:\n    - %s\n",
		Magic, chaintest.CommitteeKey.PublicKey().StringCompressed())
	sb.WriteString("  Hardforks:\n")
	for _, hf := range config.Hardforks() {
		fmt.Fprintf(&sb, "    %s: 0\n", hf)
	}
	sb.WriteString(extra)
	sb.WriteString("ApplicationConfiguration:\n  DBConfiguration:\n    Type: inmemory\n")
	f, err := config.LoadBytes("servicechain", []byte(sb.String()))
	if err != nil {
		t.Fatalf("config: %v\n%s", err, sb.String())
	}
	cfg, err := f.Blockchain()
	if err != nil {
		t.Fatal(err)
	}
	bc, err := core.New(cfg, storage.NewMemoryStore(), core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bc.Close() })
	return &Chain{T: t, BC: bc, Cfg: cfg, Key: chaintest.CommitteeKey, nonce: 1}
}

// CommitteeScript is the validator's (and committee's) 1-of-1 multisig.
func (c *Chain) CommitteeScript() []byte {
	s, err := smartcontract.CreateDefaultMultiSigRedeemScript([]*keys.PublicKey{c.Key.PublicKey()})
	if err != nil {
		c.T.Fatal(err)
	}
	return s
}

// CommitteeAccount is the committee's account (it holds the genesis GAS).
func (c *Chain) CommitteeAccount() hash.Uint160 { return hash.Hash160(c.CommitteeScript()) }

// PushData is an invocation script pushing b.
func PushData(b []byte) []byte {
	w := nio.NewBufBinWriter()
	emit.Bytes(w, b)
	return w.Bytes()
}

// NextBlock builds the signed block after the current one with txs.
func (c *Chain) NextBlock(txs ...*transaction.Transaction) *block.Block {
	prev, err := c.BC.GetHeader(c.BC.CurrentBlockHash())
	if err != nil {
		c.T.Fatal(err)
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
	b.Witness = transaction.Witness{InvocationScript: PushData(c.Key.Sign(sd[:])), VerificationScript: c.CommitteeScript()}
	return b
}

// AddBlock adds a block with txs (verified by the chain).
func (c *Chain) AddBlock(txs ...*transaction.Transaction) *block.Block {
	c.T.Helper()
	b := c.NextBlock(txs...)
	if err := c.BC.AddBlock(b); err != nil {
		c.T.Fatal(err)
	}
	return b
}

// AddPooled adds a block with every transaction of the memory pool.
func (c *Chain) AddPooled() *block.Block {
	c.T.Helper()
	return c.AddBlock(c.BC.Mempool().GetVerifiedTransactions()...)
}

// NewTx makes a transaction valid for 100 blocks with the given fees;
// signers get CalledByEntry unless given as Signers.
func (c *Chain) NewTx(script []byte, sysFee, netFee int64, signers ...transaction.Signer) *transaction.Transaction {
	tx := transaction.New(script, c.nonce, sysFee, netFee, c.BC.BlockHeight()+100)
	c.nonce++
	tx.Signers = signers
	return tx
}

// SignCommittee sets the committee's witness on tx (its only signer).
func (c *Chain) SignCommittee(tx *transaction.Transaction) *transaction.Transaction {
	sd := tx.SignData(Magic)
	tx.Witnesses = []transaction.Witness{{InvocationScript: PushData(c.Key.Sign(sd[:])), VerificationScript: c.CommitteeScript()}}
	return tx
}

// SigWitness is the single-signature witness of k for tx.
func SigWitness(tx *transaction.Transaction, k *keys.PrivateKey) transaction.Witness {
	sd := tx.SignData(Magic)
	return transaction.Witness{InvocationScript: PushData(k.Sign(sd[:])), VerificationScript: k.PublicKey().VerificationScript()}
}

// RunAs runs script in a new block as a transaction of k's standard
// account (which pays) and requires it to HALT.
func (c *Chain) RunAs(k *keys.PrivateKey, script []byte, sysFee int64) *state.AppExecResult {
	c.T.Helper()
	tx := c.NewTx(script, sysFee, 1000_0000, transaction.Signer{Account: k.ScriptHash(), Scopes: transaction.CalledByEntry})
	tx.Witnesses = []transaction.Witness{SigWitness(tx, k)}
	c.AddBlock(tx)
	aer := c.AppLog(tx.Hash())
	if aer.VMState != vmstate.Halt {
		c.T.Fatalf("tx faulted: %s", aer.FaultException)
	}
	return aer
}

// RunCommittee runs script in a new block as a committee transaction and
// requires it to HALT.
func (c *Chain) RunCommittee(script []byte, sysFee int64) *state.AppExecResult {
	c.T.Helper()
	tx := c.SignCommittee(c.NewTx(script, sysFee, 1000_0000,
		transaction.Signer{Account: c.CommitteeAccount(), Scopes: transaction.CalledByEntry}))
	c.AddBlock(tx)
	aer := c.AppLog(tx.Hash())
	if aer.VMState != vmstate.Halt {
		c.T.Fatalf("committee tx faulted: %s", aer.FaultException)
	}
	return aer
}

// AppLog returns the application execution result of a transaction.
func (c *Chain) AppLog(h hash.Uint256) *state.AppExecResult {
	c.T.Helper()
	aers, err := c.BC.GetAppExecResults(h, trigger.Application)
	if err != nil || len(aers) == 0 {
		c.T.Fatalf("no application log for %s: %v", h.StringLE(), err)
	}
	return &aers[0]
}

// Designate designates pubs for role (from the next block on).
func (c *Chain) Designate(role noderoles.Role, pubs []*keys.PublicKey) {
	c.T.Helper()
	args := make([]any, len(pubs))
	for i, p := range pubs {
		args[i] = p.Bytes()
	}
	c.RunCommittee(chaintest.CallScript(nativenames.DesignationHash, "designateAsRole", int64(role), args), 1_0000_0000)
}

// Deploy deploys the contract of b from the committee.
func (c *Chain) Deploy(b *chaintest.ContractBuilder) *state.Contract {
	c.T.Helper()
	f, m := b.Build()
	c.RunCommittee(chaintest.DeployScript(f, m), 50_0000_0000)
	cs := c.BC.GetContractState(smartcontract.GetContractHash(c.CommitteeAccount(), f.Checksum, b.Manifest.Name))
	if cs == nil {
		c.T.Fatal("deployed contract not found")
	}
	return cs
}

// TransferGAS sends amount GAS from the committee to to, with data.
func (c *Chain) TransferGAS(to hash.Uint160, amount int64, data any) {
	c.T.Helper()
	c.RunCommittee(chaintest.CallScript(nativenames.GasHash, "transfer", c.CommitteeAccount(), to, amount, data), 1_0000_0000)
}

// Keys returns n deterministic private keys derived from seed.
func Keys(t testing.TB, seed byte, n int) []*keys.PrivateKey {
	res := make([]*keys.PrivateKey, n)
	for i := range res {
		b := make([]byte, 32)
		b[0], b[30], b[31] = 1, seed, byte(i+1)
		k, err := keys.NewPrivateKeyFromBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = k
	}
	return res
}

// Pubs returns the public keys of ks, sorted as RoleManagement stores
// them.
func Pubs(ks []*keys.PrivateKey) []*keys.PublicKey {
	res := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		res[i] = k.PublicKey()
	}
	keys.SortPublicKeys(res)
	return res
}

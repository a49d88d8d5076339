package consensus

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

const (
	testMagic      = 56753
	testMsPerBlock = 15_000
)

// testKeys returns n deterministic keys sorted by public key, the order
// NEO gives validators in.
func testKeys(t testing.TB, n int) []*keys.PrivateKey {
	t.Helper()
	ks := make([]*keys.PrivateKey, n)
	for i := range ks {
		seed := sha256.Sum256([]byte(fmt.Sprintf("validator %d", i)))
		k, err := keys.NewPrivateKeyFromBytes(seed[:])
		if err != nil {
			t.Fatal(err)
		}
		ks[i] = k
	}
	slices.SortFunc(ks, func(a, b *keys.PrivateKey) int { return a.PublicKey().Cmp(b.PublicKey()) })
	return ks
}

func pubsOf(ks []*keys.PrivateKey) []*keys.PublicKey {
	ps := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		ps[i] = k.PublicKey()
	}
	return ps
}

func testConfig(n int) config.Blockchain {
	var c config.Blockchain
	c.Magic = testMagic
	c.MaxBlockSize = config.DefaultMaxBlockSize
	c.MaxBlockSystemFee = config.DefaultMaxBlockSystemFee
	c.MaxTransactionsPerBlock = config.DefaultMaxTransactionsPerBlock
	c.TimePerBlock = testMsPerBlock * time.Millisecond
	c.ValidatorsCount = uint32(n)
	return c
}

// newTx returns a distinct transaction of about size bytes with the given
// system fee.
func newTx(nonce uint32, sysFee int64, size int) *transaction.Transaction {
	script := make([]byte, max(1, size-120))
	script[0] = 0x40 // RET
	tx := transaction.New(script, nonce, sysFee, 1_000_000, 1000)
	tx.Signers = []transaction.Signer{{Account: hash.Uint160{byte(nonce), byte(nonce >> 8), 1}, Scopes: transaction.CalledByEntry}}
	tx.Witnesses = []transaction.Witness{{InvocationScript: make([]byte, 66), VerificationScript: make([]byte, 40)}}
	return tx
}

// fakePool is a Mempool holding transactions in the order they were added.
type fakePool struct {
	mu   sync.Mutex
	txs  []*transaction.Transaction
	byID map[hash.Uint256]*transaction.Transaction
	sub  chan struct{}
}

func (p *fakePool) GetVerifiedTransactions() []*transaction.Transaction {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.txs)
}

func (p *fakePool) TryGetValue(h hash.Uint256) (*transaction.Transaction, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	tx, ok := p.byID[h]
	return tx, ok
}

func (p *fakePool) RegisterTransactionAddedSubscriber(ch chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sub = ch
}

func (p *fakePool) Add(txs ...*transaction.Transaction) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byID == nil {
		p.byID = map[hash.Uint256]*transaction.Transaction{}
	}
	for _, tx := range txs {
		if _, ok := p.byID[tx.Hash()]; !ok {
			p.txs = append(p.txs, tx)
			p.byID[tx.Hash()] = tx
		}
	}
	if p.sub != nil {
		close(p.sub)
		p.sub = nil
	}
}

func (p *fakePool) Remove(txs []*transaction.Transaction) {
	p.mu.Lock()
	defer p.mu.Unlock()
	gone := false
	for _, tx := range txs {
		if _, ok := p.byID[tx.Hash()]; ok {
			delete(p.byID, tx.Hash())
			gone = true
		}
	}
	if gone {
		p.txs = slices.DeleteFunc(p.txs, func(x *transaction.Transaction) bool { _, ok := p.byID[x.Hash()]; return !ok })
	}
}

func (p *fakePool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.txs)
}

// fakeChain is an in-memory Ledger that checks every block it is given as
// a real one would: index, previous hash, timestamp, merkle root, limits
// and the validators' multi-signature witness over the network magic.
type fakeChain struct {
	mu         sync.Mutex
	cfg        config.Blockchain
	blocks     []*block.Block
	validators []*keys.PublicKey
	invalid    map[hash.Uint256]bool // transactions that do not verify
	onChain    map[hash.Uint256]bool
	pool       *fakePool
	// onAdd is called, without the lock, after a block is persisted.
	onAdd func(*block.Block)
	// refuse makes the next AddBlocks fail (a database refusing writes).
	refuse int
}

var errRefused = errors.New("writes paused")

func newFakeChain(t testing.TB, cfg config.Blockchain, validators []*keys.PublicKey, pool *fakePool) *fakeChain {
	g, err := block.NewGenesis(validators)
	if err != nil {
		t.Fatal(err)
	}
	return &fakeChain{cfg: cfg, blocks: []*block.Block{g}, validators: validators, invalid: map[hash.Uint256]bool{}, onChain: map[hash.Uint256]bool{}, pool: pool}
}

func (c *fakeChain) GetConfig() config.Blockchain { return c.cfg }

func (c *fakeChain) BlockHeight() uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return uint32(len(c.blocks) - 1)
}

func (c *fakeChain) CurrentBlockHash() hash.Uint256 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.blocks[len(c.blocks)-1].Hash()
}

func (c *fakeChain) GetHeader(h hash.Uint256) (*block.Header, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range c.blocks {
		if b.Hash() == h {
			return &b.Header, nil
		}
	}
	return nil, errors.New("no such block")
}

func (c *fakeChain) GetNextBlockValidators() ([]*keys.PublicKey, error) { return c.validators, nil }

func (c *fakeChain) ComputeNextBlockValidators() []*keys.PublicKey { return c.validators }

func (c *fakeChain) GetMillisecondsPerBlock() uint32 { return testMsPerBlock }

func (c *fakeChain) VerifyProposedTransactions(txs []*transaction.Transaction) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, tx := range txs {
		if c.invalid[tx.Hash()] {
			return &RejectedTxError{Hash: tx.Hash(), Err: errors.New("invalid")}
		}
		if c.onChain[tx.Hash()] {
			return &RejectedTxError{Hash: tx.Hash(), Err: errors.New("already on chain")}
		}
	}
	return nil
}

func (c *fakeChain) Blocks() []*block.Block {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.blocks)
}

func (c *fakeChain) AddBlock(b *block.Block) error {
	c.mu.Lock()
	if c.refuse > 0 {
		c.refuse--
		c.mu.Unlock()
		return errRefused
	}
	prev := c.blocks[len(c.blocks)-1]
	if err := checkBlock(&c.cfg, prev, b); err != nil {
		c.mu.Unlock()
		return err
	}
	c.blocks = append(c.blocks, b)
	for _, tx := range b.Transactions {
		c.onChain[tx.Hash()] = true
	}
	c.mu.Unlock()
	if c.pool != nil {
		c.pool.Remove(b.Transactions)
	}
	if c.onAdd != nil {
		c.onAdd(b)
	}
	return nil
}

var errNotNext = errors.New("not the next block")

// checkBlock is what a ledger checks of a new block.
func checkBlock(cfg *config.Blockchain, prev, b *block.Block) error {
	switch {
	case b.Index != prev.Index+1:
		return fmt.Errorf("%w: %d after %d", errNotNext, b.Index, prev.Index)
	case b.PrevHash != prev.Hash():
		return errors.New("wrong previous hash")
	case b.Timestamp <= prev.Timestamp:
		return errors.New("timestamp not after the previous one")
	case b.Version != 0:
		return errors.New("version")
	case b.MerkleRoot != b.ComputeMerkleRoot():
		return errors.New("merkle root")
	case len(b.Transactions) > int(cfg.MaxTransactionsPerBlock):
		return errors.New("too many transactions")
	case b.Size() > int(cfg.MaxBlockSize):
		return fmt.Errorf("block of %d bytes", b.Size())
	}
	var fee int64
	for _, tx := range b.Transactions {
		fee += tx.SystemFee
	}
	if fee > cfg.MaxBlockSystemFee {
		return errors.New("system fee")
	}
	if b.Witness.ScriptHash() != prev.NextConsensus {
		return errors.New("witness is not NextConsensus of the previous block")
	}
	d := b.SignData(testMagic)
	return verifyMultisig(&b.Witness, d[:])
}

// verifyMultisig runs a standard m-of-n witness as System.Crypto.
// CheckMultisig does: signatures in key order, each key used once.
func verifyMultisig(w *transaction.Witness, msg []byte) error {
	m, pubs, ok := smartcontract.ParseMultiSigContract(w.VerificationScript)
	if !ok {
		return errors.New("not a multisig script")
	}
	sigs, ok := smartcontract.ParseMultiSigInvocation(m, w.InvocationScript)
	if !ok {
		return errors.New("invocation script is not m signatures")
	}
	i, j := 0, 0
	for i < m && j < len(pubs) {
		if pubs[j].VerifyMessage(sigs[i], msg) {
			i++
		}
		j++
		if m-i > len(pubs)-j {
			break
		}
	}
	if i != m {
		return errors.New("multisig check failed")
	}
	return nil
}

// nullNet is a Broadcaster that counts what it is given.
type nullNet struct {
	mu   sync.Mutex
	sent int
}

func (n *nullNet) BroadcastExtensible(*message.Extensible) { n.mu.Lock(); n.sent++; n.mu.Unlock() }
func (n *nullNet) RequestTx(...hash.Uint256)               {}
func (n *nullNet) StopTxFlow()                             {}

package multinode

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// transferSystemFee is the system fee of a harness transfer (a GAS
// transfer costs about 0.01 GAS; the rest is burnt unused).
const transferSystemFee = 10_000_000

// validFor is how many blocks a harness transaction stays valid.
const validFor = 1000

// Committee signs transactions of the validators' 3-of-4 multisig
// account, which holds all NEO and GAS of a fresh network.
type Committee struct {
	*bench.Multisig
	nonce atomic.Uint32
}

// NewCommittee returns the committee of the 4-node network.
func NewCommittee() (*Committee, error) {
	m, err := bench.NewMultisig(bench.FourNodeWIFs)
	if err != nil {
		return nil, err
	}
	c := &Committee{Multisig: m}
	c.nonce.Store(0x6d6e0000) // "mn"
	return c, nil
}

// GASTransfer returns a signed transfer of amount datoshi of GAS from the
// committee to `to`, valid until height+validFor, with the network fee the
// default policy asks for.
func (c *Committee) GASTransfer(height uint32, to hash.Uint160, amount int64) *transaction.Transaction {
	return c.Transfer(nativenames.GasHash, height, to, amount)
}

// NEOTransfer is GASTransfer for NEO (amount in whole NEO).
func (c *Committee) NEOTransfer(height uint32, to hash.Uint160, amount int64) *transaction.Transaction {
	return c.Transfer(nativenames.NeoHash, height, to, amount)
}

// Transfer returns a signed NEP-17 transfer of a token from the committee.
func (c *Committee) Transfer(token hash.Uint160, height uint32, to hash.Uint160, amount int64) *transaction.Transaction {
	script := bench.TransferScript(token, c.Account, to, amount)
	nonce := c.nonce.Add(1)
	build := func(netfee int64) *transaction.Transaction {
		tx := transaction.New(script, nonce, transferSystemFee, netfee, height+validFor)
		tx.Signers = []transaction.Signer{{Account: c.Account, Scopes: transaction.CalledByEntry}}
		c.Sign(tx, Magic)
		return tx
	}
	tx := build(0)
	return build(bench.RequiredNetworkFee(tx, bench.DefaultFeePerByte, bench.DefaultExecFeeFactor))
}

// Send sends a transaction to a node and checks the hash it reports.
func Send(ctx context.Context, n *Node, tx *transaction.Transaction) (hash.Uint256, error) {
	got, err := n.RPC.SendRawTransaction(ctx, tx.Bytes())
	if err != nil {
		return hash.Uint256{}, fmt.Errorf("multinode: %s: sendrawtransaction: %w", n.Name, err)
	}
	if want := tx.Hash().String(); got != want {
		return hash.Uint256{}, fmt.Errorf("multinode: %s: sendrawtransaction answered %s for %s", n.Name, got, want)
	}
	return tx.Hash(), nil
}

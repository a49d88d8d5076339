package sim

import (
	"fmt"
	"slices"
	"time"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
)

// payer is the account transactions are paid from: the validators'
// multi-signature account, which holds the genesis GAS.
type payer struct {
	script  []byte
	account hash.Uint160
	signers []*keys.PrivateKey // M keys, in the order of the script's keys
}

func newPayer(ks []*keys.PrivateKey) (*payer, error) {
	pubs := make([]*keys.PublicKey, len(ks))
	for i, k := range ks {
		pubs[i] = k.PublicKey()
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
	if err != nil {
		return nil, err
	}
	sorted := slices.Clone(ks)
	slices.SortFunc(sorted, func(a, b *keys.PrivateKey) int { return a.PublicKey().Cmp(b.PublicKey()) })
	m := smartcontract.GetDefaultHonestNodeCount(len(ks))
	return &payer{script: script, account: hash.Hash160(script), signers: sorted[:m]}, nil
}

// newTx makes a valid transaction (a script that pushes a number) paid by
// the payer, valid for the next 100 blocks.
func (w *world) newTx(height uint32) *transaction.Transaction {
	tx := transaction.New([]byte{0x11, 0x45}, w.rng.Uint32(), 1_000_000, 10_000_000, height+100) // PUSH1 DROP
	tx.Signers = []transaction.Signer{{Account: w.payer.account, Scopes: transaction.None}}
	sd := tx.SignData(uint32(w.chain.Magic))
	bw := nio.NewBufBinWriter()
	for _, k := range w.payer.signers {
		emit.Bytes(bw, k.Sign(sd[:]))
	}
	tx.Witnesses = []transaction.Witness{{InvocationScript: bw.Bytes(), VerificationScript: w.payer.script}}
	return tx
}

// loadLoop submits a transaction to a random running node every 100-600
// ms and relays it to the nodes that node reaches, as the P2P layer
// would.
func (w *world) loadLoop() {
	var tick func()
	tick = func() {
		n := w.nodes[w.rng.IntN(len(w.nodes))]
		if n.up {
			tx := w.newTx(n.chain.BlockHeight())
			if err := n.chain.PoolTx(tx); err == nil {
				w.res.Txs++
				for _, o := range w.nodes {
					if o != n && w.reachable(n.i, o.i) && w.rng.Float64() >= w.net.loss {
						w.push(&event{at: w.clock.now.Add(w.latency()), to: o.i, kind: evTx, tx: tx})
					}
				}
			}
		}
		w.at(time.Duration(100+w.rng.IntN(500))*time.Millisecond, tick)
	}
	w.at(0, tick)
}

// requestTx answers a node's consensus asking for transactions: any
// reachable node that has one sends it.
func (w *world) requestTx(n *node, hs []hash.Uint256) {
	for _, h := range hs {
		for _, o := range w.nodes {
			if o == n || !w.reachable(o.i, n.i) {
				continue
			}
			if tx, ok := o.chain.Mempool().TryGetValue(h); ok {
				w.push(&event{at: w.clock.now.Add(w.latency() + w.latency()), to: n.i, kind: evTx, tx: tx, requested: true})
				break
			}
		}
	}
}

// deliverTx pools a transaction on a node; one it asked for also goes to
// its consensus.
func (n *node) deliverTx(tx *transaction.Transaction, requested bool) {
	err := n.chain.PoolTx(tx)
	if requested && n.st != nil && (err == nil || n.chain.Mempool().ContainsKey(tx.Hash())) {
		n.st.OnTransaction(tx)
	}
	if c := n.chain.Mempool().Count(); c > n.w.chain.MemPoolSize {
		n.w.fail(fmt.Sprintf("bounded queues: node %d pools %d transactions, capacity %d", n.i, c, n.w.chain.MemPoolSize))
	}
}

package sim

import (
	"fmt"
	"time"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// payer is the account transactions are paid from: a single-signature
// account the genesis block funds from the validators' multi-signature
// account (Genesis.Transaction). A single signature keeps the load cheap
// to verify on every node (a multi-signature payer made M verifications
// per transaction and node, half of a run's CPU); the validators'
// multi-signature script is still checked on every block.
type payer struct {
	key     *keys.PrivateKey
	script  []byte
	account hash.Uint160
}

// payerFunds is what the genesis block gives the payer: 1,000,000 GAS.
const payerFunds = 1_000_000_0000_0000

func newPayer() (*payer, error) {
	b := make([]byte, 32)
	b[0], b[31] = 0x7a, 0x01
	k, err := keys.NewPrivateKeyFromBytes(b)
	if err != nil {
		return nil, err
	}
	script := k.PublicKey().VerificationScript()
	return &payer{key: k, script: script, account: hash.Hash160(script)}, nil
}

// fundScript is the genesis script that moves payerFunds from the
// validators' multi-signature account to the payer.
func (p *payer) fundScript(validators []*keys.PrivateKey) ([]byte, error) {
	pubs := make([]*keys.PublicKey, len(validators))
	for i, k := range validators {
		pubs[i] = k.PublicKey()
	}
	multi, err := smartcontract.CreateDefaultMultiSigRedeemScript(pubs)
	if err != nil {
		return nil, err
	}
	return emit.Script(func(w *nio.BinWriter) {
		emit.AppCall(w, nativenames.GasHash, "transfer", callflag.All, hash.Hash160(multi), p.account, int64(payerFunds), nil)
		emit.Opcodes(w, opcode.ASSERT)
	})
}

// newTx makes a valid transaction (a script that pushes a number) paid by
// the payer, valid for the next 100 blocks.
func (w *world) newTx(height uint32) *transaction.Transaction {
	tx := transaction.New([]byte{0x11, 0x45}, w.rng.Uint32(), 1_000_000, 10_000_000, height+100) // PUSH1 DROP
	tx.Signers = []transaction.Signer{{Account: w.payer.account, Scopes: transaction.None}}
	sd := tx.SignData(uint32(w.chain.Magic))
	bw := nio.NewBufBinWriter()
	emit.Bytes(bw, w.payer.key.Sign(sd[:]))
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

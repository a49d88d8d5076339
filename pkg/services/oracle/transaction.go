package oracle

import (
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"

	nio "github.com/n3node/n3node/pkg/io"
)

// incompleteTx is the response state of one request: the response and
// backup transactions (once this node built them) and the signatures of
// both collected so far (neo-go incompleteTx).
type incompleteTx struct {
	mu sync.Mutex
	// sent is the completed transaction handed to OnTransaction (nil
	// until then).
	sent *transaction.Transaction
	// attempts counts processings of the request.
	attempts int
	// time of the last processing (zero: never processed here).
	time    time.Time
	request *state.OracleRequest
	// main answers the request; backup (code ConsensusUnreachable) is sent
	// instead when main cannot gather enough signatures in time.
	main, backup candidate
}

// candidate is a transaction that may answer a request and the signatures
// collected for it, by compressed key bytes. Signatures may arrive before tx
// is built.
type candidate struct {
	tx   *transaction.Transaction
	sigs map[string]*txSignature
}

type txSignature struct {
	pub *keys.PublicKey
	// ok: verified against the transaction it is filed under.
	ok  bool
	sig []byte
}

func newIncompleteTx() *incompleteTx {
	t := new(incompleteTx)
	t.main.sigs = make(map[string]*txSignature)
	t.backup.sigs = make(map[string]*txSignature)
	return t
}

// reverify checks the signatures that arrived before the transactions
// were built: each is filed under the one it signs (dropped otherwise).
func (t *incompleteTx) reverify(network uint32) {
	txData := t.main.tx.SignData(network)
	backupData := t.backup.tx.SignData(network)
	for k, s := range t.main.sigs {
		if s.ok {
			continue
		}
		s.ok = s.pub.VerifyMessage(s.sig, txData[:])
		if !s.ok && s.pub.VerifyMessage(s.sig, backupData[:]) {
			t.backup.sigs[k] = &txSignature{pub: s.pub, ok: true, sig: s.sig}
		}
	}
}

// add files a signature (verified if the transaction exists).
func (t *incompleteTx) add(pub *keys.PublicKey, sig []byte, backup bool) {
	c := &t.main
	if backup {
		c = &t.backup
	}
	c.sigs[string(pub.Bytes())] = &txSignature{pub: pub, ok: c.tx != nil, sig: sig}
}

// finalize returns the response transaction completed with M signatures
// if it has them, else the backup one if it has (only the backup with
// backupOnly), else nil.
func (t *incompleteTx) finalize(nodes []*keys.PublicKey, backupOnly bool) *transaction.Transaction {
	if !backupOnly {
		if tx := t.main.complete(nodes); tx != nil {
			return tx
		}
	}
	return t.backup.complete(nodes)
}

// finalizeOnce is finalize (main or backup) for the first completion: once
// a transaction has been sent (t.sent), it returns nil. t.mu is held.
func (t *incompleteTx) finalizeOnce(nodes []*keys.PublicKey) *transaction.Transaction {
	ready := t.finalize(nodes, false)
	if ready == nil || t.sent != nil {
		return nil
	}
	t.sent = ready
	return ready
}

// complete returns a copy of c.tx whose multisig witness holds the first M
// valid signatures in designation order (neo-go finalizeTx, which fills
// in tx itself; a copy keeps a pooled transaction untouched).
func (c *candidate) complete(nodes []*keys.PublicKey) *transaction.Transaction {
	if c.tx == nil || len(nodes) == 0 {
		return nil
	}
	m := smartcontract.GetDefaultHonestNodeCount(len(nodes))
	got := make([][]byte, 0, m)
	for _, pub := range nodes {
		if s, ok := c.sigs[string(pub.Bytes())]; ok && s.ok {
			got = append(got, s.sig)
			if len(got) == m {
				break
			}
		}
	}
	if len(got) != m {
		return nil
	}
	w := nio.NewBufBinWriter()
	for _, s := range got {
		emit.Bytes(w, s)
	}
	cp := c.tx.Copy()
	cp.Witnesses[1].InvocationScript = w.Bytes()
	cp.Hash() // fill the caches now: the copy is shared read-only from here
	cp.Size()
	return cp
}

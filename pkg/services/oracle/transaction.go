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

	tx         *transaction.Transaction
	sigs       map[string]*txSignature
	backupTx   *transaction.Transaction
	backupSigs map[string]*txSignature
}

type txSignature struct {
	pub *keys.PublicKey
	// ok: verified against the transaction it is filed under.
	ok  bool
	sig []byte
}

func newIncompleteTx() *incompleteTx {
	return &incompleteTx{sigs: make(map[string]*txSignature), backupSigs: make(map[string]*txSignature)}
}

// reverify checks the signatures that arrived before the transactions
// were built: each is filed under the one it signs (dropped otherwise).
func (t *incompleteTx) reverify(network uint32) {
	txData := t.tx.SignData(network)
	backupData := t.backupTx.SignData(network)
	for k, s := range t.sigs {
		if s.ok {
			continue
		}
		s.ok = s.pub.VerifyMessage(s.sig, txData[:])
		if !s.ok && s.pub.VerifyMessage(s.sig, backupData[:]) {
			t.backupSigs[k] = &txSignature{pub: s.pub, ok: true, sig: s.sig}
		}
	}
}

// add files a signature (verified if the transaction exists).
func (t *incompleteTx) add(pub *keys.PublicKey, sig []byte, backup bool) {
	tx, sigs := t.tx, t.sigs
	if backup {
		tx, sigs = t.backupTx, t.backupSigs
	}
	sigs[string(pub.Bytes())] = &txSignature{pub: pub, ok: tx != nil, sig: sig}
}

// finalize returns the response transaction completed with M signatures
// if it has them, else the backup one if it has (only the backup with
// backupOnly), else nil.
func (t *incompleteTx) finalize(nodes []*keys.PublicKey, backupOnly bool) *transaction.Transaction {
	if !backupOnly {
		if tx := complete(nodes, t.tx, t.sigs); tx != nil {
			return tx
		}
	}
	return complete(nodes, t.backupTx, t.backupSigs)
}

// complete returns a copy of tx whose multisig witness holds the first M
// valid signatures in designation order (neo-go finalizeTx, which fills
// in tx itself; a copy keeps a pooled transaction untouched).
func complete(nodes []*keys.PublicKey, tx *transaction.Transaction, sigs map[string]*txSignature) *transaction.Transaction {
	if tx == nil || len(nodes) == 0 {
		return nil
	}
	m := smartcontract.GetDefaultHonestNodeCount(len(nodes))
	got := make([][]byte, 0, m)
	for _, pub := range nodes {
		if s, ok := sigs[string(pub.Bytes())]; ok && s.ok {
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
	cp := tx.Copy()
	cp.Witnesses[1].InvocationScript = w.Bytes()
	cp.Hash() // fill the caches now: the copy is shared read-only from here
	cp.Size()
	return cp
}

package payload

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// ErrNotaryRequest is set (wrapped) when a P2PNotaryRequest breaks one of
// neo-go's structural rules.
var ErrNotaryRequest = errors.New("invalid P2PNotaryRequest")

// signatureLen is the length of an ECDSA signature (neo-go keys.SignatureLen).
const signatureLen = 64

// opPushData1 is the PUSHDATA1 opcode.
const opPushData1 = 0x0c

// P2PNotaryRequest is neo-go's P2PSigExtensions payload: a main
// transaction that needs more signatures and a fallback transaction,
// signed by the fallback's payer. Its hash is SHA-256 of both
// transactions' encodings.
type P2PNotaryRequest struct {
	MainTransaction     *transaction.Transaction
	FallbackTransaction *transaction.Transaction
	Witness             transaction.Witness

	hash   hash.Uint256
	hashed bool
}

// Size returns the encoded size.
func (n *P2PNotaryRequest) Size() int {
	return n.MainTransaction.Size() + n.FallbackTransaction.Size() + n.Witness.Size()
}

// EncodeBinary implements io.Encodable.
func (n *P2PNotaryRequest) EncodeBinary(w *nio.BinWriter) {
	n.MainTransaction.EncodeBinary(w)
	n.FallbackTransaction.EncodeBinary(w)
	n.Witness.EncodeBinary(w)
}

// DecodeBinary implements io.Decodable with neo-go's checks
// (P2PNotaryRequest.isValid).
func (n *P2PNotaryRequest) DecodeBinary(r *nio.BinReader) {
	*n = P2PNotaryRequest{MainTransaction: new(transaction.Transaction), FallbackTransaction: new(transaction.Transaction)}
	n.MainTransaction.DecodeBinary(r)
	n.FallbackTransaction.DecodeBinary(r)
	if r.Err != nil {
		return
	}
	if err := n.check(); err != nil {
		r.SetError(err)
		return
	}
	n.Witness.DecodeBinary(r)
}

// check applies neo-go's structural rules.
func (n *P2PNotaryRequest) check() error {
	main, fb := n.MainTransaction, n.FallbackTransaction
	na := main.GetAttributes(transaction.NotaryAssistedT)
	if nKeys(na) <= 0 {
		return fmt.Errorf("%w: main transaction needs NotaryAssisted with NKeys > 0", ErrNotaryRequest)
	}
	if len(fb.Signers) != 2 {
		return fmt.Errorf("%w: fallback transaction needs two signers, got %d", ErrNotaryRequest, len(fb.Signers))
	}
	inv := fb.Witnesses[0].InvocationScript
	if len(inv) != 2+signatureLen || len(fb.Witnesses[0].VerificationScript) != 0 ||
		!bytes.HasPrefix(inv, []byte{opPushData1, signatureLen}) {
		return fmt.Errorf("%w: fallback transaction has an invalid dummy Notary witness", ErrNotaryRequest)
	}
	if !fb.HasAttribute(transaction.NotValidBeforeT) {
		return fmt.Errorf("%w: fallback transaction needs NotValidBefore", ErrNotaryRequest)
	}
	cs := fb.GetAttributes(transaction.ConflictsT)
	if c, ok := conflict(cs); !ok || c != main.Hash() {
		return fmt.Errorf("%w: fallback transaction must conflict with the main transaction only", ErrNotaryRequest)
	}
	na = fb.GetAttributes(transaction.NotaryAssistedT)
	if nKeys(na) != 0 {
		return fmt.Errorf("%w: fallback transaction needs NotaryAssisted with NKeys = 0", ErrNotaryRequest)
	}
	if main.ValidUntilBlock != fb.ValidUntilBlock {
		return fmt.Errorf("%w: ValidUntilBlock differs (%d, %d)", ErrNotaryRequest, main.ValidUntilBlock, fb.ValidUntilBlock)
	}
	return nil
}

// Hash returns SHA-256 of the two transactions' encodings, cached on first
// use. Servers key requests by the fallback transaction's hash instead.
func (n *P2PNotaryRequest) Hash() hash.Uint256 {
	if !n.hashed {
		w := nio.NewBinWriterWithCap(n.MainTransaction.Size() + n.FallbackTransaction.Size())
		n.MainTransaction.EncodeBinary(w)
		n.FallbackTransaction.EncodeBinary(w)
		n.hash = sha256.Sum256(w.Bytes())
		n.hashed = true
	}
	return n.hash
}

// nKeys returns NKeys of the first NotaryAssisted attribute in as, or -1.
func nKeys(as []transaction.Attribute) int {
	if len(as) == 0 {
		return -1
	}
	if v, ok := as[0].Value.(*transaction.NotaryAssisted); ok {
		return int(v.NKeys)
	}
	return -1
}

// conflict returns the hash of the only Conflicts attribute in cs.
func conflict(cs []transaction.Attribute) (hash.Uint256, bool) {
	if len(cs) != 1 {
		return hash.Uint256{}, false
	}
	v, ok := cs[0].Value.(*transaction.Conflicts)
	if !ok {
		return hash.Uint256{}, false
	}
	return v.Hash, true
}

package notary

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// RequestType is the kind of witness a main transaction's signer needs
// (neo-go notary.RequestType).
type RequestType byte

// Witness kinds.
const (
	// Signature: a single-signature account; one signature to collect.
	Signature RequestType = 0x01
	// MultiSignature: an m-of-n multisig account; m signatures.
	MultiSignature RequestType = 0x02
	// Contract: a contract account (empty verification script) or the
	// Notary contract; nothing to collect.
	Contract RequestType = 0x03
	// AppCall: a verification script calling a contract with arguments
	// some of which the requests supply (not verified here).
	AppCall RequestType = 0x04
)

// witnessInfo is the collection state of one signer's witness.
type witnessInfo struct {
	typ RequestType
	// left is how many parts are still missing (0: complete).
	left uint8
	// pubs are the keys of a Signature or MultiSignature witness, in
	// script order.
	pubs []*keys.PublicKey
	// sigs are the collected multisig parts (PUSHDATA1 64 sig) by key.
	sigs map[*keys.PublicKey][]byte
	// args are the collected AppCall invocation parts, in arrival order.
	args [][]byte
}

// verifyIncompleteWitnesses checks the witnesses of a main transaction
// (neo-go verifyIncompleteWitnesses): at least two signers, the Notary
// contract among them, every witness either a contract one (empty
// scripts), a signature or multisig script of its signer with no or one
// signature, or a contract call script; the keys to collect must add up
// to nKeys (NotaryAssisted).
func verifyIncompleteWitnesses(tx *transaction.Transaction, nKeys uint8) ([]witnessInfo, error) {
	if len(tx.Signers) < 2 {
		return nil, errors.New("transaction should have at least 2 signers")
	}
	if !tx.HasSigner(nativenames.NotaryHash) {
		return nil, errors.New("P2PNotary contract should be a signer of the transaction")
	}
	var actual uint8
	res := make([]witnessInfo, len(tx.Signers))
	for i, w := range tx.Witnesses {
		if len(w.VerificationScript) == 0 {
			if len(w.InvocationScript) != 0 {
				return nil, fmt.Errorf("witness #%d: only empty invocation scripts are supported for contract accounts", i)
			}
			res[i] = witnessInfo{typ: Contract}
			continue
		}
		if tx.Signers[i].Account != hash.Hash160(w.VerificationScript) {
			return nil, fmt.Errorf("transaction should have valid verification script for signer #%d", i)
		}
		if m, pubBytes, ok := ParseMultiSig(w.VerificationScript); ok {
			if err := checkPartialInvocation(w.InvocationScript); err != nil {
				return nil, fmt.Errorf("witness #%d: %w", i, err)
			}
			res[i] = witnessInfo{typ: MultiSignature, left: uint8(m), pubs: make([]*keys.PublicKey, len(pubBytes))}
			for j, b := range pubBytes {
				pub, err := keys.NewPublicKeyFromBytes(b)
				if err != nil {
					return nil, fmt.Errorf("witness #%d: invalid bytes of #%d public key: %x", i, j, b)
				}
				res[i].pubs[j] = pub
			}
			actual += uint8(len(pubBytes))
			continue
		}
		if b, ok := ParseSignature(w.VerificationScript); ok {
			if err := checkPartialInvocation(w.InvocationScript); err != nil {
				return nil, fmt.Errorf("witness #%d: %w", i, err)
			}
			pub, err := keys.NewPublicKeyFromBytes(b)
			if err != nil {
				return nil, fmt.Errorf("witness #%d: invalid bytes of public key: %x", i, b)
			}
			res[i] = witnessInfo{typ: Signature, left: 1, pubs: []*keys.PublicKey{pub}}
			actual++
			continue
		}
		n, m, err := ParseAppCall(w.VerificationScript)
		if err != nil {
			return nil, fmt.Errorf("witness #%d: unable to detect witness type, only sig/multisig/contract are supported, custom AppCall parsing failed: %w", i, err)
		}
		left := uint8(n - m)
		res[i] = witnessInfo{typ: AppCall, left: left}
		actual += left
	}
	if actual != nKeys {
		return nil, fmt.Errorf("expected and actual NKeys mismatch: %d vs %d", nKeys, actual)
	}
	return res, nil
}

// signatureInvocation is PUSHDATA1 64.
var signatureInvocation = []byte{byte(opcode.PUSHDATA1), keys.SignatureLen}

// checkPartialInvocation accepts an empty invocation script or one
// signature push (verified later).
func checkPartialInvocation(inv []byte) error {
	if len(inv) != 0 && (len(inv) != 66 || !bytes.HasPrefix(inv, signatureInvocation)) {
		return errors.New("invocation script should have length = 66 and be of the form [PUSHDATA1, 64, signatureBytes...]")
	}
	return nil
}

package message

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// Payload errors.
var (
	ErrCategory      = errors.New("extensible payload is not a consensus payload")
	ErrSender        = errors.New("consensus payload sender is not the validator")
	ErrWitnessScript = errors.New("consensus payload witness is not the validator's signature contract")
	ErrSignature     = errors.New("consensus payload signature is invalid")
)

// Payload is a consensus message in its extensible envelope. Data always
// holds the bytes the hash and signature cover: received bytes for a
// decoded payload, the message's encoding for one built here.
type Payload struct {
	Extensible
	Message *Message
}

// NewPayload wraps m in an unsigned envelope from sender: category
// "dBFT", valid from block 0 to m.BlockIndex, Data = m's encoding.
func NewPayload(m *Message, sender hash.Uint160) *Payload {
	p := &Payload{Message: m}
	p.Category = Category
	p.Sender = sender
	p.Encode()
	return p
}

// Encode re-encodes Data and the validity range from Message (after
// Message was changed) and drops the cached hash. A message without a
// body encodes as empty Data.
func (p *Payload) Encode() {
	p.ValidBlockStart = 0
	p.ValidBlockEnd = p.Message.BlockIndex
	p.Data, _ = p.Message.Bytes()
	p.ResetHash()
}

// Sign makes key's signature the witness. Sender must already be key's
// script hash.
func (p *Payload) Sign(magic uint32, key *keys.PrivateKey) {
	d := p.SignData(magic)
	sig := key.Sign(d[:])
	inv := make([]byte, 0, 2+len(sig))
	inv = append(inv, 0x0c, byte(len(sig))) // PUSHDATA1 <sig>
	p.Witness.InvocationScript = append(inv, sig...)
	p.Witness.VerificationScript = key.PublicKey().VerificationScript()
}

// FromExtensible decodes a consensus payload from e, which must be of the
// "dBFT" category. The payload keeps e's fields (and its Data slice).
func FromExtensible(e *Extensible) (*Payload, error) { return FromExtensibleFormat(e, false) }

// FromExtensibleFormat is FromExtensible for a network with or without
// StateRootInHeader.
func FromExtensibleFormat(e *Extensible, stateRootInHeader bool) (*Payload, error) {
	if e.Category != Category {
		return nil, fmt.Errorf("%w: %q", ErrCategory, e.Category)
	}
	m, err := DecodeFormat(e.Data, stateRootInHeader)
	if err != nil {
		return nil, err
	}
	p := &Payload{Extensible: *e, Message: m}
	p.ResetHash()
	return p, nil
}

// VerifyWitness checks that p was sent and signed by pub: Sender is pub's
// signature contract, the witness runs that contract, and its invocation
// script is PUSHDATA1 with a valid signature over magic || hash. Honest C#
// and neo-go nodes write exactly this form; other scripts that a VM would
// accept are refused.
func (p *Payload) VerifyWitness(magic uint32, pub *keys.PublicKey) error {
	if p.Sender != pub.ScriptHash() {
		return ErrSender
	}
	if !bytes.Equal(p.Witness.VerificationScript, pub.VerificationScript()) {
		return ErrWitnessScript
	}
	sig, ok := smartcontract.ParseSignatureInvocation(p.Witness.InvocationScript)
	if !ok {
		return ErrWitnessScript
	}
	d := p.SignData(magic)
	if !pub.VerifyMessage(sig, d[:]) {
		return ErrSignature
	}
	return nil
}

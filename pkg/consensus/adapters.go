package consensus

import (
	"errors"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/nspcc-dev/dbft"
)

// This file adapts package message and core/block to the interfaces of
// dbft v0.4.0. dbft counts time in nanoseconds, the wire in milliseconds.

// nsInMs converts between the two.
const nsInMs = 1_000_000

// Hash is the dbft hash type.
type Hash = hash.Uint256

var (
	_ dbft.ConsensusPayload[Hash] = (*payload)(nil)
	_ dbft.Block[Hash]            = (*neoBlock)(nil)
	_ dbft.Transaction[Hash]      = (*transaction.Transaction)(nil)
	_ dbft.PrepareRequest[Hash]   = prepareRequest{}
	_ dbft.PrepareResponse[Hash]  = prepareResponse{}
	_ dbft.ChangeView             = changeView{}
	_ dbft.Commit                 = commit{}
	_ dbft.RecoveryRequest        = recoveryRequest{}
	_ dbft.RecoveryMessage[Hash]  = (*recoveryMessage)(nil)
)

// payload is a consensus payload as dbft sees it.
type payload struct {
	p *message.Payload
	// dirty means Message changed since Data was encoded (own payloads
	// before they are signed).
	dirty bool
	// s is the service, for rebuilding recovery messages.
	s *Service
}

func (d *payload) sync() {
	if d.dirty {
		d.p.Encode()
		d.dirty = false
	}
}

// ViewNumber implements dbft.ConsensusMessage.
func (d *payload) ViewNumber() byte { return d.p.Message.ViewNumber }

// Type implements dbft.ConsensusMessage.
func (d *payload) Type() dbft.MessageType { return dbft.MessageType(d.p.Message.Type()) }

// Payload implements dbft.ConsensusMessage.
func (d *payload) Payload() any {
	switch b := d.p.Message.Body.(type) {
	case *message.ChangeView:
		return changeView{b, d.p.Message.ViewNumber + 1}
	case *message.PrepareRequest:
		return prepareRequest{b}
	case *message.PrepareResponse:
		return prepareResponse{b}
	case *message.Commit:
		return commit{b}
	case *message.RecoveryRequest:
		return recoveryRequest{b}
	case *message.RecoveryMessage:
		return &recoveryMessage{m: b, s: d.s}
	}
	return nil
}

// GetChangeView implements dbft.ConsensusMessage.
func (d *payload) GetChangeView() dbft.ChangeView {
	b, _ := d.Payload().(changeView)
	return b
}

// GetPrepareRequest implements dbft.ConsensusMessage.
func (d *payload) GetPrepareRequest() dbft.PrepareRequest[Hash] {
	if b, ok := d.Payload().(prepareRequest); ok {
		return b
	}
	return nil
}

// GetPrepareResponse implements dbft.ConsensusMessage.
func (d *payload) GetPrepareResponse() dbft.PrepareResponse[Hash] {
	if b, ok := d.Payload().(prepareResponse); ok {
		return b
	}
	return nil
}

// GetPreCommit implements dbft.ConsensusMessage; N3 has no PreCommits.
func (d *payload) GetPreCommit() dbft.PreCommit { return nil }

// GetCommit implements dbft.ConsensusMessage.
func (d *payload) GetCommit() dbft.Commit {
	if b, ok := d.Payload().(commit); ok {
		return b
	}
	return nil
}

// GetRecoveryRequest implements dbft.ConsensusMessage.
func (d *payload) GetRecoveryRequest() dbft.RecoveryRequest {
	if b, ok := d.Payload().(recoveryRequest); ok {
		return b
	}
	return nil
}

// GetRecoveryMessage implements dbft.ConsensusMessage.
func (d *payload) GetRecoveryMessage() dbft.RecoveryMessage[Hash] {
	if b, ok := d.Payload().(*recoveryMessage); ok {
		return b
	}
	return nil
}

// ValidatorIndex implements dbft.ConsensusPayload.
func (d *payload) ValidatorIndex() uint16 { return uint16(d.p.Message.ValidatorIndex) }

// SetValidatorIndex implements dbft.ConsensusPayload.
func (d *payload) SetValidatorIndex(i uint16) {
	if d.p.Message.ValidatorIndex != uint8(i) {
		d.p.Message.ValidatorIndex = uint8(i)
		d.dirty = true
	}
}

// Height implements dbft.ConsensusPayload.
func (d *payload) Height() uint32 { return d.p.Message.BlockIndex }

// Hash implements dbft.ConsensusPayload: the envelope hash.
func (d *payload) Hash() Hash {
	d.sync()
	return d.p.Hash()
}

// Message bodies.

type changeView struct {
	m       *message.ChangeView
	newView byte
}

func (c changeView) NewViewNumber() byte { return c.newView }

func (c changeView) Reason() dbft.ChangeViewReason { return dbft.ChangeViewReason(c.m.Reason) }

type prepareRequest struct{ m *message.PrepareRequest }

func (p prepareRequest) Timestamp() uint64 { return p.m.Timestamp * nsInMs }

func (p prepareRequest) Nonce() uint64 { return p.m.Nonce }

func (p prepareRequest) TransactionHashes() []Hash { return p.m.TransactionHashes }

type prepareResponse struct{ m *message.PrepareResponse }

func (p prepareResponse) PreparationHash() Hash { return p.m.PreparationHash }

type commit struct{ m *message.Commit }

func (c commit) Signature() []byte { return c.m.Signature[:] }

type recoveryRequest struct{ m *message.RecoveryRequest }

func (r recoveryRequest) Timestamp() uint64 { return r.m.Timestamp * nsInMs }

// recoveryMessage rebuilds the payloads a received RecoveryMessage stands
// for, keeping only those whose signatures verify (neo-go 0.120.0 takes
// them unchecked; C# re-verifies them).
type recoveryMessage struct {
	m *message.RecoveryMessage
	s *Service
}

// AddPayload implements dbft.RecoveryMessage.
func (r *recoveryMessage) AddPayload(p dbft.ConsensusPayload[Hash]) {
	d := p.(*payload)
	d.sync()
	r.m.AddPayload(d.p)
}

// GetPrepareRequest implements dbft.RecoveryMessage. dbft asks only for
// the recovery message's own view, whose primary is the one it passes.
func (r *recoveryMessage) GetPrepareRequest(p dbft.ConsensusPayload[Hash], validators []dbft.PublicKey, _ uint16) dbft.ConsensusPayload[Hash] {
	rec := p.(*payload).p.Message
	req := r.m.RecoveredPrepareRequest(rec, pubKeys(validators))
	if req == nil || !r.s.verifyRecovered(req, validators) {
		return nil
	}
	return r.s.wrap(req)
}

// preparationHash is the hash the recovered PrepareResponses agree on:
// that of the embedded request, the one on the wire, or that of the
// request this node has (C# GetPrepareResponsePayloads).
func (r *recoveryMessage) preparationHash(rec *message.Message, validators []dbft.PublicKey) *Hash {
	if req := r.m.RecoveredPrepareRequest(rec, pubKeys(validators)); req != nil {
		h := req.Hash()
		return &h
	}
	if r.m.PreparationHash != nil {
		return r.m.PreparationHash
	}
	d := r.s.dbft
	if int(d.PrimaryIndex) < len(d.PreparationPayloads) && d.ViewNumber == rec.ViewNumber {
		if own := d.PreparationPayloads[d.PrimaryIndex]; own != nil {
			h := own.Hash()
			return &h
		}
	}
	return nil
}

// GetPrepareResponses implements dbft.RecoveryMessage.
func (r *recoveryMessage) GetPrepareResponses(p dbft.ConsensusPayload[Hash], validators []dbft.PublicKey) []dbft.ConsensusPayload[Hash] {
	rec := p.(*payload).p.Message
	h := r.preparationHash(rec, validators)
	if h == nil {
		return nil
	}
	var out []dbft.ConsensusPayload[Hash]
	for _, q := range r.m.RecoveredPrepareResponses(rec, pubKeys(validators), *h) {
		if int(q.Message.ValidatorIndex) == r.s.dbft.MyIndex {
			// Our own, from before a restart: dbft would take it as sent
			// and then ignore the transactions the proposal still lacks
			// here (the pool was lost), and never commit (finding 5).
			// Without it dbft answers the proposal anew once it has them.
			continue
		}
		if r.s.verifyRecovered(q, validators) {
			out = append(out, r.s.wrap(q))
		}
	}
	return out
}

// cvReasons are the reasons tried, most likely first, when rebuilding a
// ChangeView whose compact form lost its reason.
var cvReasons = []struct {
	r      message.ChangeViewReason
	hashes bool
}{
	{message.CVTimeout, false},
	{message.CVChangeAgreement, false},
	{message.CVTxNotFound, false},
	{message.CVBlockRejectedByPolicy, false},
	{message.CVTxInvalid, true},
	{message.CVTxInvalid, false},
	{message.CVTxRejectedByPolicy, true},
	{message.CVTxRejectedByPolicy, false},
}

// GetChangeViews implements dbft.RecoveryMessage. The compact form drops
// the reason, so each known reason is tried until the signature verifies
// (C# rebuilds with Timeout only and so loses the others).
func (r *recoveryMessage) GetChangeViews(p dbft.ConsensusPayload[Hash], validators []dbft.PublicKey) []dbft.ConsensusPayload[Hash] {
	rec := p.(*payload).p.Message
	pubs := pubKeys(validators)
	var out []dbft.ConsensusPayload[Hash]
	for i := range r.m.ChangeViews {
		for _, c := range cvReasons {
			q := r.m.RecoveredChangeView(rec, &r.m.ChangeViews[i], pubs, c.r, c.hashes)
			if q == nil {
				break
			}
			if q.VerifyWitness(r.s.magic, pubs[q.Message.ValidatorIndex]) == nil {
				r.s.recovered.Add(1)
				out = append(out, r.s.wrap(q))
				break
			}
		}
	}
	return out
}

// GetPreCommits implements dbft.RecoveryMessage; N3 has no PreCommits.
func (r *recoveryMessage) GetPreCommits(dbft.ConsensusPayload[Hash], []dbft.PublicKey) []dbft.ConsensusPayload[Hash] {
	return nil
}

// GetCommits implements dbft.RecoveryMessage.
func (r *recoveryMessage) GetCommits(p dbft.ConsensusPayload[Hash], validators []dbft.PublicKey) []dbft.ConsensusPayload[Hash] {
	rec := p.(*payload).p.Message
	var out []dbft.ConsensusPayload[Hash]
	for _, q := range r.m.RecoveredCommits(rec, pubKeys(validators)) {
		if r.s.verifyRecovered(q, validators) {
			out = append(out, r.s.wrap(q))
		}
	}
	return out
}

// PreparationHash implements dbft.RecoveryMessage.
func (r *recoveryMessage) PreparationHash() *Hash { return r.m.PreparationHash }

func pubKeys(vs []dbft.PublicKey) []*keys.PublicKey {
	ps := make([]*keys.PublicKey, len(vs))
	for i, v := range vs {
		ps[i] = v.(*keys.PublicKey)
	}
	return ps
}

// neoBlock is a block as dbft sees it.
type neoBlock struct {
	b         block.Block
	magic     uint32
	signature []byte
}

var errBadSignature = errors.New("block signature is invalid")

// Hash implements dbft.Block.
func (n *neoBlock) Hash() Hash { return n.b.Hash() }

// PrevHash implements dbft.Block.
func (n *neoBlock) PrevHash() Hash { return n.b.PrevHash }

// MerkleRoot implements dbft.Block.
func (n *neoBlock) MerkleRoot() Hash { return n.b.MerkleRoot }

// Index implements dbft.Block.
func (n *neoBlock) Index() uint32 { return n.b.Index }

// Signature implements dbft.Block.
func (n *neoBlock) Signature() []byte { return n.signature }

// Sign implements dbft.Block: the signature of magic || header hash.
func (n *neoBlock) Sign(key dbft.PrivateKey) error {
	d := n.b.SignData(n.magic)
	n.signature = key.(*keys.PrivateKey).Sign(d[:])
	return nil
}

// Verify implements dbft.Block.
func (n *neoBlock) Verify(pub dbft.PublicKey, sig []byte) error {
	d := n.b.SignData(n.magic)
	if !pub.(*keys.PublicKey).VerifyMessage(sig, d[:]) {
		return errBadSignature
	}
	return nil
}

// Transactions implements dbft.Block.
func (n *neoBlock) Transactions() []dbft.Transaction[Hash] {
	txs := make([]dbft.Transaction[Hash], len(n.b.Transactions))
	for i, tx := range n.b.Transactions {
		txs[i] = tx
	}
	return txs
}

// SetTransactions implements dbft.Block.
func (n *neoBlock) SetTransactions(txs []dbft.Transaction[Hash]) {
	n.b.Transactions = make([]*transaction.Transaction, len(txs))
	for i, tx := range txs {
		n.b.Transactions[i] = tx.(*transaction.Transaction)
	}
}

// bodyOf returns the message body behind a dbft constructor's result.
func bodyOf(msg any) message.Body {
	switch b := msg.(type) {
	case changeView:
		return b.m
	case prepareRequest:
		return b.m
	case prepareResponse:
		return b.m
	case commit:
		return b.m
	case recoveryRequest:
		return b.m
	case *recoveryMessage:
		return b.m
	}
	return nil
}

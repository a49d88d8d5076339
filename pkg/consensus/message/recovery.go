package message

import (
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

// Recovery message limits.
const (
	// MaxRecoveryEntries bounds each compact list of a RecoveryMessage (C#
	// RecoveryMessage.Deserialize: ReadSerializableArray(byte.MaxValue)).
	MaxRecoveryEntries = 0xff
	// MaxCompactInvocationScript bounds the invocation script of a compact
	// payload (C# *PayloadCompact.Deserialize: ReadVarMemory(1024)).
	MaxCompactInvocationScript = 1024
)

// RecoveryMessage tells a validator that fell behind what the sender has
// seen in the current round (C# RecoveryMessage).
type RecoveryMessage struct {
	ChangeViews []ChangeViewCompact
	// PrepareRequest is the primary's proposal as a whole message
	// (header included), or nil.
	PrepareRequest *Message
	// PreparationHash is written only without PrepareRequest: the hash of
	// the proposal the sender's preparations agree on, or nil.
	PreparationHash *hash.Uint256
	Preparations    []PreparationCompact
	Commits         []CommitCompact
	// StateRootEnabled decodes PrepareRequest in the format of
	// StateRootInHeader networks; DecodeBinary keeps the value set.
	StateRootEnabled bool
}

// ChangeViewCompact is a ChangeView payload without its envelope. The
// reason is not carried; see RecoveredChangeView.
type ChangeViewCompact struct {
	ValidatorIndex     uint8
	OriginalViewNumber uint8
	Timestamp          uint64
	InvocationScript   []byte
}

// PreparationCompact stands for a PrepareRequest or PrepareResponse
// payload of the recovery message's view.
type PreparationCompact struct {
	ValidatorIndex   uint8
	InvocationScript []byte
}

// CommitCompact is a Commit payload without its envelope.
type CommitCompact struct {
	ViewNumber       uint8
	ValidatorIndex   uint8
	Signature        [SignatureSize]byte
	InvocationScript []byte
}

// Type implements Body.
func (*RecoveryMessage) Type() Type { return RecoveryMessageType }

// Size implements Body.
func (m *RecoveryMessage) Size() int {
	n := 1 + nio.VarUintSize(uint64(len(m.ChangeViews))) + nio.VarUintSize(uint64(len(m.Preparations))) + nio.VarUintSize(uint64(len(m.Commits)))
	switch {
	case m.PrepareRequest != nil:
		n += m.PrepareRequest.Size()
	case m.PreparationHash != nil:
		n += 1 + hash.Uint256Size
	default:
		n++
	}
	for i := range m.ChangeViews {
		n += 10 + nio.VarBytesSize(len(m.ChangeViews[i].InvocationScript))
	}
	for i := range m.Preparations {
		n += 1 + nio.VarBytesSize(len(m.Preparations[i].InvocationScript))
	}
	for i := range m.Commits {
		n += 2 + SignatureSize + nio.VarBytesSize(len(m.Commits[i].InvocationScript))
	}
	return n
}

// EncodeBinary implements io.Encodable.
func (m *RecoveryMessage) EncodeBinary(w *nio.BinWriter) {
	nio.WriteArray(w, ptrs(m.ChangeViews))
	if m.PrepareRequest != nil {
		w.WriteU8(1)
		m.PrepareRequest.EncodeBinary(w)
	} else {
		w.WriteU8(0)
		if m.PreparationHash == nil {
			w.WriteVarUint(0)
		} else {
			w.WriteVarBytes(m.PreparationHash[:])
		}
	}
	nio.WriteArray(w, ptrs(m.Preparations))
	nio.WriteArray(w, ptrs(m.Commits))
}

// DecodeBinary implements io.Decodable.
func (m *RecoveryMessage) DecodeBinary(r *nio.BinReader) {
	sr := m.StateRootEnabled
	*m = RecoveryMessage{StateRootEnabled: sr}
	m.ChangeViews = nio.ReadArray[ChangeViewCompact](r, MaxRecoveryEntries)
	switch r.ReadU8() {
	case 0:
		// C# ReadVarInt(32), then 32 bytes if it was 32; neo-go refuses
		// any other non-zero length, and so do we.
		switch n := r.ReadVarUintMax(hash.Uint256Size); {
		case r.Err != nil:
		case n == hash.Uint256Size:
			m.PreparationHash = new(hash.Uint256)
			r.ReadBytes(m.PreparationHash[:])
		case n != 0:
			r.SetError(fmt.Errorf("%w: %d", ErrPreparationHash, n))
		}
	case 1:
		req := &Message{StateRootEnabled: sr}
		req.DecodeBinary(r)
		if r.Err == nil && req.Type() != PrepareRequestType {
			r.SetError(fmt.Errorf("%w: %s", ErrEmbeddedType, req.Type()))
		}
		m.PrepareRequest = req
	default:
		r.SetError(fmt.Errorf("%w: RecoveryMessage has-request flag", nio.ErrFormat))
	}
	m.Preparations = nio.ReadArray[PreparationCompact](r, MaxRecoveryEntries)
	m.Commits = nio.ReadArray[CommitCompact](r, MaxRecoveryEntries)
	if r.Err != nil {
		*m = RecoveryMessage{StateRootEnabled: sr}
		return
	}
	if dupIndex(m.ChangeViews, func(c *ChangeViewCompact) uint8 { return c.ValidatorIndex }) ||
		dupIndex(m.Preparations, func(c *PreparationCompact) uint8 { return c.ValidatorIndex }) ||
		dupIndex(m.Commits, func(c *CommitCompact) uint8 { return c.ValidatorIndex }) {
		*m = RecoveryMessage{StateRootEnabled: sr}
		r.SetError(ErrDuplicateIndex)
	}
}

func ptrs[T any](s []T) []*T {
	p := make([]*T, len(s))
	for i := range s {
		p[i] = &s[i]
	}
	return p
}

// dupIndex reports whether two entries name the same validator (C#
// builds dictionaries keyed by validator index and fails on duplicates).
func dupIndex[T any](s []T, idx func(*T) uint8) bool {
	var seen [256]bool
	for i := range s {
		v := idx(&s[i])
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	return false
}

// EncodeBinary implements io.Encodable.
func (c *ChangeViewCompact) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(c.ValidatorIndex)
	w.WriteU8(c.OriginalViewNumber)
	w.WriteU64LE(c.Timestamp)
	w.WriteVarBytes(c.InvocationScript)
}

// DecodeBinary implements io.Decodable.
func (c *ChangeViewCompact) DecodeBinary(r *nio.BinReader) {
	c.ValidatorIndex = r.ReadU8()
	c.OriginalViewNumber = r.ReadU8()
	c.Timestamp = r.ReadU64LE()
	c.InvocationScript = r.ReadVarBytes(MaxCompactInvocationScript)
}

// EncodeBinary implements io.Encodable.
func (c *PreparationCompact) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(c.ValidatorIndex)
	w.WriteVarBytes(c.InvocationScript)
}

// DecodeBinary implements io.Decodable.
func (c *PreparationCompact) DecodeBinary(r *nio.BinReader) {
	c.ValidatorIndex = r.ReadU8()
	c.InvocationScript = r.ReadVarBytes(MaxCompactInvocationScript)
}

// EncodeBinary implements io.Encodable.
func (c *CommitCompact) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(c.ViewNumber)
	w.WriteU8(c.ValidatorIndex)
	w.WriteBytes(c.Signature[:])
	w.WriteVarBytes(c.InvocationScript)
}

// DecodeBinary implements io.Decodable.
func (c *CommitCompact) DecodeBinary(r *nio.BinReader) {
	c.ViewNumber = r.ReadU8()
	c.ValidatorIndex = r.ReadU8()
	r.ReadBytes(c.Signature[:])
	c.InvocationScript = r.ReadVarBytes(MaxCompactInvocationScript)
}

// PrimaryIndex returns the primary of view at height blockIndex among n
// validators: (blockIndex - view) mod n.
func PrimaryIndex(blockIndex uint32, view uint8, n int) uint8 {
	p := (int64(blockIndex) - int64(view)) % int64(n)
	if p < 0 {
		p += int64(n)
	}
	return uint8(p)
}

// AddPayload adds p, a payload of the sender's current round, in compact
// form. A PrepareRequest is embedded whole and its hash becomes the
// preparation hash; a PrepareResponse sets the preparation hash if it is
// not set yet. RecoveryRequest and RecoveryMessage payloads are ignored.
func (m *RecoveryMessage) AddPayload(p *Payload) {
	msg := p.Message
	inv := p.Witness.InvocationScript
	switch b := msg.Body.(type) {
	case *PrepareRequest:
		m.PrepareRequest = &Message{
			BlockIndex:     msg.BlockIndex,
			ValidatorIndex: msg.ValidatorIndex,
			ViewNumber:     msg.ViewNumber,
			Body:           b,
		}
		h := p.Hash()
		m.PreparationHash = &h
		m.Preparations = append(m.Preparations, PreparationCompact{ValidatorIndex: msg.ValidatorIndex, InvocationScript: inv})
	case *PrepareResponse:
		m.Preparations = append(m.Preparations, PreparationCompact{ValidatorIndex: msg.ValidatorIndex, InvocationScript: inv})
		if m.PreparationHash == nil {
			h := b.PreparationHash
			m.PreparationHash = &h
		}
	case *ChangeView:
		m.ChangeViews = append(m.ChangeViews, ChangeViewCompact{
			ValidatorIndex:     msg.ValidatorIndex,
			OriginalViewNumber: msg.ViewNumber,
			Timestamp:          b.Timestamp,
			InvocationScript:   inv,
		})
	case *Commit:
		m.Commits = append(m.Commits, CommitCompact{
			ViewNumber:       msg.ViewNumber,
			ValidatorIndex:   msg.ValidatorIndex,
			Signature:        b.Signature,
			InvocationScript: inv,
		})
	}
}

// recovered builds the payload a compact entry stands for.
func recovered(blockIndex uint32, validator, view uint8, body Body, pub *keys.PublicKey, inv []byte) *Payload {
	p := NewPayload(&Message{BlockIndex: blockIndex, ValidatorIndex: validator, ViewNumber: view, Body: body}, pub.ScriptHash())
	p.Witness.InvocationScript = inv
	p.Witness.VerificationScript = pub.VerificationScript()
	return p
}

// RecoveredPrepareRequest rebuilds the PrepareRequest payload of rec's
// view, sent by its primary, or returns nil if m lacks the request or the
// primary's invocation script. Like neo-go, the height, view and sender
// come from rec, not from the embedded message's header (neo-go 0.120.0
// writes zeros there; C# the real values, which are the same).
func (m *RecoveryMessage) RecoveredPrepareRequest(rec *Message, validators []*keys.PublicKey) *Payload {
	if m.PrepareRequest == nil || len(validators) == 0 {
		return nil
	}
	req := m.PrepareRequest.PrepareRequest()
	if req == nil {
		return nil
	}
	primary := PrimaryIndex(rec.BlockIndex, rec.ViewNumber, len(validators))
	for i := range m.Preparations {
		if c := &m.Preparations[i]; c.ValidatorIndex == primary {
			return recovered(rec.BlockIndex, primary, rec.ViewNumber, req, validators[primary], c.InvocationScript)
		}
	}
	return nil
}

// RecoveredPrepareResponses rebuilds the PrepareResponse payloads of rec's
// view for the given preparation hash (C# GetPrepareResponsePayloads: the
// primary's entry is its request, not a response).
func (m *RecoveryMessage) RecoveredPrepareResponses(rec *Message, validators []*keys.PublicKey, preparation hash.Uint256) []*Payload {
	if len(validators) == 0 {
		return nil
	}
	primary := PrimaryIndex(rec.BlockIndex, rec.ViewNumber, len(validators))
	var ps []*Payload
	for i := range m.Preparations {
		c := &m.Preparations[i]
		if c.ValidatorIndex == primary || int(c.ValidatorIndex) >= len(validators) {
			continue
		}
		ps = append(ps, recovered(rec.BlockIndex, c.ValidatorIndex, rec.ViewNumber,
			&PrepareResponse{PreparationHash: preparation}, validators[c.ValidatorIndex], c.InvocationScript))
	}
	return ps
}

// RecoveredChangeView rebuilds a ChangeView payload with the given reason.
// The compact form drops the reason: C# rebuilds with Timeout, which only
// verifies if that was the original reason; a caller that verifies may try
// the others. It returns nil for an unknown validator.
func (m *RecoveryMessage) RecoveredChangeView(rec *Message, c *ChangeViewCompact, validators []*keys.PublicKey, reason ChangeViewReason, withHashes bool) *Payload {
	if int(c.ValidatorIndex) >= len(validators) {
		return nil
	}
	cv := &ChangeView{Timestamp: c.Timestamp, Reason: reason, HasRejectedHashes: withHashes && reason.HasHashes()}
	return recovered(rec.BlockIndex, c.ValidatorIndex, c.OriginalViewNumber, cv, validators[c.ValidatorIndex], c.InvocationScript)
}

// RecoveredCommits rebuilds the Commit payloads.
func (m *RecoveryMessage) RecoveredCommits(rec *Message, validators []*keys.PublicKey) []*Payload {
	var ps []*Payload
	for i := range m.Commits {
		c := &m.Commits[i]
		if int(c.ValidatorIndex) >= len(validators) {
			continue
		}
		ps = append(ps, recovered(rec.BlockIndex, c.ValidatorIndex, c.ViewNumber,
			&Commit{Signature: c.Signature}, validators[c.ValidatorIndex], c.InvocationScript))
	}
	return ps
}

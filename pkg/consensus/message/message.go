package message

import (
	"errors"
	"fmt"

	nio "github.com/n3node/n3node/pkg/io"
)

// Type is the consensus message type (C# ConsensusMessageType; the values
// are dbft's MessageType values).
type Type byte

// Message types.
const (
	ChangeViewType      Type = 0x00
	PrepareRequestType  Type = 0x20
	PrepareResponseType Type = 0x21
	CommitType          Type = 0x30
	RecoveryRequestType Type = 0x40
	RecoveryMessageType Type = 0x41
)

// String returns the C# name of the type.
func (t Type) String() string {
	switch t {
	case ChangeViewType:
		return "ChangeView"
	case PrepareRequestType:
		return "PrepareRequest"
	case PrepareResponseType:
		return "PrepareResponse"
	case CommitType:
		return "Commit"
	case RecoveryRequestType:
		return "RecoveryRequest"
	case RecoveryMessageType:
		return "RecoveryMessage"
	default:
		return fmt.Sprintf("UNKNOWN(0x%02x)", byte(t))
	}
}

// HeaderSize is the size of the common message header.
const HeaderSize = 1 + 4 + 1 + 1

// Message errors.
var (
	ErrUnknownType     = errors.New("unknown consensus message type")
	ErrNoBody          = errors.New("consensus message has no body")
	ErrDuplicateHash   = errors.New("duplicate transaction hash in PrepareRequest")
	ErrDuplicateIndex  = errors.New("validator listed twice in RecoveryMessage")
	ErrPreparationHash = errors.New("invalid preparation hash length in RecoveryMessage")
	ErrEmbeddedType    = errors.New("RecoveryMessage embeds a message that is not a PrepareRequest")
)

// Body is the type-specific part of a message: one of *ChangeView,
// *PrepareRequest, *PrepareResponse, *Commit, *RecoveryRequest,
// *RecoveryMessage.
type Body interface {
	Type() Type
	// Size returns the encoded size.
	Size() int
	nio.Serializable
}

// Message is a consensus message (C# ConsensusMessage and its subclasses).
type Message struct {
	BlockIndex     uint32
	ValidatorIndex uint8
	ViewNumber     uint8
	Body           Body
	// StateRootEnabled selects the PrepareRequest format of
	// StateRootInHeader networks (also inside a RecoveryMessage) when
	// decoding; DecodeBinary keeps the value the caller set.
	StateRootEnabled bool
}

// Type returns the body's type.
func (m *Message) Type() Type {
	if m.Body == nil {
		return 0xff
	}
	return m.Body.Type()
}

// EncodeBinary implements io.Encodable.
func (m *Message) EncodeBinary(w *nio.BinWriter) {
	if m.Body == nil {
		w.SetError(ErrNoBody)
		return
	}
	w.WriteU8(byte(m.Body.Type()))
	w.WriteU32LE(m.BlockIndex)
	w.WriteU8(m.ValidatorIndex)
	w.WriteU8(m.ViewNumber)
	m.Body.EncodeBinary(w)
}

// DecodeBinary implements io.Decodable. It reads the message and nothing
// after it.
func (m *Message) DecodeBinary(r *nio.BinReader) {
	*m = Message{StateRootEnabled: m.StateRootEnabled}
	t := Type(r.ReadU8())
	m.BlockIndex = r.ReadU32LE()
	m.ValidatorIndex = r.ReadU8()
	m.ViewNumber = r.ReadU8()
	if r.Err != nil {
		return
	}
	var b Body
	switch t {
	case ChangeViewType:
		b = new(ChangeView)
	case PrepareRequestType:
		b = &PrepareRequest{StateRootEnabled: m.StateRootEnabled}
	case PrepareResponseType:
		b = new(PrepareResponse)
	case CommitType:
		b = new(Commit)
	case RecoveryRequestType:
		b = new(RecoveryRequest)
	case RecoveryMessageType:
		b = &RecoveryMessage{StateRootEnabled: m.StateRootEnabled}
	default:
		r.SetError(fmt.Errorf("%w: 0x%02x", ErrUnknownType, byte(t)))
		return
	}
	b.DecodeBinary(r)
	if r.Err != nil {
		return
	}
	m.Body = b
}

// Size returns the encoded size.
func (m *Message) Size() int {
	if m.Body == nil {
		return HeaderSize
	}
	return HeaderSize + m.Body.Size()
}

// Bytes returns the encoding in a fresh slice.
func (m *Message) Bytes() ([]byte, error) {
	w := nio.NewBinWriterWithCap(m.Size())
	m.EncodeBinary(w)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// Decode decodes a message from the start of b. Like C# and neo-go it
// ignores bytes after the message.
func Decode(b []byte) (*Message, error) {
	m, _, err := decodePrefix(b, false)
	return m, err
}

// DecodeFormat is Decode for a network with or without StateRootInHeader.
func DecodeFormat(b []byte, stateRootInHeader bool) (*Message, error) {
	m, _, err := decodePrefix(b, stateRootInHeader)
	return m, err
}

// decodePrefix decodes a message and reports how many bytes it took.
func decodePrefix(b []byte, stateRootInHeader bool) (*Message, int, error) {
	m := &Message{StateRootEnabled: stateRootInHeader}
	r := nio.NewBinReaderFromBuf(b)
	m.DecodeBinary(r)
	if r.Err != nil {
		return nil, 0, r.Err
	}
	return m, r.Offset(), nil
}

// ChangeView returns the body as a ChangeView, or nil.
func (m *Message) ChangeView() *ChangeView { b, _ := m.Body.(*ChangeView); return b }

// PrepareRequest returns the body as a PrepareRequest, or nil.
func (m *Message) PrepareRequest() *PrepareRequest { b, _ := m.Body.(*PrepareRequest); return b }

// PrepareResponse returns the body as a PrepareResponse, or nil.
func (m *Message) PrepareResponse() *PrepareResponse { b, _ := m.Body.(*PrepareResponse); return b }

// Commit returns the body as a Commit, or nil.
func (m *Message) Commit() *Commit { b, _ := m.Body.(*Commit); return b }

// RecoveryRequest returns the body as a RecoveryRequest, or nil.
func (m *Message) RecoveryRequest() *RecoveryRequest { b, _ := m.Body.(*RecoveryRequest); return b }

// RecoveryMessage returns the body as a RecoveryMessage, or nil.
func (m *Message) RecoveryMessage() *RecoveryMessage { b, _ := m.Body.(*RecoveryMessage); return b }

package stateroot

import (
	"errors"
	"fmt"

	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	nio "github.com/n3node/n3node/pkg/io"
)

// Protocol constants of the StateService (C# plugin StateService, neo-go
// pkg/services/stateroot).
const (
	// Category is the extensible payload category of state root messages
	// (C# StatePlugin.StatePayloadCategory).
	Category = "StateService"
	// SignatureSize is the length of a vote signature (C# Vote: ReadVarMemory(64)).
	SignatureSize = 64
	// VoteValidBlocks is how many blocks a vote payload stays valid:
	// ValidBlockEnd = root index + VoteValidBlocks (C#
	// VerificationService.MaxCachedVerificationProcessCount, neo-go
	// voteValidEndInc).
	VoteValidBlocks = 10
	// RootValidBlocks is the same for a state root payload (C#
	// VerificationContext.MaxValidUntilBlockIncrement, neo-go rootValidEndInc).
	RootValidBlocks = 100
	// MaxVerificationGAS is the GAS limit of a state root witness (C#
	// StateRoot.Verify: 2_00000000, neo-go stateroot.MaxVerificationGAS).
	MaxVerificationGAS = 2_00000000
	// MaxRounds is how many heights a validator collects votes for at once;
	// older ones are dropped (C# MaxCachedVerificationProcessCount).
	MaxRounds = 10
	// MaxCachedRoots bounds the validated roots kept until the local
	// chain reaches their height (C# StateStore.MaxCacheCount).
	MaxCachedRoots = 100
)

// MessageType is the first byte of a StateService message (C#
// MessageType).
type MessageType byte

// Message types.
const (
	VoteT MessageType = 0
	RootT MessageType = 1
)

// String returns the C# name of the type.
func (t MessageType) String() string {
	switch t {
	case VoteT:
		return "Vote"
	case RootT:
		return "StateRoot"
	}
	return fmt.Sprintf("MessageType(%d)", byte(t))
}

// Errors of the message decoders.
var (
	// ErrUnknownType: the first byte names no message type.
	ErrUnknownType = errors.New("stateservice: unknown message type")
	// ErrTrailingBytes: bytes follow the message.
	ErrTrailingBytes = errors.New("stateservice: trailing bytes")
)

// Vote is one state validator's signature of the local state root of a
// height (C# Vote, neo-go stateroot.Vote): validator index (int32 LE),
// root index (u32 LE), signature (var-bytes, at most SignatureSize).
type Vote struct {
	ValidatorIndex int32
	Height         uint32
	Signature      []byte
}

// EncodeBinary implements io.Encodable.
func (v *Vote) EncodeBinary(w *nio.BinWriter) {
	w.WriteU32LE(uint32(v.ValidatorIndex))
	w.WriteU32LE(v.Height)
	w.WriteVarBytes(v.Signature)
}

// DecodeBinary implements io.Decodable.
func (v *Vote) DecodeBinary(r *nio.BinReader) {
	v.ValidatorIndex = int32(r.ReadU32LE())
	v.Height = r.ReadU32LE()
	v.Signature = r.ReadVarBytes(SignatureSize)
}

// Message is the data of a StateService extensible payload: the type
// byte, then a Vote or a state root (version, index, root hash and at
// most one witness; stateroot.Root's wire form).
type Message struct {
	Type MessageType
	Vote *Vote          // for VoteT
	Root *coreroot.Root // for RootT
}

// EncodeBinary implements io.Encodable.
func (m *Message) EncodeBinary(w *nio.BinWriter) {
	w.WriteU8(byte(m.Type))
	switch m.Type {
	case VoteT:
		m.Vote.EncodeBinary(w)
	case RootT:
		m.Root.EncodeBinary(w)
	default:
		w.SetError(fmt.Errorf("%w: %d", ErrUnknownType, m.Type))
	}
}

// DecodeBinary implements io.Decodable.
func (m *Message) DecodeBinary(r *nio.BinReader) {
	*m = Message{Type: MessageType(r.ReadU8())}
	if r.Err != nil {
		return
	}
	switch m.Type {
	case VoteT:
		m.Vote = new(Vote)
		m.Vote.DecodeBinary(r)
	case RootT:
		m.Root = new(coreroot.Root)
		m.Root.DecodeBinary(r)
	default:
		r.SetError(fmt.Errorf("%w: %d", ErrUnknownType, m.Type))
	}
}

// Bytes returns the encoding of m.
func (m *Message) Bytes() ([]byte, error) { return nio.ToBytes(m) }

// DecodeMessage decodes an extensible payload's data. Unlike C# and
// neo-go, which ignore them, bytes after the message are refused, so a
// decoded message always re-encodes to its input (C# ignores the payload
// anyway, neo-go drops the relaying peer for undecodable data).
func DecodeMessage(data []byte) (*Message, error) {
	m := new(Message)
	r := nio.NewBinReaderFromBuf(data)
	m.DecodeBinary(r)
	if r.Err == nil && r.Len() != 0 {
		r.SetError(fmt.Errorf("%w: %d", ErrTrailingBytes, r.Len()))
	}
	if r.Err != nil {
		return nil, r.Err
	}
	return m, nil
}

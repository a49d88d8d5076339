package message

import (
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/payload"
)

const (
	// PayloadMaxSize bounds the payload, raw and uncompressed (C#
	// Message.PayloadMaxSize, neo-go payload.MaxSize).
	PayloadMaxSize = 0x02000000
	// CompressionMinSize: payloads of at most this many bytes are sent
	// uncompressed (C# Message.CompressionMinSize).
	CompressionMinSize = 128
	// CompressionThreshold: compression is used only if it saves more
	// than this many bytes (C# Message.CompressionThreshold).
	CompressionThreshold = 64
	// maxHeaderSize is flags + command + the longest var-int.
	maxHeaderSize = 2 + 9
)

// Flags is the message flags byte (C# MessageFlags).
type Flags byte

// Compressed marks an LZ4-compressed payload.
const Compressed Flags = 1

// Errors returned (wrapped) by the decoders and encoders.
var (
	ErrFormat         = errors.New("malformed message")
	ErrTooLarge       = errors.New("message payload too large")
	ErrUnknownCommand = errors.New("unknown command")
	ErrEmptyPayload   = errors.New("payload required")
	ErrUnexpectedData = errors.New("command carries no payload")
	ErrDecompress     = errors.New("invalid compressed payload")
)

// Payload is what a message carries: every type in package payload,
// *transaction.Transaction, *block.Block and Opaque.
type Payload interface {
	EncodeBinary(w *nio.BinWriter)
	Size() int
}

// Opaque is the payload of reject and alert, commands that C# defines but
// never decodes and neo-go 0.120.0 refuses; it keeps the bytes.
type Opaque []byte

// Size returns the encoded size.
func (o Opaque) Size() int { return len(o) }

// EncodeBinary writes the bytes as they are.
func (o Opaque) EncodeBinary(w *nio.BinWriter) { w.WriteBytes(o) }

// Message is one P2P message. Payload is nil for verack, getaddr, mempool
// and filterclear; otherwise its dynamic type follows Command:
//
//	version                      *payload.Version
//	addr                         *payload.AddressList
//	ping, pong                   *payload.Ping
//	getheaders, getblockbyindex  *payload.GetBlockByIndex
//	headers                      *payload.Headers
//	getblocks                    *payload.GetBlocks
//	inv, getdata, notfound       *payload.Inventory
//	transaction                  *transaction.Transaction
//	block                        *block.Block
//	extensible                   *payload.Extensible
//	reject, alert                Opaque
//	filterload                   *payload.FilterLoad
//	filteradd                    *payload.FilterAdd
//	merkleblock                  *payload.MerkleBlock
//	p2pnotaryrequest             *payload.P2PNotaryRequest
//	getmptdata                   *payload.MPTInventory
//	mptdata                      *payload.MPTData
type Message struct {
	// Flags as received. Encoding sets or clears Compressed itself and
	// keeps the other bits.
	Flags   Flags
	Command Command
	Payload Payload
}

// New returns a message with the given command and payload.
func New(cmd Command, p Payload) *Message { return &Message{Command: cmd, Payload: p} }

// DecodePayload decodes the payload of cmd from data (already
// decompressed). It takes ownership of data: a transaction or block
// aliases it. The whole of data must be consumed.
func DecodePayload(cmd Command, data []byte) (Payload, error) {
	return DecodePayloadFormat(cmd, data, false)
}

// DecodePayloadFormat is DecodePayload for a network with or without
// StateRootInHeader (the header format of block, headers and merkleblock).
func DecodePayloadFormat(cmd Command, data []byte, stateRootInHeader bool) (Payload, error) {
	if len(data) == 0 {
		if cmd.emptyPayload() {
			return nil, nil
		}
		if !cmd.Known() {
			return nil, fmt.Errorf("%w: %s", ErrUnknownCommand, cmd)
		}
		if cmd == CmdReject || cmd == CmdAlert {
			return Opaque{}, nil
		}
		return nil, fmt.Errorf("%w: %s", ErrEmptyPayload, cmd)
	}
	var p interface {
		Payload
		nio.Decodable
	}
	switch cmd {
	case CmdTransaction:
		tx, err := transaction.NewTransactionFromOwnedBytes(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
		return tx, nil
	case CmdBlock:
		b, err := block.DecodeOwnedBlock(data, stateRootInHeader)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
		return b, nil
	case CmdVersion:
		p = new(payload.Version)
	case CmdAddr:
		p = new(payload.AddressList)
	case CmdPing, CmdPong:
		p = new(payload.Ping)
	case CmdGetHeaders, CmdGetBlockByIndex:
		p = new(payload.GetBlockByIndex)
	case CmdHeaders:
		p = &payload.Headers{StateRootInHeader: stateRootInHeader}
	case CmdGetBlocks:
		p = new(payload.GetBlocks)
	case CmdInv, CmdGetData, CmdNotFound:
		p = new(payload.Inventory)
	case CmdExtensible:
		p = new(payload.Extensible)
	case CmdFilterLoad:
		p = new(payload.FilterLoad)
	case CmdFilterAdd:
		p = new(payload.FilterAdd)
	case CmdMerkleBlock:
		p = &payload.MerkleBlock{Header: block.Header{StateRootEnabled: stateRootInHeader}}
	case CmdP2PNotaryRequest:
		p = new(payload.P2PNotaryRequest)
	case CmdGetMPTData:
		p = new(payload.MPTInventory)
	case CmdMPTData:
		p = new(payload.MPTData)
	case CmdReject, CmdAlert:
		return Opaque(data), nil
	default:
		if cmd.emptyPayload() {
			return nil, fmt.Errorf("%w: %s", ErrUnexpectedData, cmd)
		}
		return nil, fmt.Errorf("%w: %s", ErrUnknownCommand, cmd)
	}
	if err := nio.FromBytes(data, p); err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return p, nil
}

// Decode decodes a frame that spans all of b. b is not retained: the
// payload is copied once (or decompressed into a fresh buffer).
func Decode(b []byte) (*Message, error) {
	r := nio.NewBinReaderFromBuf(b)
	flags := Flags(r.ReadU8())
	cmd := Command(r.ReadU8())
	n := r.ReadVarUint()
	if r.Err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, r.Err)
	}
	if n > PayloadMaxSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, n)
	}
	if uint64(r.Len()) != n {
		return nil, fmt.Errorf("%w: payload length %d, %d bytes left", ErrFormat, n, r.Len())
	}
	raw := append([]byte(nil), r.Unread()...)
	return decodeOwned(flags, cmd, raw, false)
}

// decodeOwned builds a message from a raw (possibly compressed) payload
// it owns.
func decodeOwned(flags Flags, cmd Command, raw []byte, stateRootInHeader bool) (*Message, error) {
	data := raw
	if flags&Compressed != 0 && len(raw) != 0 {
		var err error
		if data, err = Decompress(raw); err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	p, err := DecodePayloadFormat(cmd, data, stateRootInHeader)
	if err != nil {
		return nil, err
	}
	return &Message{Flags: flags, Command: cmd, Payload: p}, nil
}

// Bytes encodes m; with compress, the payload is compressed where C#
// would compress it. m.Flags is not changed.
func (m *Message) Bytes(compress bool) ([]byte, error) {
	return encode(m.Flags&^Compressed, m.Command, m.Payload, compress)
}

// Encode encodes a message with the given command and payload (nil for
// none), compressing it where C# would if compress is set.
func Encode(cmd Command, p Payload, compress bool) ([]byte, error) {
	return encode(0, cmd, p, compress)
}

func encode(flags Flags, cmd Command, p Payload, compress bool) ([]byte, error) {
	size := 0
	if p != nil {
		size = p.Size()
	}
	if size > PayloadMaxSize {
		return nil, fmt.Errorf("%w: %s payload of %d bytes", ErrTooLarge, cmd, size)
	}
	if compress && size > CompressionMinSize && cmd.compressible() {
		return encodeCompressed(flags, cmd, p, size)
	}
	total := 2 + nio.VarUintSize(uint64(size)) + size
	w := nio.NewBinWriterWithCap(total)
	w.WriteU8(byte(flags))
	w.WriteU8(byte(cmd))
	w.WriteVarUint(uint64(size))
	if p != nil {
		p.EncodeBinary(w)
	}
	if w.Err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, w.Err)
	}
	if w.Len() != total {
		return nil, fmt.Errorf("%w: %s payload Size %d does not match its encoding", ErrFormat, cmd, size)
	}
	return w.Bytes(), nil
}

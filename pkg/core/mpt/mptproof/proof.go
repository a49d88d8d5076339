package mptproof

import (
	"errors"
	"fmt"

	nio "github.com/n3node/n3node/pkg/io"
)

// ErrInvalidProof means a proof does not show the key under the root (or
// cannot be decoded).
var ErrInvalidProof = errors.New("invalid MPT proof")

// Proof wire-format limits (C# StatePlugin.VerifyProof).
const (
	// MaxKeyLength bounds the key of an encoded proof (C#:
	// ReadVarBytes(Node.MaxKeyLength), i.e. 136 bytes, mpt.MaxPathLength).
	MaxKeyLength = 136
	// MaxNodes bounds the node count of an encoded proof (C#:
	// ReadVarInt(byte.MaxValue)).
	MaxNodes = 255
)

// ProofWithKey is the proof format of the getproof and verifyproof RPC
// methods (before base64): var-bytes key, then a var-int count and each
// node as var-bytes.
type ProofWithKey struct {
	Key   []byte
	Proof [][]byte
}

// EncodeBinary implements io.Encodable.
func (p *ProofWithKey) EncodeBinary(w *nio.BinWriter) {
	w.WriteVarBytes(p.Key)
	w.WriteVarUint(uint64(len(p.Proof)))
	for _, n := range p.Proof {
		w.WriteVarBytes(n)
	}
}

// DecodeBinary implements io.Decodable with the C# limits (a key of at most
// MaxKeyLength bytes, at most MaxNodes nodes). The result does
// not alias the input.
func (p *ProofWithKey) DecodeBinary(r *nio.BinReader) {
	p.Key = r.ReadVarBytes(MaxKeyLength)
	cnt := r.ReadArrayLen(MaxNodes)
	if r.Err != nil {
		return
	}
	p.Proof = make([][]byte, 0, min(cnt, r.Len()))
	for range cnt {
		b := r.ReadVarBytes()
		if r.Err != nil {
			return
		}
		p.Proof = append(p.Proof, b)
	}
}

// Bytes returns the encoding of p.
func (p *ProofWithKey) Bytes() []byte {
	w := nio.NewBufBinWriter()
	p.EncodeBinary(w)
	return w.Bytes()
}

// Decode decodes an encoded proof. Like C# and neo-go, it
// ignores bytes after the last node.
func Decode(b []byte) (*ProofWithKey, error) {
	r := nio.NewBinReaderFromBuf(b)
	p := new(ProofWithKey)
	p.DecodeBinary(r)
	if r.Err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidProof, r.Err)
	}
	return p, nil
}

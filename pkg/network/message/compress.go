package message

import (
	"encoding/binary"
	"fmt"
	"sync"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/pierrec/lz4/v4"
)

// maxLZ4Ratio bounds how much an LZ4 block can expand: every input byte
// yields at most 255 output bytes (a match-length extension byte), plus a
// few from the token. A declared length beyond it cannot be honest, so it
// is refused before the output buffer is allocated.
const maxLZ4Ratio = 256

var compressors = sync.Pool{New: func() any { return new(lz4.Compressor) }}

// scratch holds reusable buffers for compressed encoding.
type scratch struct {
	w    *nio.BinWriter
	comp []byte
}

// maxPooledScratch: buffers above this size are dropped, not pooled, so a
// rare huge message does not pin memory.
const maxPooledScratch = 4 << 20

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// Decompress returns the payload of a compressed message: src is the
// uncompressed length (uint32 LE) followed by an LZ4 block (C#
// DecompressLz4(PayloadMaxSize)). The result is a fresh slice.
func Decompress(src []byte) ([]byte, error) {
	if len(src) < 4 {
		return nil, fmt.Errorf("%w: %d bytes", ErrDecompress, len(src))
	}
	n := binary.LittleEndian.Uint32(src)
	if n > PayloadMaxSize {
		return nil, fmt.Errorf("%w: uncompressed length %d", ErrTooLarge, n)
	}
	if uint64(n) > uint64(len(src)-4)*maxLZ4Ratio+64 {
		return nil, fmt.Errorf("%w: length %d from %d bytes", ErrDecompress, n, len(src)-4)
	}
	dst := make([]byte, n)
	got, err := lz4.UncompressBlock(src[4:], dst)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecompress, err)
	}
	if got != int(n) {
		return nil, fmt.Errorf("%w: got %d bytes, header says %d", ErrDecompress, got, n)
	}
	return dst, nil
}

// Compress returns the compressed form of src (length prefix and LZ4
// block) in a fresh slice.
func Compress(src []byte) ([]byte, error) {
	dst := make([]byte, 4+lz4.CompressBlockBound(len(src)))
	n, err := compressInto(src, dst)
	if err != nil {
		return nil, err
	}
	return dst[:n], nil
}

// compressInto compresses src into dst, which must have room for
// 4+CompressBlockBound(len(src)) bytes, and returns the bytes written.
func compressInto(src, dst []byte) (int, error) {
	c := compressors.Get().(*lz4.Compressor)
	n, err := c.CompressBlock(src, dst[4:])
	compressors.Put(c)
	if err != nil {
		return 0, err
	}
	if n == 0 && len(src) != 0 { // incompressible; cannot happen with a bound-sized dst
		return 0, fmt.Errorf("lz4: incompressible %d bytes", len(src))
	}
	binary.LittleEndian.PutUint32(dst, uint32(len(src)))
	return 4 + n, nil
}

// encodeCompressed encodes the payload into a scratch buffer and
// compresses it; the frame is compressed only if that saves more than
// CompressionThreshold bytes (C# Message.Create).
func encodeCompressed(flags Flags, cmd Command, p Payload, size int) ([]byte, error) {
	s := scratches.Get().(*scratch)
	defer scratches.Put(s)
	if s.w == nil {
		s.w = nio.NewBinWriterWithCap(size)
	}
	s.w.Reset()
	p.EncodeBinary(s.w)
	if s.w.Err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, s.w.Err)
	}
	raw := s.w.Bytes()
	if len(raw) != size {
		return nil, fmt.Errorf("%w: %s payload Size %d does not match its encoding", ErrFormat, cmd, size)
	}
	need := 4 + lz4.CompressBlockBound(size)
	if cap(s.comp) < need {
		s.comp = make([]byte, need)
	}
	comp := s.comp[:need]
	n, err := compressInto(raw, comp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	body := raw
	if n < size-CompressionThreshold {
		body = comp[:n]
		flags |= Compressed
	}
	out := make([]byte, 0, 2+nio.VarUintSize(uint64(len(body)))+len(body))
	out = append(out, byte(flags), byte(cmd))
	out = nio.AppendVarUint(out, uint64(len(body)))
	out = append(out, body...)
	if cap(s.comp) > maxPooledScratch {
		s.comp = nil
	}
	if s.w.Len() > maxPooledScratch {
		s.w = nil
	}
	return out, nil
}

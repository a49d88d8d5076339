package io

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"
)

// MaxArraySize is the default upper bound for var-int lengths of arrays and
// byte strings (C#: 0x1000000, the default max of ReadVarMemory).
const MaxArraySize = 0x1000000

// Errors returned (wrapped) by BinReader.
var (
	// ErrUnexpectedEOF means the input ended before the value was complete.
	ErrUnexpectedEOF = errors.New("unexpected end of input")
	// ErrTooLarge means a length or value exceeded the limit given for it.
	ErrTooLarge = errors.New("value exceeds limit")
	// ErrInvalidUTF8 means a var-string is not strict UTF-8.
	ErrInvalidUTF8 = errors.New("invalid UTF-8 string")
	// ErrFormat means the input is not a valid encoding of the value.
	ErrFormat = errors.New("invalid format")
	// ErrTrailingBytes means input was left after a complete value.
	ErrTrailingBytes = errors.New("trailing bytes after value")
)

// emptyBytes is returned for zero-length reads so that "empty" stays
// distinguishable from "error" (nil) even when the input slice is nil.
var emptyBytes = []byte{}

// BinReader decodes Neo binary encodings from a byte slice. The zero value
// is an empty reader.
type BinReader struct {
	buf []byte
	off int
	// Err is the first error met; once set, all reads return zero values.
	Err error
}

// NewBinReaderFromBuf returns a reader over b. The reader does not copy b.
func NewBinReaderFromBuf(b []byte) *BinReader {
	return &BinReader{buf: b}
}

// Reset points r at a new input and clears its error.
func (r *BinReader) Reset(b []byte) {
	r.buf, r.off, r.Err = b, 0, nil
}

// Len returns the number of unread bytes.
func (r *BinReader) Len() int { return len(r.buf) - r.off }

// Offset returns the number of bytes consumed so far.
func (r *BinReader) Offset() int { return r.off }

// SetError sets the sticky error if none is set yet. Decoders use it to
// report semantic errors (bad enum values, broken invariants).
func (r *BinReader) SetError(err error) {
	if r.Err == nil {
		r.Err = err
	}
}

// Errorf sets a formatted sticky error wrapping ErrFormat.
func (r *BinReader) Errorf(format string, args ...any) {
	if r.Err == nil {
		r.Err = fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
}

// next returns the next n bytes (aliased) or nil with the error set.
func (r *BinReader) next(n int) []byte {
	if r.Err != nil {
		return nil
	}
	if n < 0 || len(r.buf)-r.off < n {
		r.Err = ErrUnexpectedEOF
		r.off = len(r.buf)
		return nil
	}
	if n == 0 {
		return emptyBytes[:0:0]
	}
	b := r.buf[r.off : r.off+n : r.off+n]
	r.off += n
	return b
}

// ReadU8 reads one byte.
func (r *BinReader) ReadU8() uint8 {
	b := r.next(1)
	if b == nil {
		return 0
	}
	return b[0]
}

// ReadBool reads one byte; any non-zero value is true, as in C#'s
// BinaryReader.ReadBoolean.
func (r *BinReader) ReadBool() bool { return r.ReadU8() != 0 }

// ReadU16LE reads a little-endian uint16.
func (r *BinReader) ReadU16LE() uint16 {
	b := r.next(2)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint16(b)
}

// ReadU16BE reads a big-endian uint16 (used by a few P2P fields).
func (r *BinReader) ReadU16BE() uint16 {
	b := r.next(2)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint16(b)
}

// ReadU32LE reads a little-endian uint32.
func (r *BinReader) ReadU32LE() uint32 {
	b := r.next(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// ReadU64LE reads a little-endian uint64.
func (r *BinReader) ReadU64LE() uint64 {
	b := r.next(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// ReadI64LE reads a little-endian int64.
func (r *BinReader) ReadI64LE() int64 { return int64(r.ReadU64LE()) }

// ReadVarUint reads a CompactSize integer. Non-minimal encodings are accepted,
// as in C#.
func (r *BinReader) ReadVarUint() uint64 {
	b := r.ReadU8()
	switch b {
	case 0xfd:
		return uint64(r.ReadU16LE())
	case 0xfe:
		return uint64(r.ReadU32LE())
	case 0xff:
		return r.ReadU64LE()
	default:
		return uint64(b)
	}
}

// ReadVarUintMax reads a CompactSize integer and fails with ErrTooLarge if it
// exceeds max (C#: ReadVarInt(max)).
func (r *BinReader) ReadVarUintMax(max uint64) uint64 {
	v := r.ReadVarUint()
	if r.Err == nil && v > max {
		r.Err = fmt.Errorf("%w: %d > %d", ErrTooLarge, v, max)
		return 0
	}
	return v
}

// ReadArrayLen reads a var-int element count bounded by max.
func (r *BinReader) ReadArrayLen(max int) int {
	return int(r.ReadVarUintMax(uint64(max)))
}

func maxOr(max []int) int {
	if len(max) > 0 {
		return max[0]
	}
	return MaxArraySize
}

// ReadVarBytes reads a var-int length and that many bytes, returning a copy.
// The optional max bounds the length (default MaxArraySize).
func (r *BinReader) ReadVarBytes(max ...int) []byte {
	b := r.ReadVarBytesAlias(max...)
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// ReadVarBytesAlias is ReadVarBytes returning a sub-slice of the input (see
// the package doc on ownership). An empty value is returned as a non-nil
// empty slice.
func (r *BinReader) ReadVarBytesAlias(max ...int) []byte {
	n := r.ReadVarUintMax(uint64(maxOr(max)))
	if r.Err != nil {
		return nil
	}
	return r.next(int(n))
}

// ReadBytes fills dst from the input.
func (r *BinReader) ReadBytes(dst []byte) {
	b := r.next(len(dst))
	if b != nil {
		copy(dst, b)
	}
}

// ReadBytesAlias returns the next n bytes as a sub-slice of the input.
func (r *BinReader) ReadBytesAlias(n int) []byte { return r.next(n) }

// ReadVarString reads a var-bytes value that must be strict UTF-8. The
// optional max bounds the byte length (default MaxArraySize).
func (r *BinReader) ReadVarString(max ...int) string {
	b := r.ReadVarBytesAlias(max...)
	if r.Err != nil {
		return ""
	}
	if !utf8.Valid(b) {
		r.Err = ErrInvalidUTF8
		return ""
	}
	return string(b)
}

// Unread returns the unread input without consuming it (a sub-slice of
// the input; see the package doc on ownership). Decoders that hash or copy
// the exact bytes of a value use it together with a sub-reader.
func (r *BinReader) Unread() []byte {
	if r.Err != nil {
		return nil
	}
	return r.buf[r.off:]
}

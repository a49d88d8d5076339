package io

import "encoding/binary"

// BinWriter encodes Neo binary values by appending to an internal buffer.
// Writes to a buffer cannot fail; Err exists so encoders can report semantic
// errors (a value that cannot be encoded) through the same sticky channel.
type BinWriter struct {
	buf []byte
	// Err is the first error met; once set, writes are ignored.
	Err error
}

// BufBinWriter is the writer type used throughout the code base; it is an
// alias kept for readability at call sites that own the buffer.
type BufBinWriter = BinWriter

// NewBufBinWriter returns an empty writer.
func NewBufBinWriter() *BinWriter { return &BinWriter{} }

// NewBinWriterWithCap returns an empty writer with room for n bytes.
func NewBinWriterWithCap(n int) *BinWriter { return &BinWriter{buf: make([]byte, 0, n)} }

// Bytes returns the written bytes (not a copy) or nil if Err is set.
func (w *BinWriter) Bytes() []byte {
	if w.Err != nil {
		return nil
	}
	return w.buf
}

// Len returns the number of bytes written.
func (w *BinWriter) Len() int { return len(w.buf) }

// Reset empties the writer, keeping its capacity, and clears Err.
func (w *BinWriter) Reset() { w.buf, w.Err = w.buf[:0], nil }

// SetError sets the sticky error if none is set yet.
func (w *BinWriter) SetError(err error) {
	if w.Err == nil {
		w.Err = err
	}
}

// WriteU8 writes one byte.
func (w *BinWriter) WriteU8(v uint8) {
	if w.Err == nil {
		w.buf = append(w.buf, v)
	}
}

// WriteBool writes 1 for true, 0 for false.
func (w *BinWriter) WriteBool(v bool) {
	var b uint8
	if v {
		b = 1
	}
	w.WriteU8(b)
}

// WriteU16LE writes a little-endian uint16.
func (w *BinWriter) WriteU16LE(v uint16) {
	if w.Err == nil {
		w.buf = binary.LittleEndian.AppendUint16(w.buf, v)
	}
}

// WriteU16BE writes a big-endian uint16.
func (w *BinWriter) WriteU16BE(v uint16) {
	if w.Err == nil {
		w.buf = binary.BigEndian.AppendUint16(w.buf, v)
	}
}

// WriteU32LE writes a little-endian uint32.
func (w *BinWriter) WriteU32LE(v uint32) {
	if w.Err == nil {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, v)
	}
}

// WriteU64LE writes a little-endian uint64.
func (w *BinWriter) WriteU64LE(v uint64) {
	if w.Err == nil {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
	}
}

// WriteI64LE writes a little-endian int64.
func (w *BinWriter) WriteI64LE(v int64) { w.WriteU64LE(uint64(v)) }

// WriteVarUint writes v as a minimal CompactSize integer.
func (w *BinWriter) WriteVarUint(v uint64) {
	if w.Err == nil {
		w.buf = AppendVarUint(w.buf, v)
	}
}

// WriteBytes writes b as is.
func (w *BinWriter) WriteBytes(b []byte) {
	if w.Err == nil {
		w.buf = append(w.buf, b...)
	}
}

// WriteVarBytes writes a var-int length followed by b.
func (w *BinWriter) WriteVarBytes(b []byte) {
	if w.Err == nil {
		w.buf = AppendVarUint(w.buf, uint64(len(b)))
		w.buf = append(w.buf, b...)
	}
}

// WriteString writes s as var-bytes.
func (w *BinWriter) WriteString(s string) {
	if w.Err == nil {
		w.buf = AppendVarUint(w.buf, uint64(len(s)))
		w.buf = append(w.buf, s...)
	}
}

// Grow ensures room for n more bytes without reallocation.
func (w *BinWriter) Grow(n int) {
	if cap(w.buf)-len(w.buf) < n {
		nb := make([]byte, len(w.buf), 2*cap(w.buf)+n)
		copy(nb, w.buf)
		w.buf = nb
	}
}

// AppendVarUint appends v to b as a minimal CompactSize integer.
func AppendVarUint(b []byte, v uint64) []byte {
	switch {
	case v < 0xfd:
		return append(b, byte(v))
	case v <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(b, 0xfd), uint16(v))
	case v <= 0xffffffff:
		return binary.LittleEndian.AppendUint32(append(b, 0xfe), uint32(v))
	default:
		return binary.LittleEndian.AppendUint64(append(b, 0xff), v)
	}
}

// VarUintSize returns the encoded size of v as a CompactSize integer.
func VarUintSize(v uint64) int {
	switch {
	case v < 0xfd:
		return 1
	case v <= 0xffff:
		return 3
	case v <= 0xffffffff:
		return 5
	default:
		return 9
	}
}

// VarBytesSize returns the encoded size of a var-bytes value of length n.
func VarBytesSize(n int) int { return VarUintSize(uint64(n)) + n }

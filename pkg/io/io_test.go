package io

import (
	"bytes"
	"errors"
	"testing"
)

func TestVarUintRoundTrip(t *testing.T) {
	cases := []struct {
		v    uint64
		size int
	}{
		{0, 1}, {0xfc, 1}, {0xfd, 3}, {0xffff, 3}, {0x10000, 5},
		{0xffffffff, 5}, {0x100000000, 9}, {^uint64(0), 9},
	}
	for _, c := range cases {
		w := NewBufBinWriter()
		w.WriteVarUint(c.v)
		if w.Len() != c.size || VarUintSize(c.v) != c.size {
			t.Fatalf("%d: size %d/%d, want %d", c.v, w.Len(), VarUintSize(c.v), c.size)
		}
		r := NewBinReaderFromBuf(w.Bytes())
		if got := r.ReadVarUint(); got != c.v || r.Err != nil || r.Len() != 0 {
			t.Fatalf("%d: got %d, err %v", c.v, got, r.Err)
		}
	}
}

func TestVarUintNonMinimalAccepted(t *testing.T) {
	r := NewBinReaderFromBuf([]byte{0xfd, 0x01, 0x00})
	if v := r.ReadVarUint(); v != 1 || r.Err != nil {
		t.Fatalf("got %d, %v", v, r.Err)
	}
}

func TestReadVarUintMax(t *testing.T) {
	r := NewBinReaderFromBuf([]byte{0x11})
	r.ReadVarUintMax(0x10)
	if !errors.Is(r.Err, ErrTooLarge) {
		t.Fatalf("want ErrTooLarge, got %v", r.Err)
	}
}

func TestFixedInts(t *testing.T) {
	w := NewBufBinWriter()
	w.WriteU8(1)
	w.WriteBool(true)
	w.WriteU16LE(0x0203)
	w.WriteU16BE(0x0405)
	w.WriteU32LE(0x06070809)
	w.WriteU64LE(0x0a0b0c0d0e0f1011)
	w.WriteI64LE(-2)
	want := []byte{1, 1, 3, 2, 4, 5, 9, 8, 7, 6, 0x11, 0x10, 0xf, 0xe, 0xd, 0xc, 0xb, 0xa,
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	if !bytes.Equal(w.Bytes(), want) {
		t.Fatalf("got %x", w.Bytes())
	}
	r := NewBinReaderFromBuf(want)
	if r.ReadU8() != 1 || !r.ReadBool() || r.ReadU16LE() != 0x0203 || r.ReadU16BE() != 0x0405 ||
		r.ReadU32LE() != 0x06070809 || r.ReadU64LE() != 0x0a0b0c0d0e0f1011 || r.ReadI64LE() != -2 {
		t.Fatal("mismatch")
	}
	if r.Err != nil || r.Len() != 0 {
		t.Fatal(r.Err)
	}
}

func TestStickyError(t *testing.T) {
	r := NewBinReaderFromBuf([]byte{1, 2})
	_ = r.ReadU32LE()
	if !errors.Is(r.Err, ErrUnexpectedEOF) {
		t.Fatalf("got %v", r.Err)
	}
	if r.ReadU8() != 0 || r.ReadVarBytes() != nil {
		t.Fatal("reads after an error must return zero values")
	}
}

func TestVarBytes(t *testing.T) {
	w := NewBufBinWriter()
	w.WriteVarBytes(nil)
	w.WriteVarBytes([]byte{1, 2, 3})
	w.WriteString("héllo")
	r := NewBinReaderFromBuf(w.Bytes())
	if b := r.ReadVarBytes(); b == nil || len(b) != 0 {
		t.Fatalf("empty var-bytes must be non-nil and empty, got %v", b)
	}
	b := r.ReadVarBytes(3)
	if !bytes.Equal(b, []byte{1, 2, 3}) {
		t.Fatalf("got %x", b)
	}
	if s := r.ReadVarString(); s != "héllo" || r.Err != nil {
		t.Fatalf("got %q %v", s, r.Err)
	}
	// Copies do not alias the input.
	in := []byte{2, 7, 8}
	r = NewBinReaderFromBuf(in)
	c := r.ReadVarBytes()
	in[1] = 0
	if c[0] != 7 {
		t.Fatal("ReadVarBytes must copy")
	}
	r = NewBinReaderFromBuf(in)
	a := r.ReadVarBytesAlias()
	in[1] = 9
	if a[0] != 9 {
		t.Fatal("ReadVarBytesAlias must alias")
	}
	// Empty var-bytes from a nil-backed reader is still non-nil.
	var zr BinReader
	zr.Reset([]byte{0})
	if b := zr.ReadVarBytes(); b == nil || zr.Err != nil {
		t.Fatal("empty value must be non-nil")
	}
}

func TestVarBytesLimits(t *testing.T) {
	r := NewBinReaderFromBuf([]byte{4, 1, 2, 3, 4})
	r.ReadVarBytes(3)
	if !errors.Is(r.Err, ErrTooLarge) {
		t.Fatalf("got %v", r.Err)
	}
	r = NewBinReaderFromBuf([]byte{0xfe, 0xff, 0xff, 0xff, 0x00})
	r.ReadVarBytes()
	if !errors.Is(r.Err, ErrUnexpectedEOF) {
		t.Fatalf("a length beyond the input must fail without allocating, got %v", r.Err)
	}
	r = NewBinReaderFromBuf([]byte{2, 0xc3, 0x28})
	r.ReadVarString()
	if !errors.Is(r.Err, ErrInvalidUTF8) {
		t.Fatalf("got %v", r.Err)
	}
}

type pair struct{ a, b uint8 }

func (p *pair) EncodeBinary(w *BinWriter) { w.WriteU8(p.a); w.WriteU8(p.b) }
func (p *pair) DecodeBinary(r *BinReader) { p.a = r.ReadU8(); p.b = r.ReadU8() }

func TestArrays(t *testing.T) {
	in := []*pair{{1, 2}, {3, 4}}
	w := NewBufBinWriter()
	WriteArray(w, in)
	r := NewBinReaderFromBuf(w.Bytes())
	out := ReadArray[pair](r, 10)
	if r.Err != nil || len(out) != 2 || out[1] != (pair{3, 4}) {
		t.Fatalf("got %v %v", out, r.Err)
	}
	vw := NewBufBinWriter()
	WriteValues(vw, []pair{{1, 2}, {3, 4}})
	if !bytes.Equal(vw.Bytes(), w.Bytes()) {
		t.Fatalf("WriteValues %x, WriteArray %x", vw.Bytes(), w.Bytes())
	}
	r = NewBinReaderFromBuf(w.Bytes())
	pout := ReadPtrArray[pair](r, 10)
	if r.Err != nil || len(pout) != 2 || *pout[0] != (pair{1, 2}) {
		t.Fatalf("got %v %v", pout, r.Err)
	}
	r = NewBinReaderFromBuf(w.Bytes())
	ReadArray[pair](r, 1)
	if !errors.Is(r.Err, ErrTooLarge) {
		t.Fatalf("got %v", r.Err)
	}
	r = NewBinReaderFromBuf([]byte{0xfd, 0xff, 0x00, 1})
	ReadArray[pair](r, MaxArraySize)
	if r.Err == nil {
		t.Fatal("a count larger than the input must fail")
	}
}

func TestToFromBytes(t *testing.T) {
	b, err := ToBytes(&pair{5, 6})
	if err != nil || !bytes.Equal(b, []byte{5, 6}) {
		t.Fatal(b, err)
	}
	var p pair
	if err := FromBytes([]byte{5, 6, 7}, &p); !errors.Is(err, ErrTrailingBytes) {
		t.Fatalf("got %v", err)
	}
	if err := FromBytes([]byte{5}, &p); !errors.Is(err, ErrUnexpectedEOF) {
		t.Fatalf("got %v", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte{0xfd, 0x02, 0x00, 'h', 'i', 1, 2, 3, 4})
	f.Add([]byte{0xff, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewBinReaderFromBuf(data)
		for r.Err == nil && r.Len() > 0 {
			switch r.ReadU8() % 6 {
			case 0:
				r.ReadVarBytes(1024)
			case 1:
				r.ReadVarString(64)
			case 2:
				r.ReadVarUint()
			case 3:
				r.ReadU64LE()
			case 4:
				ReadArray[pair](r, 100)
			case 5:
				r.ReadBytesAlias(int(r.ReadU8()))
			}
		}
	})
}

func BenchmarkWriteVarBytes(b *testing.B) {
	data := make([]byte, 100)
	w := NewBinWriterWithCap(1024)
	b.ReportAllocs()
	for b.Loop() {
		w.Reset()
		w.WriteVarBytes(data)
		w.WriteU32LE(1)
		w.WriteVarUint(300)
	}
}

func BenchmarkReadVarBytesAlias(b *testing.B) {
	w := NewBufBinWriter()
	for range 10 {
		w.WriteVarBytes(make([]byte, 40))
	}
	buf := w.Bytes()
	var r BinReader
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(buf)
		for range 10 {
			r.ReadVarBytesAlias()
		}
	}
}

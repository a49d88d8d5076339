package io

// Encodable is implemented by values that write themselves to a BinWriter.
type Encodable interface {
	EncodeBinary(w *BinWriter)
}

// Decodable is implemented by pointers to values that read themselves from a
// BinReader.
type Decodable interface {
	DecodeBinary(r *BinReader)
}

// Serializable is both.
type Serializable interface {
	Encodable
	Decodable
}

// decodablePtr constrains PT to be *T implementing Decodable, so ReadArray
// can allocate []T and decode in place without reflection.
type decodablePtr[T any] interface {
	*T
	Decodable
}

// ReadArray reads a var-int count (at most max) followed by that many
// elements, decoded in place into one allocated slice. It returns nil on
// error.
func ReadArray[T any, PT decodablePtr[T]](r *BinReader, max int) []T {
	n := r.ReadArrayLen(max)
	if r.Err != nil {
		return nil
	}
	// Each element takes at least one byte: refuse counts the input cannot
	// hold before allocating.
	if n > r.Len() {
		r.Err = ErrUnexpectedEOF
		return nil
	}
	arr := make([]T, n)
	for i := range arr {
		PT(&arr[i]).DecodeBinary(r)
		if r.Err != nil {
			return nil
		}
	}
	return arr
}

// ReadPtrArray is ReadArray for slices of pointers ([]*T): the elements
// share one allocation.
func ReadPtrArray[T any, PT decodablePtr[T]](r *BinReader, max int) []*T {
	vals := ReadArray[T, PT](r, max)
	if vals == nil {
		return nil
	}
	arr := make([]*T, len(vals))
	for i := range vals {
		arr[i] = &vals[i]
	}
	return arr
}

// WriteArray writes a var-int count followed by every element.
func WriteArray[T Encodable](w *BinWriter, arr []T) {
	w.WriteVarUint(uint64(len(arr)))
	for _, e := range arr {
		e.EncodeBinary(w)
	}
}

// encodablePtr constrains PT to be *T implementing Encodable, for slices of
// values whose EncodeBinary has a pointer receiver.
type encodablePtr[T any] interface {
	*T
	Encodable
}

// WriteValues is WriteArray for a slice of values encoded through their
// pointers (no slice of pointers needs building).
func WriteValues[T any, PT encodablePtr[T]](w *BinWriter, arr []T) {
	w.WriteVarUint(uint64(len(arr)))
	for i := range arr {
		PT(&arr[i]).EncodeBinary(w)
	}
}

// ToBytes encodes v into a fresh byte slice.
func ToBytes(v Encodable) ([]byte, error) {
	w := NewBufBinWriter()
	v.EncodeBinary(w)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.buf, nil
}

// FromBytes decodes b into v and requires every byte to be consumed.
func FromBytes(b []byte, v Decodable) error {
	r := NewBinReaderFromBuf(b)
	v.DecodeBinary(r)
	if r.Err != nil {
		return r.Err
	}
	if r.Len() != 0 {
		return ErrTrailingBytes
	}
	return nil
}

package stackitem

// Allocator hands out Integer, ByteString and Buffer items from chunks, so
// a VM creating many items pays one allocation per chunk instead of one per
// item. A chunk stays alive while any item in it is referenced, which bounds
// the extra memory to one chunk per live item. The zero value is ready to
// use; an Allocator is not safe for concurrent use.
type Allocator struct {
	ints []Integer
	strs []ByteString
	bufs []Buffer
}

const allocChunk = 64

// Int returns an Integer holding v (shared preallocated items for small
// values, as NewInt).
func (a *Allocator) Int(v int64) *Integer {
	if v >= cacheMin && v < cacheMax {
		return &intCache[v-cacheMin]
	}
	if len(a.ints) == 0 {
		a.ints = make([]Integer, allocChunk)
	}
	i := &a.ints[0]
	a.ints = a.ints[1:]
	i.small = v
	return i
}

// ByteString returns a ByteString holding b (not copied).
func (a *Allocator) ByteString(b []byte) *ByteString {
	if len(a.strs) == 0 {
		a.strs = make([]ByteString, allocChunk)
	}
	s := &a.strs[0]
	a.strs = a.strs[1:]
	s.b = b
	return s
}

// Buffer returns a Buffer holding b (not copied).
func (a *Allocator) Buffer(b []byte) *Buffer {
	if len(a.bufs) == 0 {
		a.bufs = make([]Buffer, allocChunk)
	}
	s := &a.bufs[0]
	a.bufs = a.bufs[1:]
	s.b = b
	return s
}

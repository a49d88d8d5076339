package stackitem

import (
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/encoding/bigint"
)

// Allocator hands out Integer, ByteString and Buffer items from chunks, so
// a VM creating many items pays one allocation per chunk instead of one per
// item. A chunk stays alive while any item in it is referenced, which bounds
// the extra memory to one chunk per live item. The zero value is ready to
// use; an Allocator is not safe for concurrent use.
type Allocator struct {
	ints    []Integer
	strs    []ByteString
	bufs    []Buffer
	cells   []bigCell
	pending *bigCell
	ops     [3]big.Int
}

// Operand returns v as a big.Int from one of three reusable operand slots
// (0, 1, 2); the value stays valid until the slot is used again. It lets
// mixed small/big arithmetic avoid allocating for the small operand.
func (a *Allocator) Operand(slot int, v int64) *big.Int {
	return a.ops[slot].SetInt64(v)
}

const allocChunk = 64

// Int returns an Integer holding v (shared preallocated items for small
// values, as NewInt).
func (a *Allocator) Int(v int64) *Integer {
	if v >= cacheMin && v < cacheMax {
		return &intCache[v-cacheMin]
	}
	i := take(&a.ints)
	i.small = v
	return i
}

// take returns the next item of a slab, allocating a new slab of
// allocChunk items when it is used up.
func take[T any](slab *[]T) *T {
	if len(*slab) == 0 {
		*slab = make([]T, allocChunk)
	}
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	return p
}

// ByteString returns a ByteString holding b (not copied).
func (a *Allocator) ByteString(b []byte) *ByteString {
	s := take(&a.strs)
	s.b = b
	return s
}

// Buffer returns a Buffer holding b (not copied).
func (a *Allocator) Buffer(b []byte) *Buffer {
	s := take(&a.bufs)
	s.b = b
	return s
}

// bigCell holds an Integer, its big.Int and room for a 256-bit value in one
// allocation.
type bigCell struct {
	i Integer
	v big.Int
	w [5]big.Word
}

// Scratch returns a zero big.Int to compute a result into; pass it to Finish
// to get the Integer. Its storage holds 256 bits without allocating.
func (a *Allocator) Scratch() *big.Int {
	if len(a.cells) == 0 {
		a.cells = make([]bigCell, allocChunk/4)
	}
	c := &a.cells[0]
	a.cells = a.cells[1:]
	c.v.SetBits(c.w[:0])
	a.pending = c
	return &c.v
}

// Finish turns the last Scratch value into an Integer, or fails with
// ErrIntegerTooBig. z must be the big.Int the last Scratch returned.
func (a *Allocator) Finish(z *big.Int) (*Integer, error) {
	c := a.pending
	a.pending = nil
	if c == nil || z != &c.v {
		return TryNewBigInteger(z)
	}
	if z.IsInt64() {
		return a.Int(z.Int64()), nil
	}
	if z.BitLen() > 8*MaxIntegerSize-1 && !isMinInt256(z) {
		return nil, fmt.Errorf("%w: %d bytes", ErrIntegerTooBig, bigint.Len(z))
	}
	c.i.big = z
	return &c.i, nil
}

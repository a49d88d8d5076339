package stackitem

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/encoding/bigint"
)

// Protocol limits on items (C# Integer, Map and ExecutionEngineLimits).
const (
	// MaxIntegerSize is the largest Integer in bytes (C# Integer.MaxSize).
	MaxIntegerSize = bigint.MaxBytesLen
	// MaxKeySize is the largest Map key in bytes (C# Map.MaxKeySize).
	MaxKeySize = 64
	// MaxSize is the largest item in bytes (C# ExecutionEngineLimits.MaxItemSize,
	// ushort.MaxValue * 2 since neo-vm 3.6.2).
	MaxSize = 65535 * 2
	// MaxComparableSize is the byte budget of one EQUAL (C#
	// ExecutionEngineLimits.MaxComparableSize).
	MaxComparableSize = 65536
	// MaxItems bounds struct comparison and cloning, serialization and
	// deserialization item counts (C# ExecutionEngineLimits.MaxStackSize).
	MaxItems = 2048
)

// Errors returned by item operations. They correspond to the C# exception
// classes; callers branch on them with errors.Is.
var (
	// ErrInvalidCast is C# InvalidCastException: the item cannot be used as
	// the requested type.
	ErrInvalidCast = errors.New("invalid cast")
	// ErrIntegerTooBig is returned when an integer exceeds MaxIntegerSize.
	ErrIntegerTooBig = errors.New("integer exceeds 32 bytes")
	// ErrTooBig is returned when an item exceeds MaxSize or a limit of the
	// serialization formats.
	ErrTooBig = errors.New("item too big")
	// ErrReadOnly is returned when a read-only compound is modified.
	ErrReadOnly = errors.New("the object is readonly")
	// ErrInvalidKey is returned for a map key that is not primitive or is
	// longer than MaxKeySize.
	ErrInvalidKey = errors.New("invalid map key")
	// ErrLimit is returned when a comparison or clone exceeds its limits.
	ErrLimit = errors.New("limit exceeded")
	// ErrNotSupported is C# NotSupportedException (for example serializing an
	// interop item or a container twice).
	ErrNotSupported = errors.New("not supported")
	// ErrFormat is C# FormatException from the deserializers.
	ErrFormat = errors.New("invalid format")
)

// Item is a NeoVM stack item. The set of implementations is closed: Null,
// Bool, *Integer, *ByteString, *Buffer, *Array, *Map, *Pointer, *Interop.
type Item interface {
	// Type returns the item type.
	Type() Type
	// TryBool is C# GetBoolean.
	TryBool() (bool, error)
	// TryBytes is C# GetSpan: the bytes of a primitive item or Buffer. The
	// slice belongs to the item.
	TryBytes() ([]byte, error)
	// TryInteger is C# GetInteger. The result is a fresh big.Int.
	TryInteger() (*big.Int, error)
	// Equals is C# Equals(StackItem) without the comparison limits: value
	// equality for Null, Bool, Integer, ByteString and Pointer, identity for
	// Buffer, Array, Map; Interop compares the wrapped values. Struct uses
	// the limited deep comparison, see Equal.
	Equals(Item) bool
	// String is C# ToString, used in some exception messages.
	String() string
	// Value returns the item as a Go value: nil, bool, *big.Int (fresh),
	// []byte, []Item, []MapElement, int (pointer position) or the interop
	// value.
	Value() any

	sealed()
}

// Null is the Any/Null item.
type Null struct{}

// Type implements Item.
func (Null) Type() Type { return AnyT }

// TryBool implements Item: Null is false.
func (Null) TryBool() (bool, error) { return false, nil }

// TryBytes implements Item: Null has no bytes.
func (Null) TryBytes() ([]byte, error) { return nil, ErrInvalidCast }

// TryInteger implements Item: Null is not an integer.
func (Null) TryInteger() (*big.Int, error) { return nil, ErrInvalidCast }

// Equals implements Item.
func (Null) Equals(o Item) bool { _, ok := o.(Null); return ok }

// String implements Item.
func (Null) String() string { return "NULL" }

// Value implements Item.
func (Null) Value() any { return nil }
func (Null) sealed()    {}

// Bool is the Boolean item.
type Bool bool

// Type implements Item.
func (Bool) Type() Type { return BooleanT }

// TryBool implements Item.
func (b Bool) TryBool() (bool, error) { return bool(b), nil }

var (
	trueBytes  = []byte{1}
	falseBytes = []byte{0}
)

// TryBytes implements Item: 01 or 00.
func (b Bool) TryBytes() ([]byte, error) {
	if b {
		return trueBytes, nil
	}
	return falseBytes, nil
}

// TryInteger implements Item: 1 or 0.
func (b Bool) TryInteger() (*big.Int, error) {
	if b {
		return big.NewInt(1), nil
	}
	return new(big.Int), nil
}

// Equals implements Item.
func (b Bool) Equals(o Item) bool { c, ok := o.(Bool); return ok && c == b }

// String implements Item ("True"/"False" as C# bool.ToString).
func (b Bool) String() string {
	if b {
		return "True"
	}
	return "False"
}

// Value implements Item.
func (b Bool) Value() any { return bool(b) }
func (Bool) sealed()      {}

// Integer is the Integer item. Use NewInt or NewBigInteger to create one.
type Integer struct {
	small int64
	big   *big.Int // nil when the value fits int64
}

const (
	cacheMin = -16
	cacheMax = 1024
)

var intCache = func() []Integer {
	c := make([]Integer, cacheMax-cacheMin)
	for i := range c {
		c[i].small = int64(i + cacheMin)
	}
	return c
}()

// NewInt returns an Integer holding v. Small values share preallocated items.
func NewInt(v int64) *Integer {
	if v >= cacheMin && v < cacheMax {
		return &intCache[v-cacheMin]
	}
	return &Integer{small: v}
}

// TryNewBigInteger returns an Integer holding x, or ErrIntegerTooBig if x
// needs more than MaxIntegerSize bytes (C# Integer constructor). It takes
// ownership of x.
func TryNewBigInteger(x *big.Int) (*Integer, error) {
	if x.IsInt64() {
		return NewInt(x.Int64()), nil
	}
	if x.BitLen() > 8*MaxIntegerSize-1 && !isMinInt256(x) {
		return nil, fmt.Errorf("%w: %d bytes", ErrIntegerTooBig, bigint.Len(x))
	}
	return &Integer{big: x}, nil
}

// isMinInt256 reports whether x is -2^255, the one 32-byte value whose
// magnitude has 256 bits.
func isMinInt256(x *big.Int) bool {
	return x.Sign() < 0 && x.BitLen() == 8*MaxIntegerSize && x.TrailingZeroBits() == 8*MaxIntegerSize-1
}

// NewBigInteger is TryNewBigInteger for values known to fit; it panics if x
// exceeds MaxIntegerSize.
func NewBigInteger(x *big.Int) *Integer {
	i, err := TryNewBigInteger(x)
	if err != nil {
		panic(err)
	}
	return i
}

// Type implements Item.
func (*Integer) Type() Type { return IntegerT }

// TryBool implements Item: non-zero is true.
func (i *Integer) TryBool() (bool, error) { return i.Sign() != 0, nil }

// TryBytes implements Item: the minimal encoding (empty for zero). The slice
// is fresh.
func (i *Integer) TryBytes() ([]byte, error) { return i.AppendBytes(nil), nil }

// AppendBytes appends the minimal encoding of the value to dst.
func (i *Integer) AppendBytes(dst []byte) []byte {
	if i.big == nil {
		return bigint.AppendInt64(dst, i.small)
	}
	return bigint.Append(dst, i.big)
}

// TryInteger implements Item.
func (i *Integer) TryInteger() (*big.Int, error) { return i.BigInt(), nil }

// BigInt returns the value as a fresh big.Int.
func (i *Integer) BigInt() *big.Int {
	if i.big == nil {
		return big.NewInt(i.small)
	}
	return new(big.Int).Set(i.big)
}

// Int64 returns the value and true if it fits in int64.
func (i *Integer) Int64() (int64, bool) { return i.small, i.big == nil }

// Big returns the value as a big.Int that the caller must not modify; for
// values that fit int64 it returns nil.
func (i *Integer) Big() *big.Int { return i.big }

// Sign returns -1, 0 or +1.
func (i *Integer) Sign() int {
	if i.big != nil {
		return i.big.Sign()
	}
	switch {
	case i.small < 0:
		return -1
	case i.small > 0:
		return 1
	}
	return 0
}

// Cmp compares two integers and returns -1, 0 or +1.
func (i *Integer) Cmp(j *Integer) int {
	if i.big == nil && j.big == nil {
		switch {
		case i.small < j.small:
			return -1
		case i.small > j.small:
			return 1
		}
		return 0
	}
	var a, b big.Int
	return i.bigValue(&a).Cmp(j.bigValue(&b))
}

// bigValue returns the value as a big.Int, using tmp for small values.
func (i *Integer) bigValue(tmp *big.Int) *big.Int {
	if i.big != nil {
		return i.big
	}
	return tmp.SetInt64(i.small)
}

// Size returns the minimal encoded size in bytes (0 for zero), C# Integer.Size.
func (i *Integer) Size() int {
	if i.big == nil {
		return bigint.Int64Len(i.small)
	}
	return bigint.Len(i.big)
}

// Equals implements Item.
func (i *Integer) Equals(o Item) bool {
	j, ok := o.(*Integer)
	if !ok {
		return false
	}
	if i.big == nil || j.big == nil {
		return i.big == nil && j.big == nil && i.small == j.small
	}
	return i.big.Cmp(j.big) == 0
}

// String implements Item: the decimal value.
func (i *Integer) String() string {
	if i.big == nil {
		return strconv.FormatInt(i.small, 10)
	}
	return i.big.String()
}

// Value implements Item.
func (i *Integer) Value() any { return i.BigInt() }
func (*Integer) sealed()      {}

// ByteString is the immutable ByteString item.
type ByteString struct {
	b []byte
}

// NewByteString returns a ByteString holding b (not copied).
func NewByteString(b []byte) *ByteString { return &ByteString{b: b} }

// Bytes returns the bytes; callers must not modify them.
func (s *ByteString) Bytes() []byte { return s.b }

// Size returns the length in bytes.
func (s *ByteString) Size() int { return len(s.b) }

// Type implements Item.
func (*ByteString) Type() Type { return ByteStringT }

// TryBool implements Item: true if any byte is non-zero; ErrInvalidCast for
// more than MaxIntegerSize bytes.
func (s *ByteString) TryBool() (bool, error) {
	if len(s.b) > MaxIntegerSize {
		return false, fmt.Errorf("%w: ByteString of %d bytes to Boolean", ErrInvalidCast, len(s.b))
	}
	for _, c := range s.b {
		if c != 0 {
			return true, nil
		}
	}
	return false, nil
}

// TryBytes implements Item.
func (s *ByteString) TryBytes() ([]byte, error) { return s.b, nil }

// TryInteger implements Item; ErrInvalidCast for more than MaxIntegerSize bytes.
func (s *ByteString) TryInteger() (*big.Int, error) {
	if len(s.b) > MaxIntegerSize {
		return nil, s.tooBigForInt()
	}
	return bigint.FromBytes(s.b), nil
}

func (s *ByteString) tooBigForInt() error {
	return fmt.Errorf("%w: Can not convert ByteString to an integer, MaxSize of Integer is exceeded: %d/%d", ErrInvalidCast, len(s.b), MaxIntegerSize)
}

// Equals implements Item: byte-wise equality with another ByteString.
func (s *ByteString) Equals(o Item) bool {
	t, ok := o.(*ByteString)
	return ok && (s == t || string(s.b) == string(t.b))
}

// String implements Item (C# ByteString.ToString).
func (s *ByteString) String() string {
	if utf8.Valid(s.b) {
		return `"` + string(s.b) + `"`
	}
	return `"Base64: ` + base64.StdEncoding.EncodeToString(s.b) + `"`
}

// Value implements Item.
func (s *ByteString) Value() any { return s.b }
func (*ByteString) sealed()      {}

// Buffer is the mutable Buffer item.
type Buffer struct {
	b []byte
}

// NewBuffer returns a Buffer holding b (not copied).
func NewBuffer(b []byte) *Buffer { return &Buffer{b: b} }

// Bytes returns the buffer's own storage.
func (b *Buffer) Bytes() []byte { return b.b }

// Size returns the length in bytes.
func (b *Buffer) Size() int { return len(b.b) }

// Type implements Item.
func (*Buffer) Type() Type { return BufferT }

// TryBool implements Item: a Buffer is always true.
func (*Buffer) TryBool() (bool, error) { return true, nil }

// TryBytes implements Item.
func (b *Buffer) TryBytes() ([]byte, error) { return b.b, nil }

// TryInteger implements Item: C# Buffer has no GetInteger (only CONVERT to
// Integer works), so this is ErrInvalidCast.
func (*Buffer) TryInteger() (*big.Int, error) { return nil, ErrInvalidCast }

// Equals implements Item: identity.
func (b *Buffer) Equals(o Item) bool { c, ok := o.(*Buffer); return ok && c == b }

// String implements Item (C# Buffer.ToString).
func (b *Buffer) String() string {
	if utf8.Valid(b.b) {
		return `("` + string(b.b) + `")`
	}
	return `("Base64: ` + base64.StdEncoding.EncodeToString(b.b) + `")`
}

// Value implements Item.
func (b *Buffer) Value() any { return b.b }
func (*Buffer) sealed()      {}

// Pointer is a position in a script. Two pointers are equal when they have
// the same position in the same loaded script (Script identity).
type Pointer struct {
	pos    int
	script any
}

// NewPointer returns a pointer to position pos of the script identified by
// script (any comparable value, normally the VM's *Script).
func NewPointer(pos int, script any) *Pointer { return &Pointer{pos: pos, script: script} }

// Position returns the target position.
func (p *Pointer) Position() int { return p.pos }

// Script returns the identity of the script the pointer belongs to.
func (p *Pointer) Script() any { return p.script }

// Type implements Item.
func (*Pointer) Type() Type { return PointerT }

// TryBool implements Item: always true.
func (*Pointer) TryBool() (bool, error) { return true, nil }

// TryBytes implements Item: ErrInvalidCast.
func (*Pointer) TryBytes() ([]byte, error) { return nil, ErrInvalidCast }

// TryInteger implements Item: ErrInvalidCast.
func (*Pointer) TryInteger() (*big.Int, error) { return nil, ErrInvalidCast }

// Equals implements Item.
func (p *Pointer) Equals(o Item) bool {
	q, ok := o.(*Pointer)
	return ok && (p == q || (p.pos == q.pos && p.script == q.script))
}

// String implements Item.
func (p *Pointer) String() string { return strconv.Itoa(p.pos) }

// Value implements Item.
func (p *Pointer) Value() any { return p.pos }
func (*Pointer) sealed()      {}

// Interop wraps a host object (C# InteropInterface).
type Interop struct {
	value any
}

// NewInterop wraps v, which must not be nil.
func NewInterop(v any) *Interop { return &Interop{value: v} }

// Type implements Item.
func (*Interop) Type() Type { return InteropT }

// TryBool implements Item: always true.
func (*Interop) TryBool() (bool, error) { return true, nil }

// TryBytes implements Item: ErrInvalidCast.
func (*Interop) TryBytes() ([]byte, error) { return nil, ErrInvalidCast }

// TryInteger implements Item: ErrInvalidCast.
func (*Interop) TryInteger() (*big.Int, error) { return nil, ErrInvalidCast }

// Equals implements Item: the same Interop, or wrapped values that are equal
// (an Equals(any) bool method if the value has one, otherwise ==, which is
// identity for pointers).
func (i *Interop) Equals(o Item) bool {
	j, ok := o.(*Interop)
	if !ok {
		return false
	}
	if i == j {
		return true
	}
	if e, ok := i.value.(interface{ Equals(any) bool }); ok {
		return e.Equals(j.value)
	}
	return comparableEqual(i.value, j.value)
}

// String implements Item.
func (i *Interop) String() string { return fmt.Sprint(i.value) }

// Value implements Item: the wrapped object.
func (i *Interop) Value() any { return i.value }
func (*Interop) sealed()      {}

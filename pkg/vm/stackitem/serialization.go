package stackitem

import (
	"fmt"

	nio "github.com/n3node/n3node/pkg/io"
)

// Serialize encodes item in the StdLib binary format (C# BinarySerializer)
// with the VM limits: at most MaxSize bytes and MaxItems items.
func Serialize(item Item) ([]byte, error) {
	return AppendSerialized(nil, item, MaxSize, MaxItems)
}

// compoundSet holds the compound items a serialization met; the first few
// are kept in place (an event's state has one or two), more in a map.
type compoundSet struct {
	few  [8]Item
	n    int
	many map[Item]struct{}
}

// add reports whether it was new, adding it.
func (s *compoundSet) add(it Item) bool {
	for i := range s.n {
		if s.few[i] == it {
			return false
		}
	}
	if _, ok := s.many[it]; ok {
		return false
	}
	if s.n < len(s.few) {
		s.few[s.n] = it
		s.n++
		return true
	}
	if s.many == nil {
		s.many = make(map[Item]struct{})
	}
	s.many[it] = struct{}{}
	return true
}

// AppendSerialized appends the binary encoding of item to dst. It fails with
// ErrTooBig when the encoding grows beyond maxSize bytes, ErrFormat for more
// than maxItems items, and ErrNotSupported for Pointer and Interop items and
// for a compound item met twice (also when it is not a cycle, as in C#).
func AppendSerialized(dst []byte, item Item, maxSize, maxItems int) ([]byte, error) {
	start := len(dst)
	var seen compoundSet
	stack := make([]Item, 1, 16)
	stack[0] = item
	for len(stack) > 0 {
		maxItems--
		if maxItems < 0 {
			return dst, fmt.Errorf("%w: too many items to serialize", ErrFormat)
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := it.(type) {
		case Null:
			dst = append(dst, byte(AnyT))
		case Bool:
			if x {
				dst = append(dst, byte(BooleanT), 1)
			} else {
				dst = append(dst, byte(BooleanT), 0)
			}
		case *Integer:
			dst = append(dst, byte(IntegerT))
			dst = nio.AppendVarUint(dst, uint64(x.Size()))
			dst = x.AppendBytes(dst)
		case *ByteString:
			dst = append(dst, byte(ByteStringT))
			dst = nio.AppendVarUint(dst, uint64(len(x.b)))
			dst = append(dst, x.b...)
		case *Buffer:
			dst = append(dst, byte(BufferT))
			dst = nio.AppendVarUint(dst, uint64(len(x.b)))
			dst = append(dst, x.b...)
		case *Array:
			if !seen.add(x) {
				return dst, fmt.Errorf("%w: compound item serialized twice", ErrNotSupported)
			}
			dst = append(dst, byte(x.Type()))
			dst = nio.AppendVarUint(dst, uint64(len(x.items)))
			for i := len(x.items) - 1; i >= 0; i-- {
				stack = append(stack, x.items[i])
			}
		case *Map:
			if !seen.add(x) {
				return dst, fmt.Errorf("%w: compound item serialized twice", ErrNotSupported)
			}
			dst = append(dst, byte(MapT))
			dst = nio.AppendVarUint(dst, uint64(len(x.elems)))
			for i := len(x.elems) - 1; i >= 0; i-- {
				stack = append(stack, x.elems[i].Value, x.elems[i].Key)
			}
		default:
			return dst, fmt.Errorf("%w: %s is not serializable", ErrNotSupported, it.Type())
		}
		if len(dst)-start > maxSize {
			return dst, fmt.Errorf("%w: serialized size exceeds %d", ErrTooBig, maxSize)
		}
	}
	return dst, nil
}

// Deserialize decodes the StdLib binary format with the VM limits (C#
// BinarySerializer.Deserialize(data, limits)): ByteStrings and Buffers of at
// most min(len(data), MaxSize) bytes and at most MaxItems items. Trailing
// bytes are ignored, as in C#. ByteStrings in the result alias data.
func Deserialize(data []byte) (Item, error) {
	return DeserializeLimited(data, min(len(data), MaxSize), MaxItems)
}

type placeholder struct {
	typ   Type
	count int
}

// DeserializeLimited is Deserialize with explicit limits.
func DeserializeLimited(data []byte, maxSize, maxItems int) (Item, error) {
	r := nio.NewBinReaderFromBuf(data)
	// deserialized holds either an Item or a *placeholder.
	deserialized := make([]any, 0, 8)
	for undeserialized := 1; undeserialized > 0; undeserialized-- {
		t := Type(r.ReadU8())
		if r.Err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, r.Err)
		}
		switch t {
		case AnyT:
			deserialized = append(deserialized, Null{})
		case BooleanT:
			switch b := r.ReadU8(); {
			case r.Err != nil:
			case b == 0:
				deserialized = append(deserialized, Bool(false))
			case b == 1:
				deserialized = append(deserialized, Bool(true))
			default:
				return nil, fmt.Errorf("%w: invalid boolean value: %d", ErrFormat, b)
			}
		case IntegerT:
			b := r.ReadVarBytesAlias(MaxIntegerSize)
			if r.Err == nil {
				deserialized = append(deserialized, intFromBytes(b))
			}
		case ByteStringT:
			b := r.ReadVarBytesAlias(maxSize)
			if r.Err == nil {
				deserialized = append(deserialized, NewByteString(b))
			}
		case BufferT:
			b := r.ReadVarBytes(maxSize)
			if r.Err == nil {
				deserialized = append(deserialized, NewBuffer(b))
			}
		case ArrayT, StructT, MapT:
			n := int(r.ReadVarUintMax(uint64(maxItems)))
			if r.Err == nil {
				deserialized = append(deserialized, &placeholder{typ: t, count: n})
				if t == MapT {
					undeserialized += 2 * n
				} else {
					undeserialized += n
				}
			}
		default:
			return nil, typeError(t)
		}
		if r.Err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, r.Err)
		}
		if len(deserialized) > maxItems {
			return nil, fmt.Errorf("%w: deserialized count(%d) is out of range (max:%d)", ErrFormat, len(deserialized), maxItems)
		}
	}
	temp := make([]Item, 0, len(deserialized))
	pop := func() Item {
		it := temp[len(temp)-1]
		temp = temp[:len(temp)-1]
		return it
	}
	for i := len(deserialized) - 1; i >= 0; i-- {
		var item Item
		switch x := deserialized[i].(type) {
		case *placeholder:
			switch x.typ {
			case ArrayT, StructT:
				items := make([]Item, x.count)
				for j := range items {
					items[j] = pop()
				}
				if x.typ == StructT {
					item = NewStruct(items)
				} else {
					item = NewArray(items)
				}
			case MapT:
				m := NewMapWithCap(x.count)
				for range x.count {
					k, v := pop(), pop()
					if err := m.Set(k, v); err != nil {
						return nil, fmt.Errorf("%w: %w", ErrFormat, err)
					}
				}
				item = m
			}
		case Item:
			item = x
		}
		temp = append(temp, item)
	}
	return temp[len(temp)-1], nil
}

// typeError is a type byte Deserialize does not take (undefined, Pointer,
// InteropInterface), worded as neo-go's (a FAULT text of StdLib.deserialize
// and of storage iterators): "invalid type: INVALID" for an undefined one.
// It is ErrFormat for errors.Is.
type typeError Type

func (e typeError) Error() string {
	name := "INVALID"
	if t := Type(e); t.IsValid() {
		name = t.String()
	}
	return "invalid type: " + name
}

func (e typeError) Is(target error) bool { return target == ErrFormat }

// Convertible is implemented by state types that convert to and from stack
// items (C# IInteroperable), so one definition serves the VM, storage and
// RPC.
type Convertible interface {
	ToStackItem() (Item, error)
	FromStackItem(Item) error
}

// SerializeConvertible converts c to a stack item and serializes it.
func SerializeConvertible(c Convertible) ([]byte, error) {
	item, err := c.ToStackItem()
	if err != nil {
		return nil, err
	}
	return Serialize(item)
}

// DeserializeConvertible deserializes data and converts the item into c.
func DeserializeConvertible(data []byte, c Convertible) error {
	item, err := Deserialize(data)
	if err != nil {
		return err
	}
	return c.FromStackItem(item)
}

package stackitem

import (
	"fmt"
	"math/big"
	"reflect"
)

// Make converts a Go value into the stack item a contract returning it
// leaves (neo-go's stackitem.Make, which contract tests use for expected
// results): nil is Null, bool Boolean, integers and *big.Int Integer,
// string, []byte and byte arrays (hashes) ByteString, []any and []Item
// Array; an Item is itself. It panics on other types.
func Make(v any) Item {
	switch x := v.(type) {
	case nil:
		return Null{}
	case Item:
		return x
	case bool:
		return Bool(x)
	case int:
		return NewInt(int64(x))
	case int8:
		return NewInt(int64(x))
	case int16:
		return NewInt(int64(x))
	case int32:
		return NewInt(int64(x))
	case int64:
		return NewInt(x)
	case uint8:
		return NewInt(int64(x))
	case uint16:
		return NewInt(int64(x))
	case uint32:
		return NewInt(int64(x))
	case uint:
		return NewBigInteger(new(big.Int).SetUint64(uint64(x)))
	case uint64:
		return NewBigInteger(new(big.Int).SetUint64(x))
	case *big.Int:
		return NewBigInteger(x)
	case string:
		return NewByteString([]byte(x))
	case []byte:
		return NewByteString(x)
	case []Item:
		return NewArray(x)
	case []any:
		items := make([]Item, len(x))
		for i := range x {
			items[i] = Make(x[i])
		}
		return NewArray(items)
	}
	// Fixed-size byte arrays: hash.Uint160, hash.Uint256 and the like.
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Array && rv.Type().Elem().Kind() == reflect.Uint8 {
		b := make([]byte, rv.Len())
		reflect.Copy(reflect.ValueOf(b), rv)
		return NewByteString(b)
	}
	panic(fmt.Sprintf("stackitem: no stack item for %T", v))
}

// NewBool returns the Boolean item of b (neo-go's constructor; Bool(b) is
// the same).
func NewBool(b bool) Bool { return Bool(b) }

// Add sets key to value and panics where Set returns an error (a key
// that is not a primitive item, a read-only map): neo-go's Map.Add, for
// building expected items in tests.
func (m *Map) Add(key, value Item) {
	if err := m.Set(key, value); err != nil {
		panic(err)
	}
}

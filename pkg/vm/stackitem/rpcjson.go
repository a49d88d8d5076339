package stackitem

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// The RPC form of items ({"type": ..., "value": ...}), as C#
// StackItemExtensions.ToJson and neo-go's RPC server print them:
//
//	Any              {"type":"Any"}
//	Boolean          {"type":"Boolean","value":true}
//	Integer          {"type":"Integer","value":"123"}
//	ByteString       {"type":"ByteString","value":"<base64>"}
//	Buffer           {"type":"Buffer","value":"<base64>"}
//	Array, Struct    {"type":"Array","value":[...]}
//	Map              {"type":"Map","value":[{"key":...,"value":...}]}
//	Pointer          {"type":"Pointer","value":12}
//	InteropInterface {"type":"InteropInterface"}

// ErrCircular is returned by ToJSONWithTypes for a compound item that
// contains itself.
var ErrCircular = errors.New("circular reference")

// ToJSONWithTypes returns the RPC JSON form of item. maxSize bounds the
// output as C# does (its accounting of the JSON size); use -1 for no limit.
func ToJSONWithTypes(item Item, maxSize int) ([]byte, error) {
	if maxSize < 0 {
		maxSize = math.MaxInt
	}
	w := rpcWriter{budget: maxSize, path: make(map[Item]struct{})}
	out, err := w.write(nil, item)
	if err != nil {
		return nil, err
	}
	return out, nil
}

type rpcWriter struct {
	budget int
	path   map[Item]struct{}
}

func (w *rpcWriter) write(out []byte, item Item) ([]byte, error) {
	t := item.Type().String()
	w.budget -= 11 + len(t)
	out = append(out, `{"type":"`...)
	out = append(out, t...)
	out = append(out, '"')
	hasValue := true
	valueStart := len(out)
	out = append(out, `,"value":`...)
	switch x := item.(type) {
	case *Array:
		var err error
		out, err = w.list(out, x, len(x.items), func(out []byte, i int) ([]byte, error) {
			return w.write(out, x.items[i])
		})
		if err != nil {
			return nil, err
		}
	case Bool:
		if x {
			w.budget -= 4
		} else {
			w.budget -= 5
		}
		out = strconv.AppendBool(out, bool(x))
	case *ByteString, *Buffer:
		b, _ := item.TryBytes()
		s := base64.StdEncoding.EncodeToString(b)
		w.budget -= 2 + len(s)
		out = strconv.AppendQuote(out, s)
	case *Integer:
		s := x.String()
		w.budget -= 2 + len(s)
		out = strconv.AppendQuote(out, s)
	case *Map:
		var err error
		out, err = w.list(out, x, len(x.elems), func(out []byte, i int) ([]byte, error) {
			w.budget -= 17
			out = append(out, `{"key":`...)
			out, err := w.write(out, x.elems[i].Key)
			if err != nil {
				return nil, err
			}
			out = append(out, `,"value":`...)
			if out, err = w.write(out, x.elems[i].Value); err != nil {
				return nil, err
			}
			return append(out, '}'), nil
		})
		if err != nil {
			return nil, err
		}
	case *Pointer:
		s := strconv.Itoa(x.pos)
		w.budget -= len(s)
		out = append(out, s...)
	default:
		hasValue = false
		out = out[:valueStart]
	}
	if hasValue {
		w.budget -= 9
	}
	if w.budget < 0 {
		return nil, fmt.Errorf("%w: max size reached", ErrTooBig)
	}
	return append(out, '}'), nil
}

// list writes the n elements of compound c as a JSON list, element i by
// elem, refusing a c that contains itself.
func (w *rpcWriter) list(out []byte, c Item, n int, elem func(out []byte, i int) ([]byte, error)) ([]byte, error) {
	if _, ok := w.path[c]; ok {
		return nil, ErrCircular
	}
	w.path[c] = struct{}{}
	w.budget -= 2 + max(0, n-1)
	out = append(out, '[')
	for i := range n {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = elem(out, i); err != nil {
			return nil, err
		}
	}
	delete(w.path, c)
	return append(out, ']'), nil
}

type rpcItem struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value,omitempty"`
}

type rpcMapElement struct {
	Key   json.RawMessage `json:"key"`
	Value json.RawMessage `json:"value"`
}

// FromJSONWithTypes parses the RPC JSON form. Pointers and interop items
// cannot be rebuilt and are rejected.
func FromJSONWithTypes(data []byte) (Item, error) {
	return fromRPC(data, 0)
}

func fromRPC(data []byte, depth int) (Item, error) {
	if depth > MaxItems {
		return nil, fmt.Errorf("%w: too deep", ErrFormat)
	}
	var r rpcItem
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	t, err := FromString(r.Type)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	switch t {
	case AnyT:
		return Null{}, nil
	case BooleanT:
		var b bool
		if err := json.Unmarshal(r.Value, &b); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		return Bool(b), nil
	case IntegerT:
		var s string
		if err := json.Unmarshal(r.Value, &s); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		x, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("%w: bad integer %q", ErrFormat, s)
		}
		return TryNewBigInteger(x)
	case ByteStringT, BufferT:
		var s string
		if err := json.Unmarshal(r.Value, &s); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		if t == BufferT {
			return NewBuffer(b), nil
		}
		return NewByteString(b), nil
	case ArrayT, StructT:
		var raw []json.RawMessage
		if err := json.Unmarshal(r.Value, &raw); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		items := make([]Item, len(raw))
		for i := range raw {
			if items[i], err = fromRPC(raw[i], depth+1); err != nil {
				return nil, err
			}
		}
		if t == StructT {
			return NewStruct(items), nil
		}
		return NewArray(items), nil
	case MapT:
		var raw []rpcMapElement
		if err := json.Unmarshal(r.Value, &raw); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		m := NewMapWithCap(len(raw))
		for _, e := range raw {
			k, err := fromRPC(e.Key, depth+1)
			if err != nil {
				return nil, err
			}
			v, err := fromRPC(e.Value, depth+1)
			if err != nil {
				return nil, err
			}
			if err := m.Set(k, v); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	return nil, fmt.Errorf("%w: %s items cannot be decoded", ErrFormat, t)
}

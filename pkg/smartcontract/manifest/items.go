package manifest

import (
	"errors"
	"fmt"
	"slices"

	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Stack item forms. Every manifest part encodes to a Struct of its fields and
// every list to an Array; the decoders here check those shapes and report a
// mismatch as ErrInvalidItem, naming the part ("invalid ABI stackitem type").

// errNoName is the validation error of a method, event or parameter without
// a name (neo-go's text).
var errNoName = errors.New("empty or absent name")

// structOf returns a Struct of the fields.
func structOf(fields ...stackitem.Item) *stackitem.Array { return stackitem.NewStruct(fields) }

// stringItem returns s as a ByteString.
func stringItem(s string) stackitem.Item { return stackitem.NewByteString([]byte(s)) }

// encodeList returns an Array of the list's elements encoded with enc.
func encodeList[T any](list []T, enc func(*T) stackitem.Item) *stackitem.Array {
	items := make([]stackitem.Item, 0, len(list))
	for i := range list {
		items = append(items, enc(&list[i]))
	}
	return stackitem.NewArray(items)
}

// decodeList decodes an Array item element by element with dec; what names
// the list in errors. The result is non-nil for a valid item.
func decodeList[T any](item stackitem.Item, what string, dec func(*T, stackitem.Item) error) ([]T, error) {
	elems, err := arrayItems(item, what)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(elems))
	for i, e := range elems {
		if err := dec(&out[i], e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeString is itemString in decodeList's shape.
func decodeString(dst *string, item stackitem.Item) (err error) {
	*dst, err = itemString(item)
	return err
}

// structFields returns the fields of a Struct item with exactly n fields.
func structFields(item stackitem.Item, n int, what string) ([]stackitem.Item, error) {
	a, ok := item.(*stackitem.Array)
	switch {
	case !ok || !a.IsStruct():
		return nil, fmt.Errorf("%w: invalid %s stackitem type", ErrInvalidItem, what)
	case a.Len() != n:
		return nil, fmt.Errorf("%w: invalid %s stackitem length", ErrInvalidItem, what)
	}
	return a.Items(), nil
}

// arrayItems returns the elements of an Array (not Struct) item.
func arrayItems(item stackitem.Item, what string) ([]stackitem.Item, error) {
	if a, ok := item.(*stackitem.Array); ok && !a.IsStruct() {
		return a.Items(), nil
	}
	return nil, fmt.Errorf("%w: invalid %s stackitem type", ErrInvalidItem, what)
}

// itemString is neo-go's stackitem.ToString: the bytes of a primitive item
// as strict UTF-8.
func itemString(item stackitem.Item) (string, error) {
	if _, null := item.(stackitem.Null); null {
		return "", fmt.Errorf("%w: null string", ErrInvalidItem)
	}
	s, _, err := stackitem.ToString(item)
	return s, invalidItem(err)
}

// itemInt64 converts an integer item that fits int64.
func itemInt64(item stackitem.Item) (int64, error) {
	b, err := item.TryInteger()
	if err != nil {
		return 0, invalidItem(err)
	}
	if !b.IsInt64() {
		return 0, fmt.Errorf("%w: integer out of range", ErrInvalidItem)
	}
	return b.Int64(), nil
}

// itemParamType converts an integer item to a parameter type.
func itemParamType(item stackitem.Item) (smartcontract.ParamType, error) {
	v, err := itemInt64(item)
	if err != nil {
		return smartcontract.UnknownType, err
	}
	pt, err := smartcontract.ConvertToParamType(v)
	return pt, invalidItem(err)
}

// itemBool converts a Boolean (or convertible) item.
func itemBool(item stackitem.Item) (bool, error) {
	b, err := item.TryBool()
	return b, invalidItem(err)
}

// itemBytes returns the bytes of a primitive item.
func itemBytes(item stackitem.Item) ([]byte, error) {
	b, err := item.TryBytes()
	return b, invalidItem(err)
}

// invalidItem wraps a conversion error in ErrInvalidItem (nil stays nil).
func invalidItem(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrInvalidItem, err)
}

// firstOf returns the first element of list that match accepts, or nil.
func firstOf[T any](list []T, match func(*T) bool) *T {
	for i := range list {
		if match(&list[i]) {
			return &list[i]
		}
	}
	return nil
}

// hasDups reports whether x has two elements that compare equal.
func hasDups[S ~[]E, E any](x S, cmp func(a, b E) int) bool {
	switch len(x) {
	case 0, 1:
		return false
	case 2:
		return cmp(x[0], x[1]) == 0
	}
	sorted := slices.SortedFunc(slices.Values(x), cmp)
	for i := 1; i < len(sorted); i++ {
		if cmp(sorted[i-1], sorted[i]) == 0 {
			return true
		}
	}
	return false
}

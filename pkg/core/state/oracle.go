package state

import (
	"fmt"
	"math"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// OracleRequest is a pending Oracle request (C# OracleRequest): Array
// [originalTxid, gasForResponse, url, filter (String or Null),
// callbackContract, callbackMethod, userData].
type OracleRequest struct {
	OriginalTxID     hash.Uint256
	GasForResponse   int64
	URL              string
	Filter           *string
	CallbackContract hash.Uint160
	CallbackMethod   string
	// UserData is the StdLib binary serialization of the user's item.
	UserData []byte
}

// ToStackItem implements stackitem.Convertible.
func (o *OracleRequest) ToStackItem() (stackitem.Item, error) {
	filter := stackitem.Item(stackitem.Null{})
	if o.Filter != nil {
		filter = stackitem.NewByteString([]byte(*o.Filter))
	}
	txid, cb := o.OriginalTxID, o.CallbackContract
	return stackitem.NewArray([]stackitem.Item{
		stackitem.NewByteString(txid[:]),
		stackitem.NewInt(o.GasForResponse),
		stackitem.NewByteString([]byte(o.URL)),
		filter,
		stackitem.NewByteString(cb[:]),
		stackitem.NewByteString([]byte(o.CallbackMethod)),
		stackitem.NewByteString(append([]byte{}, o.UserData...)),
	}), nil
}

// FromStackItem implements stackitem.Convertible.
func (o *OracleRequest) FromStackItem(item stackitem.Item) error {
	arr, err := arrayOrStruct(item, 7)
	if err != nil {
		return err
	}
	b, err := arr[0].TryBytes()
	if err != nil || len(b) != hash.Uint256Size {
		return fmt.Errorf("%w: invalid original transaction", ErrInvalidItem)
	}
	txid := hash.Uint256(b)
	gas, err := itemInt64(arr[1], math.MinInt64, math.MaxInt64)
	if err != nil {
		return fmt.Errorf("invalid gas for response: %w", err)
	}
	url, ok, err := stackitem.ToString(arr[2])
	if err != nil || !ok {
		return fmt.Errorf("%w: invalid URL", ErrInvalidItem)
	}
	var filter *string
	f, ok, err := stackitem.ToString(arr[3])
	if err != nil {
		return fmt.Errorf("%w: invalid filter", ErrInvalidItem)
	}
	if ok {
		filter = &f
	}
	cb, err := itemUint160(arr[4])
	if err != nil {
		return fmt.Errorf("invalid callback contract: %w", err)
	}
	method, ok, err := stackitem.ToString(arr[5])
	if err != nil || !ok {
		return fmt.Errorf("%w: invalid callback method", ErrInvalidItem)
	}
	data, err := arr[6].TryBytes()
	if err != nil {
		return fmt.Errorf("%w: invalid user data: %w", ErrInvalidItem, err)
	}
	*o = OracleRequest{OriginalTxID: txid, GasForResponse: gas, URL: url, Filter: filter,
		CallbackContract: cb, CallbackMethod: method, UserData: append([]byte{}, data...)}
	return nil
}

// IDList is the list of pending request ids for a URL (C#
// OracleContract.IdList): Array of Integers.
type IDList []uint64

// ToStackItem implements stackitem.Convertible.
func (l IDList) ToStackItem() (stackitem.Item, error) {
	items := make([]stackitem.Item, len(l))
	for i, id := range l {
		items[i] = stackitem.NewBigInteger(new(big.Int).SetUint64(id))
	}
	return stackitem.NewArray(items), nil
}

// FromStackItem implements stackitem.Convertible.
func (l *IDList) FromStackItem(item stackitem.Item) error {
	a, ok := item.(*stackitem.Array)
	if !ok {
		return fmt.Errorf("%w: not an array", ErrInvalidItem)
	}
	res := make(IDList, a.Len())
	for i, it := range a.Items() {
		n, err := it.TryInteger()
		if err != nil || !n.IsUint64() {
			return fmt.Errorf("%w: invalid id %d", ErrInvalidItem, i)
		}
		res[i] = n.Uint64()
	}
	*l = res
	return nil
}

// Remove removes the first occurrence of id and reports whether there was
// one (C# List.Remove).
func (l *IDList) Remove(id uint64) bool {
	for i, v := range *l {
		if v == id {
			*l = append((*l)[:i], (*l)[i+1:]...)
			return true
		}
	}
	return false
}

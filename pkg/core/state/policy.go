package state

import (
	"fmt"
	"math"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// WhitelistFeeContract is a contract method Policy runs at a fixed fee (from
// HF_Faun; C# WhitelistedContract): Struct [hash, method, argCount, fee].
type WhitelistFeeContract struct {
	Hash   hash.Uint160
	Method string
	ArgCnt int
	Fee    int64
}

// ToStackItem implements stackitem.Convertible.
func (r *WhitelistFeeContract) ToStackItem() (stackitem.Item, error) {
	h := r.Hash
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.NewByteString(h[:]),
		stackitem.NewByteString([]byte(r.Method)),
		stackitem.NewInt(int64(r.ArgCnt)),
		stackitem.NewInt(r.Fee),
	}), nil
}

// FromStackItem implements stackitem.Convertible.
func (r *WhitelistFeeContract) FromStackItem(item stackitem.Item) error {
	arr, err := arrayOrStruct(item, 4)
	if err != nil {
		return err
	}
	h, err := itemUint160(arr[0])
	if err != nil {
		return fmt.Errorf("invalid hash: %w", err)
	}
	m, _, err := stackitem.ToString(arr[1])
	if err != nil {
		return fmt.Errorf("%w: invalid method: %w", ErrInvalidItem, err)
	}
	n, err := itemInt64(arr[2], math.MinInt32, math.MaxInt32)
	if err != nil {
		return fmt.Errorf("invalid argument count: %w", err)
	}
	fee, err := itemInt64(arr[3], math.MinInt64, math.MaxInt64)
	if err != nil {
		return fmt.Errorf("invalid fee: %w", err)
	}
	r.Hash, r.Method, r.ArgCnt, r.Fee = h, m, int(n), fee
	return nil
}

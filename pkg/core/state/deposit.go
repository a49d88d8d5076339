package state

import (
	"fmt"
	"math"
	"math/big"

	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Deposit is a Notary deposit (C# Notary.Deposit): Struct [amount, till].
type Deposit struct {
	Amount big.Int
	Till   uint32
}

// ToStackItem implements stackitem.Convertible.
func (d *Deposit) ToStackItem() (stackitem.Item, error) {
	return stackitem.NewStruct([]stackitem.Item{
		stackitem.NewBigInteger(new(big.Int).Set(&d.Amount)),
		stackitem.NewInt(int64(d.Till)),
	}), nil
}

// FromStackItem implements stackitem.Convertible.
func (d *Deposit) FromStackItem(item stackitem.Item) error {
	arr, err := arrayOrStruct(item, 2)
	if err != nil {
		return err
	}
	amount, err := arr[0].TryInteger()
	if err != nil {
		return fmt.Errorf("%w: invalid amount: %w", ErrInvalidItem, err)
	}
	till, err := itemInt64(arr[1], 0, math.MaxUint32)
	if err != nil {
		return fmt.Errorf("invalid till: %w", err)
	}
	d.Amount.Set(amount)
	d.Till = uint32(till)
	return nil
}

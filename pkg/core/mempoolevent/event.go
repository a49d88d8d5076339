package mempoolevent

import (
	"encoding/json"
	"errors"

	"github.com/n3node/n3node/pkg/core/transaction"
)

// Type is the kind of a mempool event.
type Type byte

// Event types (the values neo-go uses on the wire of its RPC subscriptions).
const (
	// TransactionAdded: the transaction entered the pool.
	TransactionAdded Type = 0x01
	// TransactionRemoved: the transaction left the pool (evicted, replaced,
	// included in a block or no longer valid).
	TransactionRemoved Type = 0x02
)

// ErrUnknownType is returned when parsing an unknown event type name.
var ErrUnknownType = errors.New("invalid event type name")

// Event is one mempool event.
type Event struct {
	Type Type
	Tx   *transaction.Transaction
	// Data is what the caller attached when adding the transaction (e.g. a
	// notary request), nil for ordinary transactions.
	Data any
}

// String returns "added", "removed" or "unknown".
func (t Type) String() string {
	switch t {
	case TransactionAdded:
		return "added"
	case TransactionRemoved:
		return "removed"
	default:
		return "unknown"
	}
}

// ParseType is the inverse of String.
func ParseType(s string) (Type, error) {
	switch s {
	case "added":
		return TransactionAdded, nil
	case "removed":
		return TransactionRemoved, nil
	default:
		return 0, ErrUnknownType
	}
}

// MarshalJSON encodes the type as its name.
func (t Type) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// UnmarshalJSON decodes a type name.
func (t *Type) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseType(s)
	if err != nil {
		return err
	}
	*t = v
	return nil
}

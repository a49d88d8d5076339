package neorpc

import (
	"encoding/json"
	"errors"

	"github.com/n3node/n3node/pkg/core/mempoolevent"
)

// EventID is a subscription stream. The numeric values are neo-go's.
type EventID byte

// Event streams.
const (
	// InvalidEventID is the zero value; it marks a free subscription slot.
	InvalidEventID EventID = iota
	BlockEventID
	TransactionEventID
	NotificationEventID
	ExecutionEventID
	NotaryRequestEventID
	HeaderOfAddedBlockEventID
	MempoolEventID
	// MissedEventID tells a client that events were dropped because it read
	// too slowly. It cannot be subscribed to.
	MissedEventID EventID = 255
)

// ErrInvalidStreamName is returned by GetEventIDFromString.
var ErrInvalidStreamName = errors.New("invalid stream name")

// String returns the stream name as used on the wire ("block_added", ...)
// or "unknown".
func (e EventID) String() string {
	switch e {
	case BlockEventID:
		return "block_added"
	case TransactionEventID:
		return "transaction_added"
	case NotificationEventID:
		return "notification_from_execution"
	case ExecutionEventID:
		return "transaction_executed"
	case NotaryRequestEventID:
		return "notary_request_event"
	case HeaderOfAddedBlockEventID:
		return "header_of_added_block"
	case MissedEventID:
		return "event_missed"
	case MempoolEventID:
		return "mempool_event"
	default:
		return "unknown"
	}
}

// GetEventIDFromString parses a stream name.
func GetEventIDFromString(s string) (EventID, error) {
	switch s {
	case "block_added":
		return BlockEventID, nil
	case "transaction_added":
		return TransactionEventID, nil
	case "notification_from_execution":
		return NotificationEventID, nil
	case "transaction_executed":
		return ExecutionEventID, nil
	case "notary_request_event":
		return NotaryRequestEventID, nil
	case "header_of_added_block":
		return HeaderOfAddedBlockEventID, nil
	case "event_missed":
		return MissedEventID, nil
	case "mempool_event":
		return MempoolEventID, nil
	default:
		return 255, ErrInvalidStreamName
	}
}

// MarshalJSON writes the stream name.
func (e EventID) MarshalJSON() ([]byte, error) { return json.Marshal(e.String()) }

// UnmarshalJSON parses a stream name.
func (e *EventID) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	id, err := GetEventIDFromString(s)
	if err != nil {
		return err
	}
	*e = id
	return nil
}

// MempoolEventType is the kind of a mempool (or notary pool) event: the
// pool's own type, whose JSON form is the wire form.
type MempoolEventType = mempoolevent.Type

// Mempool event kinds (neo-go's mempoolevent.Type values).
const (
	TransactionAdded   = mempoolevent.TransactionAdded
	TransactionRemoved = mempoolevent.TransactionRemoved
)

// ErrInvalidEventType is returned when parsing an unknown mempool event type.
var ErrInvalidEventType = mempoolevent.ErrUnknownType

// MempoolEventTypeFromString parses "added" or "removed".
func MempoolEventTypeFromString(s string) (MempoolEventType, error) {
	return mempoolevent.ParseType(s)
}

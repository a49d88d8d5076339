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

// eventNames are the stream names used on the wire, by EventID.
var eventNames = map[EventID]string{
	BlockEventID:              "block_added",
	TransactionEventID:        "transaction_added",
	NotificationEventID:       "notification_from_execution",
	ExecutionEventID:          "transaction_executed",
	NotaryRequestEventID:      "notary_request_event",
	HeaderOfAddedBlockEventID: "header_of_added_block",
	MempoolEventID:            "mempool_event",
	MissedEventID:             "event_missed",
}

// String returns the stream name as used on the wire ("block_added", ...)
// or "unknown".
func (e EventID) String() string {
	if name, ok := eventNames[e]; ok {
		return name
	}
	return "unknown"
}

// GetEventIDFromString parses a stream name. An unknown name gives
// MissedEventID's value with the error, as in neo-go.
func GetEventIDFromString(s string) (EventID, error) {
	for id, name := range eventNames {
		if name == s {
			return id, nil
		}
	}
	return MissedEventID, ErrInvalidStreamName
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

package neorpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/internal/neogotext/util"
	sc "github.com/n3node/n3node/pkg/smartcontract"
)

// MaxNotificationFilterParametersCount bounds NotificationFilter.Parameters
// (a neo-go limit; C# has no notification filters).
const MaxNotificationFilterParametersCount = 16

// MaxEventNameLen is the longest notification name (C# ApplicationEngine
// MaxEventName = 32).
const MaxEventNameLen = 32

// ErrInvalidSubscriptionFilter is wrapped by IsValid errors.
var ErrInvalidSubscriptionFilter = errors.New("invalid subscription filter")

// SubscriptionFilter is one of the filter types below (as a value, not a
// pointer).
type SubscriptionFilter interface {
	// IsValid reports whether the filter is acceptable, wrapping
	// ErrInvalidSubscriptionFilter if not.
	IsValid() error
}

// ParamType is the type of a notification filter parameter (C#
// ContractParameterType).
type ParamType = sc.ParamType

// Parameter types allowed in a NotificationFilter.
const (
	AnyType       = sc.AnyType
	BoolType      = sc.BoolType
	IntegerType   = sc.IntegerType
	ByteArrayType = sc.ByteArrayType
	StringType    = sc.StringType
	Hash160Type   = sc.Hash160Type
	Hash256Type   = sc.Hash256Type
	PublicKeyType = sc.PublicKeyType
	SignatureType = sc.SignatureType
)

type (
	// BlockFilter selects block_added and header_of_added_block events by
	// primary (consensus) index and by height (since/till inclusive). A nil
	// field matches anything.
	BlockFilter struct {
		Primary *byte   `json:"primary,omitzero"`
		Since   *uint32 `json:"since,omitzero"`
		Till    *uint32 `json:"till,omitzero"`
	}
	// TxFilter selects transaction_added events by sender and/or signer.
	TxFilter struct {
		Sender *hash.Uint160 `json:"sender,omitzero"`
		Signer *hash.Uint160 `json:"signer,omitzero"`
	}
	// NotificationFilter selects notification_from_execution events by
	// contract, event name and leading notification parameters.
	NotificationFilter struct {
		Contract   *hash.Uint160  `json:"contract,omitzero"`
		Name       *string        `json:"name,omitzero"`
		Parameters []sc.Parameter `json:"parameters,omitzero"`
	}
	// ExecutionFilter selects transaction_executed events by VM state
	// ("HALT" or "FAULT") and/or container hash.
	ExecutionFilter struct {
		State     *string       `json:"state,omitzero"`
		Container *hash.Uint256 `json:"container,omitzero"`
	}
	// NotaryRequestFilter selects notary_request_event events by request
	// sender (the fallback transaction's second signer), main transaction
	// signer and/or event type.
	NotaryRequestFilter struct {
		Sender *hash.Uint160     `json:"sender,omitzero"`
		Signer *hash.Uint160     `json:"signer,omitzero"`
		Type   *MempoolEventType `json:"type,omitzero"`
	}
	// MempoolEventFilter selects mempool_event events by transaction sender,
	// signer and/or event type.
	MempoolEventFilter struct {
		Sender *hash.Uint160     `json:"sender,omitzero"`
		Signer *hash.Uint160     `json:"signer,omitzero"`
		Type   *MempoolEventType `json:"type,omitzero"`
	}
)

// IsValid implements SubscriptionFilter.
func (f BlockFilter) IsValid() error { return nil }

// IsValid implements SubscriptionFilter.
func (f TxFilter) IsValid() error { return nil }

// IsValid implements SubscriptionFilter.
func (f NotaryRequestFilter) IsValid() error { return nil }

// IsValid implements SubscriptionFilter.
func (f MempoolEventFilter) IsValid() error { return nil }

// IsValid checks the name length, the number and types of parameters, and
// that not all parameters are of type Any (neo-go's rules and texts).
func (f NotificationFilter) IsValid() error {
	if f.Name != nil && len(*f.Name) > MaxEventNameLen {
		return fmt.Errorf("%w: NotificationFilter name parameter must be less than %d", ErrInvalidSubscriptionFilter, MaxEventNameLen)
	}
	l := len(f.Parameters)
	noop := l > 0
	if l > MaxNotificationFilterParametersCount {
		return fmt.Errorf("%w: NotificationFilter's parameters number exceeded: %d > %d", ErrInvalidSubscriptionFilter, l, MaxNotificationFilterParametersCount)
	}
	for i, p := range f.Parameters {
		switch p.Type {
		case BoolType, IntegerType, ByteArrayType, StringType, Hash160Type, Hash256Type,
			PublicKeyType, SignatureType:
			noop = false
		case AnyType:
		default:
			return fmt.Errorf("%w: NotificationFilter type parameter %d is unsupported: %s", ErrInvalidSubscriptionFilter, i, p.Type)
		}
		if !validFilterValue(p) {
			return fmt.Errorf("%w: NotificationFilter %d filter parameter does not correspond to any stack item: %w", ErrInvalidSubscriptionFilter, i, errors.ErrUnsupported)
		}
	}
	if noop {
		return fmt.Errorf("%w: NotificationFilter cannot have all parameters of type %s", ErrInvalidSubscriptionFilter, AnyType)
	}
	return nil
}

// validFilterValue reports whether a value can become a stack item (only
// values set by hand can fail).
func validFilterValue(p sc.Parameter) bool {
	switch v := p.Value.(type) {
	case nil, bool, []byte, string, hash.Uint160, hash.Uint256:
		return true
	case *big.Int:
		return v != nil && sc.CheckIntegerSize(v) == nil
	}
	return false
}

// IsValid checks that State, if set, is "HALT" or "FAULT".
func (f ExecutionFilter) IsValid() error {
	if f.State != nil && *f.State != "HALT" && *f.State != "FAULT" {
		return fmt.Errorf("%w: ExecutionFilter state parameter must be either HALT or FAULT", ErrInvalidSubscriptionFilter)
	}
	return nil
}

// DecodeFilter decodes and validates the optional filter parameter of
// "subscribe" for stream id as neo-go 0.120.0 does: unknown fields are
// rejected and errors carry neo-go's texts (they become -32602 data). A
// JSON null gives an empty filter, which matches everything. For streams
// without filters it returns nil, nil.
func DecodeFilter(id EventID, raw []byte) (SubscriptionFilter, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	// The local types mirror neo-go's field types so that encoding/json's
	// messages ("Go struct field BlockFilter.primary of type uint8") match.
	var (
		filter SubscriptionFilter
		err    error
	)
	switch id {
	case BlockEventID, HeaderOfAddedBlockEventID:
		var f BlockFilter
		err = dec.Decode(&f)
		filter = f
	case TransactionEventID:
		type TxFilter struct {
			Sender *util.Uint160 `json:"sender,omitzero"`
			Signer *util.Uint160 `json:"signer,omitzero"`
		}
		var f TxFilter
		err = dec.Decode(&f)
		filter = toTxFilter(f.Sender, f.Signer)
	case NotificationEventID:
		type NotificationFilter struct {
			Contract   *util.Uint160  `json:"contract,omitzero"`
			Name       *string        `json:"name,omitzero"`
			Parameters []sc.Parameter `json:"parameters,omitzero"`
		}
		var f NotificationFilter
		err = dec.Decode(&f)
		nf := toNotificationFilter(f.Contract, f.Name)
		nf.Parameters = f.Parameters
		filter = nf
	case ExecutionEventID:
		type ExecutionFilter struct {
			State     *string       `json:"state,omitzero"`
			Container *util.Uint256 `json:"container,omitzero"`
		}
		var f ExecutionFilter
		err = dec.Decode(&f)
		filter = toExecutionFilter(f.State, f.Container)
	case NotaryRequestEventID:
		type NotaryRequestFilter struct {
			Sender *util.Uint160     `json:"sender,omitzero"`
			Signer *util.Uint160     `json:"signer,omitzero"`
			Type   *MempoolEventType `json:"type,omitzero"`
		}
		var f NotaryRequestFilter
		err = dec.Decode(&f)
		filter = toNotaryRequestFilter(f.Sender, f.Signer, f.Type)
	case MempoolEventID:
		type MempoolEventFilter struct {
			Sender *util.Uint160     `json:"sender,omitzero"`
			Signer *util.Uint160     `json:"signer,omitzero"`
			Type   *MempoolEventType `json:"type,omitzero"`
		}
		var f MempoolEventFilter
		err = dec.Decode(&f)
		filter = toMempoolEventFilter(f.Sender, f.Signer, f.Type)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := filter.IsValid(); err != nil {
		return nil, err
	}
	return filter, nil
}

func h160(u *util.Uint160) *hash.Uint160 { return (*hash.Uint160)(u) }

// The converters below are package-level so that DecodeFilter's local
// mirror types do not shadow the public ones.

func toTxFilter(sender, signer *util.Uint160) TxFilter {
	return TxFilter{Sender: h160(sender), Signer: h160(signer)}
}

func toNotificationFilter(contract *util.Uint160, name *string) NotificationFilter {
	return NotificationFilter{Contract: h160(contract), Name: name}
}

func toExecutionFilter(state *string, container *util.Uint256) ExecutionFilter {
	return ExecutionFilter{State: state, Container: (*hash.Uint256)(container)}
}

func toNotaryRequestFilter(sender, signer *util.Uint160, t *MempoolEventType) NotaryRequestFilter {
	return NotaryRequestFilter{Sender: h160(sender), Signer: h160(signer), Type: t}
}

func toMempoolEventFilter(sender, signer *util.Uint160, t *MempoolEventType) MempoolEventFilter {
	return MempoolEventFilter{Sender: h160(sender), Signer: h160(signer), Type: t}
}

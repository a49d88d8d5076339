package rpcclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Typed results of the JSON-RPC methods. Field names, types and key order
// follow neo-go 0.120.0's pkg/neorpc/result, so a result decoded here and
// encoded again gives the bytes neo-go sent (the tests check this against
// the recorded answers in testdata/refchain/rpc).

// The result types are package neorpc/result's, shared with the server:
// one definition of each answer's JSON. The aliases keep this package's
// names.
type (
	Version            = result.Version
	Protocol           = result.Protocol
	HardforkHeight     = result.HardforkHeight
	VersionApplication = result.Application
	VersionRPC         = result.RPC

	ApplicationLog       = result.ApplicationLog
	NEP17Balances        = result.NEP17Balances
	NEP17Balance         = result.NEP17Balance
	NEP17Transfers       = result.NEP17Transfers
	NEP17Transfer        = result.NEP17Transfer
	UnclaimedGas         = result.UnclaimedGas
	Candidate            = result.Candidate
	Validator            = result.Validator
	TransactionOutputRaw = result.TransactionOutputRaw
	TransactionMetadata  = result.TransactionMetadata
)

// VM states as the RPC prints them.
const (
	StateHalt  = "HALT"
	StateFault = "FAULT"
)

// InvokeResult is the result of invokefunction, invokescript and
// invokecontractverify. Stack keeps every item in its RPC JSON form
// ({"type","value"}, or neo-go's iterator form for InteropInterface); Item
// and the typed helpers decode them.
type InvokeResult struct {
	State       string
	GasConsumed int64
	Script      []byte
	Stack       []json.RawMessage
	// FaultException is the exception text; "" when there is none.
	FaultException string
	Notifications  []state.NotificationEvent
	// Tx is the transaction neo-go builds when the node has a wallet
	// configured (rarely set).
	Tx []byte
	// Diagnostics is neo-go's optional "diagnostics" object, verbatim.
	Diagnostics json.RawMessage
	// Session is the iterator session id, "" without one.
	Session string
}

type invokeJSON struct {
	State          string                    `json:"state"`
	GasConsumed    int64                     `json:"gasconsumed,string"`
	Script         []byte                    `json:"script"`
	Stack          []json.RawMessage         `json:"stack"`
	FaultException *string                   `json:"exception"`
	Notifications  []state.NotificationEvent `json:"notifications"`
	Tx             []byte                    `json:"tx,omitzero"`
	Diagnostics    json.RawMessage           `json:"diagnostics,omitzero"`
	Session        string                    `json:"session,omitzero"`
}

// MarshalJSON writes neo-go's form ("exception" is null when empty).
func (r InvokeResult) MarshalJSON() ([]byte, error) {
	aux := invokeJSON{
		State: r.State, GasConsumed: r.GasConsumed, Script: r.Script, Stack: r.Stack,
		Notifications: r.Notifications, Tx: r.Tx, Diagnostics: r.Diagnostics, Session: r.Session,
	}
	if aux.Stack == nil {
		aux.Stack = []json.RawMessage{}
	}
	if aux.Notifications == nil {
		aux.Notifications = []state.NotificationEvent{}
	}
	if r.FaultException != "" {
		aux.FaultException = &r.FaultException
	}
	return json.Marshal(aux)
}

// UnmarshalJSON reads neo-go's or C#'s form.
func (r *InvokeResult) UnmarshalJSON(data []byte) error {
	var aux invokeJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*r = InvokeResult{
		State: aux.State, GasConsumed: aux.GasConsumed, Script: aux.Script, Stack: aux.Stack,
		Notifications: aux.Notifications, Tx: aux.Tx, Diagnostics: aux.Diagnostics, Session: aux.Session,
	}
	if aux.FaultException != nil {
		r.FaultException = *aux.FaultException
	}
	return nil
}

// ErrFault is returned (wrapped with the exception) when a test
// invocation ended in FAULT and the caller asked for a HALT.
var ErrFault = errors.New("script FAULTed")

// CheckHalt returns nil if the invocation ended in HALT, otherwise an error
// wrapping ErrFault with the state and exception.
func (r *InvokeResult) CheckHalt() error {
	if r.State == StateHalt {
		return nil
	}
	return fmt.Errorf("%w: %s state: %s", ErrFault, r.State, r.FaultException)
}

// Errors of the stack helpers.
var (
	ErrStackIndex = errors.New("no such stack item")
	ErrItemType   = errors.New("unexpected stack item type")
)

// Item decodes stack item i. InteropInterface items (iterators) cannot be
// decoded into stack items; use Iterator for them.
func (r *InvokeResult) Item(i int) (stackitem.Item, error) {
	if i < 0 || i >= len(r.Stack) {
		return nil, fmt.Errorf("%w: %d of %d", ErrStackIndex, i, len(r.Stack))
	}
	return stackitem.FromJSONWithTypes(r.Stack[i])
}

// Int returns stack item i as an integer (Integer, Boolean or a
// ByteString of at most 32 bytes, converted as the VM does).
func (r *InvokeResult) Int(i int) (*big.Int, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	return it.TryInteger()
}

// Bool returns stack item i converted to a boolean as the VM does.
func (r *InvokeResult) Bool(i int) (bool, error) {
	it, err := r.Item(i)
	if err != nil {
		return false, err
	}
	return it.TryBool()
}

// Bytes returns the bytes of stack item i (a primitive item or Buffer).
func (r *InvokeResult) Bytes(i int) ([]byte, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	return it.TryBytes()
}

// String returns stack item i as a UTF-8 string.
func (r *InvokeResult) String(i int) (string, error) {
	b, err := r.Bytes(i)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: item %d is not UTF-8", ErrItemType, i)
	}
	return string(b), nil
}

// Array returns the elements of an Array or Struct stack item i.
func (r *InvokeResult) Array(i int) ([]stackitem.Item, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	if it.Type() != stackitem.ArrayT && it.Type() != stackitem.StructT {
		return nil, fmt.Errorf("%w: item %d is %s, not Array", ErrItemType, i, it.Type())
	}
	return it.Value().([]stackitem.Item), nil
}

// Iterator is an InteropInterface stack item as neo-go prints it: with
// sessions enabled an "IIterator" with its id; without, the first values
// expanded in place.
type Iterator struct {
	Type      string            `json:"type"`
	Interface string            `json:"interface,omitzero"`
	ID        string            `json:"id,omitzero"`
	Values    []json.RawMessage `json:"iterator,omitzero"`
	Truncated bool              `json:"truncated,omitzero"`
}

// Iterator decodes stack item i as an iterator.
func (r *InvokeResult) Iterator(i int) (*Iterator, error) {
	if i < 0 || i >= len(r.Stack) {
		return nil, fmt.Errorf("%w: %d of %d", ErrStackIndex, i, len(r.Stack))
	}
	it := new(Iterator)
	if err := json.Unmarshal(r.Stack[i], it); err != nil {
		return nil, err
	}
	if it.Type != stackitem.InteropT.String() {
		return nil, fmt.Errorf("%w: item %d is %s, not InteropInterface", ErrItemType, i, it.Type)
	}
	return it, nil
}

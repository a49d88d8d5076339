package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// NotificationEvent is a notification sent by a contract (System.Runtime.Notify
// or a native contract): the sender, the event name and the arguments.
type NotificationEvent struct {
	ScriptHash hash.Uint160
	Name       string
	Item       *stackitem.Array
}

// AppExecResult is the result of one execution (a transaction, or a block's
// OnPersist or PostPersist) with the hash of its container.
type AppExecResult struct {
	Container hash.Uint256
	Execution
}

// Execution is the result of one script execution. Stack holds the result
// items of a live execution; a result decoded from storage has no items but
// keeps their RPC JSON form (see StackJSON).
type Execution struct {
	Trigger trigger.Type
	// Outcome: the final state, the exception text of a FAULT and the GAS
	// (datoshi) spent.
	VMState        vmstate.State
	FaultException string
	GasConsumed    int64
	// Output: notifications sent and the items left on the stack.
	Events []NotificationEvent
	Stack  []stackitem.Item
	// Invocations are the System.Contract.Call calls made, in order, with
	// SaveInvocations (nil without; kept for a FAULT, as neo-go does).
	Invocations []ContractInvocation

	stackJSON []json.RawMessage
}

// stackItemJSON returns the RPC JSON form of a result item, or the string
// "error: ..." neo-go writes for items it cannot print.
func stackItemJSON(item stackitem.Item) json.RawMessage {
	data, err := stackitem.ToJSONWithTypes(item, stackitem.MaxSize)
	if err != nil {
		data, _ = json.Marshal("error: " + err.Error())
	}
	return data
}

// StackJSON returns the RPC JSON form of every result item.
func (e *Execution) StackJSON() []json.RawMessage {
	if e.Stack == nil && e.stackJSON != nil {
		return e.stackJSON
	}
	res := make([]json.RawMessage, len(e.Stack))
	for i := range e.Stack {
		res[i] = stackItemJSON(e.Stack[i])
	}
	return res
}

type notificationAux struct {
	ScriptHash hash.Uint160    `json:"contract"`
	Name       string          `json:"eventname"`
	Item       json.RawMessage `json:"state"`
}

// MarshalJSON writes {"contract", "eventname", "state"} as neo-go does.
func (ne NotificationEvent) MarshalJSON() ([]byte, error) {
	var item json.RawMessage
	if ne.Item == nil {
		item = json.RawMessage("null")
	} else {
		item = stackItemJSON(ne.Item)
	}
	return json.Marshal(&notificationAux{ScriptHash: ne.ScriptHash, Name: ne.Name, Item: item})
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (ne *NotificationEvent) UnmarshalJSON(data []byte) error {
	aux := new(notificationAux)
	if err := json.Unmarshal(data, aux); err != nil {
		return err
	}
	item, err := stackitem.FromJSONWithTypes(aux.Item)
	if err != nil {
		return err
	}
	arr, ok := item.(*stackitem.Array)
	if !ok || arr.IsStruct() {
		return fmt.Errorf("failed to convert notification event state of type %s to array", item.Type())
	}
	ne.ScriptHash, ne.Name, ne.Item = aux.ScriptHash, aux.Name, arr
	return nil
}

type executionAux struct {
	Trigger        string               `json:"trigger"`
	VMState        string               `json:"vmstate"`
	GasConsumed    int64                `json:"gasconsumed,string"`
	Stack          []json.RawMessage    `json:"stack"`
	Events         []NotificationEvent  `json:"notifications"`
	FaultException *string              `json:"exception"`
	Invocations    []ContractInvocation `json:"invocations"`
}

// MarshalJSON writes neo-go 0.120.0's form: trigger, vmstate, gasconsumed
// (a string), stack, notifications, exception (null if none) and invocations
// (null unless SaveInvocations recorded some).
func (e Execution) MarshalJSON() ([]byte, error) {
	var exc *string
	if e.FaultException != "" {
		exc = &e.FaultException
	}
	events := e.Events
	if events == nil {
		events = []NotificationEvent{}
	}
	return json.Marshal(&executionAux{
		Trigger:        e.Trigger.String(),
		VMState:        e.VMState.String(),
		GasConsumed:    e.GasConsumed,
		Stack:          e.StackJSON(),
		Events:         events,
		FaultException: exc,
		Invocations:    e.Invocations,
	})
}

// UnmarshalJSON reads the form MarshalJSON writes; the stack is kept as JSON.
func (e *Execution) UnmarshalJSON(data []byte) error {
	aux := new(executionAux)
	if err := json.Unmarshal(data, aux); err != nil {
		return err
	}
	t, err := trigger.FromString(aux.Trigger)
	if err != nil {
		return err
	}
	s, err := vmstate.FromString(aux.VMState)
	if err != nil {
		return err
	}
	*e = Execution{Trigger: t, VMState: s, GasConsumed: aux.GasConsumed, Events: aux.Events, Invocations: aux.Invocations, stackJSON: aux.Stack}
	if e.stackJSON == nil {
		e.stackJSON = []json.RawMessage{}
	}
	if aux.FaultException != nil {
		e.FaultException = *aux.FaultException
	}
	return nil
}

type aerAux struct {
	Container hash.Uint256 `json:"container"`
}

// MarshalJSON writes {"container", then the Execution fields}.
func (aer *AppExecResult) MarshalJSON() ([]byte, error) {
	h, err := json.Marshal(&aerAux{Container: aer.Container})
	if err != nil {
		return nil, err
	}
	exec, err := json.Marshal(aer.Execution)
	if err != nil {
		return nil, err
	}
	h[len(h)-1] = ','
	return append(h, exec[1:]...), nil
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (aer *AppExecResult) UnmarshalJSON(data []byte) error {
	aux := new(aerAux)
	if err := json.Unmarshal(data, aux); err != nil {
		return err
	}
	if err := json.Unmarshal(data, &aer.Execution); err != nil {
		return err
	}
	aer.Container = aux.Container
	return nil
}

// ErrRecord is returned (wrapped) for stored records that do not decode.
var ErrRecord = errors.New("invalid record")

// Record format versions (the first byte of every CBOR record). An
// execution result with invocations is a version 2 record: [version 1
// array, [invocation...]].
const (
	recordV1 = 1
	recordV2 = 2
)

type eventRecord struct {
	_        struct{} `cbor:",toarray"`
	Contract []byte
	Name     []byte
	State    []byte
}

type aerRecord struct {
	_           struct{} `cbor:",toarray"`
	Container   []byte
	Trigger     uint8
	VMState     uint8
	GasConsumed int64
	Stack       [][]byte
	Events      []eventRecord
	Exception   []byte
}

type aerRecordV2 struct {
	_           struct{} `cbor:",toarray"`
	Base        aerRecord
	Invocations []invocationRecord
}

// EncodeAppExecResult returns the stored form of aer: version byte 1, then a
// CBOR array [container, trigger, vmstate, gasconsumed, [stack item RPC
// JSON...], [[contract, name, serialized state]...], exception]; with
// invocations, version byte 2 and [that array, [[contract, method,
// serialized arguments or null, count, truncated]...]].
func EncodeAppExecResult(aer *AppExecResult) ([]byte, error) {
	rec := aerRecord{
		Container:   aer.Container[:],
		Trigger:     uint8(aer.Trigger),
		VMState:     uint8(aer.VMState),
		GasConsumed: aer.GasConsumed,
		Exception:   []byte(aer.FaultException),
	}
	// Sized once; an empty stack or event list stays nil (encoded as such).
	if js := aer.StackJSON(); len(js) > 0 {
		rec.Stack = make([][]byte, len(js))
		for i := range js {
			rec.Stack[i] = js[i]
		}
	}
	if len(aer.Events) > 0 {
		rec.Events = make([]eventRecord, 0, len(aer.Events))
	}
	// The events' names and serialized states are only read by the
	// encoder: they go into one pooled scratch buffer (an earlier part
	// stays valid when it grows: the old array is kept while referenced).
	scratch := getScratch()
	defer putScratch(scratch)
	sb := scratch.AvailableBuffer()
	for i := range aer.Events {
		ev := &aer.Events[i]
		start := len(sb)
		sb = append(sb, ev.Name...)
		mid := len(sb)
		var err error
		if sb, err = stackitem.AppendSerialized(sb, ev.Item, stackitem.MaxSize, stackitem.MaxItems); err != nil {
			return nil, fmt.Errorf("notification %d: %w", i, err)
		}
		rec.Events = append(rec.Events, eventRecord{Contract: ev.ScriptHash[:], Name: sb[start:mid:mid], State: sb[mid:len(sb):len(sb)]})
	}
	scratch.Write(sb) // keeps the grown buffer for the pool
	version := byte(recordV1)
	var v any = &rec
	if len(aer.Invocations) > 0 {
		version = recordV2
		v = &aerRecordV2{Base: rec, Invocations: invocationRecords(aer.Invocations)}
	}
	return appendRecord([]byte{version}, v)
}

// DecodeAppExecResult decodes the form EncodeAppExecResult writes.
func DecodeAppExecResult(data []byte) (*AppExecResult, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: unknown version", ErrRecord)
	}
	var (
		rec  aerRecord
		invs []ContractInvocation
	)
	switch data[0] {
	case recordV1:
		if err := decodeRecord(data[1:], &rec); err != nil {
			return nil, err
		}
	case recordV2:
		var r2 aerRecordV2
		if err := decodeRecord(data[1:], &r2); err != nil {
			return nil, err
		}
		var err error
		if invs, err = invocationsFromRecords(r2.Invocations); err != nil {
			return nil, err
		}
		rec = r2.Base
	default:
		return nil, fmt.Errorf("%w: unknown version", ErrRecord)
	}
	if len(rec.Container) != hash.Uint256Size {
		return nil, fmt.Errorf("%w: container hash", ErrRecord)
	}
	aer := &AppExecResult{
		Container: hash.Uint256(rec.Container),
		Execution: Execution{
			Trigger:        trigger.Type(rec.Trigger),
			VMState:        vmstate.State(rec.VMState),
			GasConsumed:    rec.GasConsumed,
			FaultException: string(rec.Exception),
			Invocations:    invs,
			stackJSON:      make([]json.RawMessage, len(rec.Stack)),
			Events:         make([]NotificationEvent, len(rec.Events)),
		},
	}
	for i, js := range rec.Stack {
		if !json.Valid(js) {
			return nil, fmt.Errorf("%w: stack item %d", ErrRecord, i)
		}
		aer.stackJSON[i] = bytes.Clone(js)
	}
	for i, ev := range rec.Events {
		if len(ev.Contract) != hash.Uint160Size {
			return nil, fmt.Errorf("%w: notification %d contract", ErrRecord, i)
		}
		item, err := stackitem.Deserialize(ev.State)
		if err != nil {
			return nil, fmt.Errorf("%w: notification %d: %w", ErrRecord, i, err)
		}
		arr, ok := item.(*stackitem.Array)
		if !ok {
			return nil, fmt.Errorf("%w: notification %d state is %s", ErrRecord, i, item.Type())
		}
		aer.Events[i] = NotificationEvent{ScriptHash: hash.Uint160(ev.Contract), Name: string(ev.Name), Item: arr}
	}
	return aer, nil
}

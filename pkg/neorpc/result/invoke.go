package result

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Invoke is the result of invokefunction, invokescript,
// invokecontractverify, invokecontainedscript and their historic forms.
type Invoke struct {
	// Script is what ran; State, GasConsumed and FaultException how it
	// ended.
	Script         []byte
	State          string
	FaultException string
	GasConsumed    int64
	// Stack holds the result items; iterators are Interop items wrapping
	// an Iterator value.
	Stack []stackitem.Item
	// Session is the iterator session id (zero: none).
	Session       neorpc.UUID
	Notifications []state.NotificationEvent
	Diagnostics   *InvokeDiag
	// Transaction is set only by clients that build one from the result.
	Transaction *transaction.Transaction
}

// InvokeDiag is the verbose part of an invocation: the storage changes it
// made and the tree of contract calls.
type InvokeDiag struct {
	Changes     []StorageChange   `json:"storagechanges"`
	Invocations []*InvocationTree `json:"invokedcontracts"`
}

// StorageChange is one changed storage key: State is "Added", "Changed" or
// "Deleted"; Key is the full storage key (contract id, then the key).
type StorageChange struct {
	State string `json:"state"`
	Key   []byte `json:"key"`
	Value []byte `json:"value,omitzero"`
}

// InvocationTree is a contract call with the calls it made.
type InvocationTree struct {
	Current hash.Uint160      `json:"hash"`
	Calls   []*InvocationTree `json:"call,omitzero"`
}

// invokeAux is the JSON form; its field order is the key order of
// neo-go's answers.
type invokeAux struct {
	State          string                    `json:"state"`
	GasConsumed    int64                     `json:"gasconsumed,string"`
	Script         []byte                    `json:"script"`
	Stack          json.RawMessage           `json:"stack"`
	FaultException *string                   `json:"exception"`
	Notifications  []state.NotificationEvent `json:"notifications"`
	Transaction    []byte                    `json:"tx,omitzero"`
	Diagnostics    *InvokeDiag               `json:"diagnostics,omitzero"`
	Session        string                    `json:"session,omitzero"`
}

// IteratorInterfaceName marks a session iterator in an InteropInterface
// stack item.
const IteratorInterfaceName = "IIterator"

// Iterator is an iterator returned by an invocation. With sessions, ID is
// set (and Values may hold a first part if session expansion is on);
// without, Values holds up to MaxIteratorResultItems values and Truncated
// tells whether there were more.
type Iterator struct {
	ID        *neorpc.UUID
	Values    []stackitem.Item
	Truncated bool
}

type iteratorAux struct {
	Type      string            `json:"type"`
	Interface string            `json:"interface,omitzero"`
	ID        string            `json:"id,omitzero"`
	Value     []json.RawMessage `json:"iterator,omitzero"`
	Truncated bool              `json:"truncated,omitzero"`
}

// MarshalJSON writes {"type":"InteropInterface", "interface", "id",
// "iterator", "truncated"} as neo-go does.
func (r Iterator) MarshalJSON() ([]byte, error) {
	aux := iteratorAux{Type: stackitem.InteropT.String(), Truncated: r.Truncated}
	if r.ID != nil {
		aux.Interface = IteratorInterfaceName
		aux.ID = r.ID.String()
	}
	if r.Values != nil {
		aux.Value = make([]json.RawMessage, len(r.Values))
		for i := range r.Values {
			b, err := stackitem.ToJSONWithTypes(r.Values[i], stackitem.MaxSize)
			if err != nil {
				return nil, err
			}
			aux.Value[i] = b
		}
	}
	return json.Marshal(&aux)
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (r *Iterator) UnmarshalJSON(data []byte) error {
	var aux iteratorAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*r = Iterator{Truncated: aux.Truncated}
	if aux.Interface != "" {
		if aux.Interface != IteratorInterfaceName {
			return fmt.Errorf("unknown InteropInterface: %s", aux.Interface)
		}
		id, err := neorpc.ParseUUID(aux.ID)
		if err != nil {
			return fmt.Errorf("failed to unmarshal iterator ID: %w", err)
		}
		r.ID = &id
	}
	if aux.Value != nil {
		r.Values = make([]stackitem.Item, len(aux.Value))
		for i := range aux.Value {
			it, err := stackitem.FromJSONWithTypes(aux.Value[i])
			if err != nil {
				return fmt.Errorf("failed to unmarshal iterator values: %w", err)
			}
			r.Values[i] = it
		}
	}
	return nil
}

// MarshalJSON writes state, gasconsumed, script, stack, exception (null
// without a fault), notifications, then tx, diagnostics and session when
// set. A stack item that cannot be printed ends the stack (null) and adds
// " / json error: ..." to the exception, as neo-go does.
func (r Invoke) MarshalJSON() ([]byte, error) {
	var (
		stack json.RawMessage
		err   error
		arr   = make([]json.RawMessage, len(r.Stack))
		fault = r.FaultException
	)
	for i := range arr {
		var data []byte
		if it, ok := r.Stack[i].(*stackitem.Interop); ok {
			if iter, ok := it.Value().(Iterator); ok {
				data, err = json.Marshal(iter)
			} else {
				data, err = stackitem.ToJSONWithTypes(r.Stack[i], stackitem.MaxSize)
			}
		} else {
			data, err = stackitem.ToJSONWithTypes(r.Stack[i], stackitem.MaxSize)
		}
		if err != nil {
			sep := ""
			if fault != "" {
				sep = " / "
			}
			fault += fmt.Sprintf("%sjson error: %s", sep, jsonErrText(err))
			break
		}
		arr[i] = data
	}
	if err == nil {
		if stack, err = json.Marshal(arr); err != nil {
			return nil, err
		}
	}
	aux := invokeAux{
		State:         r.State,
		GasConsumed:   r.GasConsumed,
		Script:        r.Script,
		Stack:         stack,
		Notifications: r.Notifications,
		Diagnostics:   r.Diagnostics,
	}
	if r.Transaction != nil {
		aux.Transaction = r.Transaction.Bytes()
	}
	if r.Session != (neorpc.UUID{}) {
		aux.Session = r.Session.String()
	}
	if fault != "" {
		aux.FaultException = &fault
	}
	return json.Marshal(&aux)
}

// UnmarshalJSON reads the form MarshalJSON writes; session iterators come
// back as Interop items wrapping an Iterator.
func (r *Invoke) UnmarshalJSON(data []byte) error {
	var aux invokeAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*r = Invoke{State: aux.State, GasConsumed: aux.GasConsumed, Script: aux.Script,
		Notifications: aux.Notifications, Diagnostics: aux.Diagnostics}
	if aux.Session != "" {
		id, err := neorpc.ParseUUID(aux.Session)
		if err != nil {
			return fmt.Errorf("failed to parse session ID: %w", err)
		}
		r.Session = id
	}
	if aux.FaultException != nil {
		r.FaultException = *aux.FaultException
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(aux.Stack, &arr); err == nil && arr != nil {
		r.Stack = make([]stackitem.Item, len(arr))
		for i := range arr {
			it, err := stackItem(arr[i])
			if err != nil {
				return fmt.Errorf("failed to unmarshal stack: %w", err)
			}
			r.Stack[i] = it
		}
	}
	if len(aux.Transaction) != 0 {
		tx, err := transaction.NewTransactionFromBytes(aux.Transaction)
		if err != nil {
			return err
		}
		r.Transaction = tx
	}
	return nil
}

// stackItem reads one stack item of an answer: InteropInterface items are
// iterators (an Interop item wrapping an Iterator), the others stack
// values.
func stackItem(raw json.RawMessage) (stackitem.Item, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err == nil && head.Type == stackitem.InteropT.String() {
		var iter Iterator
		if err := json.Unmarshal(raw, &iter); err != nil {
			return nil, err
		}
		return stackitem.NewInterop(iter), nil
	}
	return stackitem.FromJSONWithTypes(raw)
}

// jsonErrText words a stack item printing error as neo-go does.
func jsonErrText(err error) string {
	switch {
	case errors.Is(err, stackitem.ErrCircular):
		return "recursive item"
	case errors.Is(err, stackitem.ErrTooBig):
		return "too big: size"
	}
	return err.Error()
}

package result

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
)

// ApplicationLog is a getapplicationlog result: the executions of a block
// (OnPersist, PostPersist) or of a transaction (Application).
type ApplicationLog struct {
	Container     hash.Uint256
	IsTransaction bool
	Executions    []state.Execution
}

type applicationLogAux struct {
	TxHash     *hash.Uint256     `json:"txid,omitzero"`
	BlockHash  *hash.Uint256     `json:"blockhash,omitzero"`
	Executions []json.RawMessage `json:"executions"`
}

// NewApplicationLog makes the log of container h from its execution
// results, keeping those whose trigger is in trig. aers must not be empty;
// the container is a transaction if the first result is an Application
// one.
func NewApplicationLog(h hash.Uint256, aers []state.AppExecResult, trig trigger.Type) ApplicationLog {
	res := ApplicationLog{Container: h, IsTransaction: aers[0].Trigger == trigger.Application}
	for i := range aers {
		if aers[i].Trigger&trig != 0 {
			res.Executions = append(res.Executions, aers[i].Execution)
		}
	}
	return res
}

// MarshalJSON writes {"txid"|"blockhash", "executions"}.
func (l ApplicationLog) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 512)
	if l.IsTransaction {
		out = append(out, `{"txid":`...)
	} else {
		out = append(out, `{"blockhash":`...)
	}
	out = appendUint256(out, l.Container)
	out = append(out, `,"executions":[`...)
	for i := range l.Executions {
		b, err := l.Executions[i].MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("failed to marshal execution #%d: %w", i, err)
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return append(out, "]}"...), nil
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (l *ApplicationLog) UnmarshalJSON(data []byte) error {
	var aux applicationLogAux
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	switch {
	case aux.TxHash != nil:
		l.Container, l.IsTransaction = *aux.TxHash, true
	case aux.BlockHash != nil:
		l.Container, l.IsTransaction = *aux.BlockHash, false
	default:
		return errors.New("no block or transaction hash")
	}
	l.Executions = make([]state.Execution, len(aux.Executions))
	for i := range aux.Executions {
		if err := json.Unmarshal(aux.Executions[i], &l.Executions[i]); err != nil {
			return fmt.Errorf("failed to unmarshal execution #%d: %w", i, err)
		}
	}
	return nil
}

// ContainedNotificationEvent is a notification with the hash of the block
// or transaction whose execution sent it (notification_from_execution
// events, getblocknotifications).
type ContainedNotificationEvent struct {
	Container hash.Uint256
	state.NotificationEvent
}

type containerAux struct {
	Container hash.Uint256 `json:"container"`
}

// MarshalJSON writes {"container", "contract", "eventname", "state"}.
func (e ContainedNotificationEvent) MarshalJSON() ([]byte, error) {
	c, err := json.Marshal(containerAux{e.Container})
	if err != nil {
		return nil, err
	}
	ev, err := e.NotificationEvent.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return mergeObjects(c, ev)
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (e *ContainedNotificationEvent) UnmarshalJSON(data []byte) error {
	var c containerAux
	if err := json.Unmarshal(data, &c); err != nil {
		return err
	}
	if err := json.Unmarshal(data, &e.NotificationEvent); err != nil {
		return err
	}
	e.Container = c.Container
	return nil
}

// BlockNotifications is a getblocknotifications result: the notifications
// of a block's executions, by trigger (empty groups omitted).
type BlockNotifications struct {
	OnPersist   []ContainedNotificationEvent `json:"onpersist,omitzero"`
	Application []ContainedNotificationEvent `json:"application,omitzero"`
	PostPersist []ContainedNotificationEvent `json:"postpersist,omitzero"`
}

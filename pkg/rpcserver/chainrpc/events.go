package chainrpc

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Feeder turns chain events into WebSocket notifications with neo-go's
// payloads (block_added, header_of_added_block, transaction_added,
// notification_from_execution, transaction_executed, mempool_event).
// Events nobody subscribes to are dropped before any encoding. Use it from
// one goroutine (Run) so that subscribers see the chain's order.
type Feeder struct {
	srv *rpcserver.Server
}

// NewFeeder returns a feeder publishing on srv.
func NewFeeder(srv *rpcserver.Server) *Feeder { return &Feeder{srv: srv} }

// Run publishes the events of ch until it is closed or ctx ends.
func (f *Feeder) Run(ctx context.Context, ch <-chan ChainEvent) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-ch:
			if !ok {
				return
			}
			f.Publish(&ev)
		}
	}
}

// Publish sends one event to the matching subscribers.
func (f *Feeder) Publish(ev *ChainEvent) {
	switch {
	case ev.Block != nil:
		f.publish(neorpc.BlockEventID, ev.Block, func() neorpc.EventFields { return headerFields(&ev.Block.Header) })
	case ev.Header != nil:
		f.publish(neorpc.HeaderOfAddedBlockEventID, ev.Header, func() neorpc.EventFields { return headerFields(ev.Header) })
	case ev.Tx != nil:
		f.publish(neorpc.TransactionEventID, ev.Tx, func() neorpc.EventFields { return txFields(ev.Tx) })
	case ev.Execution != nil:
		f.publish(neorpc.ExecutionEventID, executionPayload(ev.Execution), func() neorpc.EventFields {
			return neorpc.EventFields{VMState: ev.Execution.VMState.String(), Container: ev.Execution.Container}
		})
	case ev.Notification != nil:
		f.publish(neorpc.NotificationEventID, ev.Notification, func() neorpc.EventFields {
			return notificationFields(&ev.Notification.NotificationEvent)
		})
	case ev.Mempool != nil:
		f.publish(neorpc.MempoolEventID, &result.MempoolEvent{Type: neorpc.MempoolEventType(ev.Mempool.Type), Tx: ev.Mempool.Tx},
			func() neorpc.EventFields {
				fl := txFields(ev.Mempool.Tx)
				fl.Type = neorpc.MempoolEventType(ev.Mempool.Type)
				return fl
			})
	}
}

func (f *Feeder) publish(id neorpc.EventID, payload any, fields func() neorpc.EventFields) {
	if !f.srv.HasSubscribers(id) {
		return
	}
	f.srv.Publish(&rpcserver.Event{ID: id, Payload: payload, Fields: fields()})
}

// executionPayload is the transaction_executed payload: the execution
// result as getapplicationlog prints it, except that an execution without
// notifications has "notifications": null (neo-go sends the live result,
// whose list is nil; stored logs print []).
func executionPayload(aer *state.AppExecResult) any {
	if aer.Events != nil {
		return aer
	}
	return lazyJSON(func() ([]byte, error) {
		b, err := json.Marshal(aer)
		if err != nil {
			return nil, err
		}
		return bytes.Replace(b, []byte(`"notifications":[]`), []byte(`"notifications":null`), 1), nil
	})
}

// lazyJSON is a payload encoded only when some subscriber wants it.
type lazyJSON func() ([]byte, error)

func (l lazyJSON) MarshalJSON() ([]byte, error) { return l() }

func headerFields(h *block.Header) neorpc.EventFields {
	return neorpc.EventFields{Index: h.Index, Primary: h.PrimaryIndex}
}

func txFields(tx *transaction.Transaction) neorpc.EventFields {
	f := neorpc.EventFields{Sender: tx.Sender(), Signers: make([]hash.Uint160, len(tx.Signers))}
	for i := range tx.Signers {
		f.Signers[i] = tx.Signers[i].Account
	}
	return f
}

// notificationFields is what notification filters look at: contract, name
// and the state items.
func notificationFields(ev *state.NotificationEvent) neorpc.EventFields {
	f := neorpc.EventFields{Contract: ev.ScriptHash, Name: ev.Name}
	if ev.Item == nil {
		return f
	}
	items := ev.Item.Items()
	f.Items = make([]neorpc.StackValue, len(items))
	for i, it := range items {
		switch x := it.(type) {
		case stackitem.Bool:
			f.Items[i] = neorpc.StackValue{Kind: neorpc.StackBool, Bool: bool(x)}
		case *stackitem.Integer:
			f.Items[i] = neorpc.StackValue{Kind: neorpc.StackInteger, Int: x.BigInt()}
		case *stackitem.ByteString:
			f.Items[i] = neorpc.StackValue{Kind: neorpc.StackByteString, Bytes: x.Bytes()}
		default:
			f.Items[i] = neorpc.StackValue{Kind: neorpc.StackOther}
		}
	}
	return f
}

// MempoolEvent wraps a memory pool event for a Feeder.
func MempoolEvent(e *mempoolevent.Event) ChainEvent { return ChainEvent{Mempool: e} }

// headerBytes is the binary form of a header.
func headerBytes(h *block.Header) []byte {
	w := nio.NewBufBinWriter()
	h.EncodeBinary(w)
	return w.Bytes()
}

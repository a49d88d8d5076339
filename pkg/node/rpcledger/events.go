package rpcledger

import (
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
)

// Subscribe makes one stream of bc's ordered events (core.Event: per
// block the executions, notifications and transactions, the header, the
// block; with mempool, the memory pool's events too) as
// chainrpc.ChainEvents. stop ends the subscription and closes the stream.
func Subscribe(bc *core.Blockchain, mempool bool) (<-chan chainrpc.ChainEvent, func()) {
	var (
		chain = make(chan core.Event, 64)
		out   = make(chan chainrpc.ChainEvent, 64)
		quit  = make(chan struct{})
		done  = make(chan struct{})
		kinds = core.AllEvents
	)
	if mempool {
		kinds |= core.MempoolEvents
	}
	bc.Subscribe(chain, kinds)
	go func() {
		defer close(done)
		for {
			var ev chainrpc.ChainEvent
			select {
			case <-quit:
				return
			case e := <-chain:
				ev = chainEvent(e)
			}
			select {
			case out <- ev:
			case <-quit:
				return
			}
		}
	}()
	stop := func() {
		close(quit)
		<-done
		// Unsubscribing waits for a delivery in progress: drain meanwhile.
		drained := make(chan struct{})
		go func() {
			for {
				select {
				case <-chain:
				case <-drained:
					return
				}
			}
		}()
		bc.Unsubscribe(chain)
		close(drained)
		close(out)
	}
	return out, stop
}

// chainEvent is the RPC form of a chain event.
func chainEvent(e core.Event) chainrpc.ChainEvent {
	ev := chainrpc.ChainEvent{Block: e.Block, Header: e.Header, Tx: e.Tx, Execution: e.Execution, Mempool: e.Mempool}
	if n := e.Notification; n != nil {
		ev.Notification = &result.ContainedNotificationEvent{Container: n.Container, NotificationEvent: n.NotificationEvent}
	}
	return ev
}

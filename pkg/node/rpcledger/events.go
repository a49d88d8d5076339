package rpcledger

import (
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
)

// Subscribe makes one stream of bc's ordered events (core.Event: per
// block the executions, notifications and transactions, the header, the
// block) and, if mempool is set, the memory pool's events, as
// chainrpc.ChainEvents. stop ends the subscriptions and closes the
// stream.
func Subscribe(bc *core.Blockchain, mempool bool) (<-chan chainrpc.ChainEvent, func()) {
	var (
		chain = make(chan core.Event, 64)
		mp    = make(chan mempoolevent.Event, 64)
		out   = make(chan chainrpc.ChainEvent, 64)
		quit  = make(chan struct{})
		done  = make(chan struct{})
	)
	bc.Subscribe(chain, core.AllEvents)
	if mempool {
		bc.Mempool().SubscribeForTransactions(mp)
	}
	go func() {
		defer close(done)
		for {
			var ev chainrpc.ChainEvent
			select {
			case <-quit:
				return
			case e := <-chain:
				ev = chainEvent(e)
			case m := <-mp:
				ev.Mempool = &m
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
				case <-mp:
				case <-drained:
					return
				}
			}
		}()
		bc.Unsubscribe(chain)
		if mempool {
			bc.Mempool().UnsubscribeFromTransactions(mp)
		}
		close(drained)
		close(out)
	}
	return out, stop
}

// chainEvent is the RPC form of a chain event.
func chainEvent(e core.Event) chainrpc.ChainEvent {
	ev := chainrpc.ChainEvent{Block: e.Block, Header: e.Header, Tx: e.Tx, Execution: e.Execution}
	if n := e.Notification; n != nil {
		ev.Notification = &result.ContainedNotificationEvent{Container: n.Container, NotificationEvent: n.NotificationEvent}
	}
	return ev
}

package coreledger

import (
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
)

// Subscribe makes one ordered stream of bc's block events (executions,
// notifications, transactions, headers, blocks, in the chain's delivery
// order) and, if mempool is set, the memory pool's events. stop ends the
// subscriptions and closes the stream.
func Subscribe(bc *core.Blockchain, mempool bool) (<-chan chainrpc.ChainEvent, func()) {
	var (
		blocks  = make(chan *block.Block)
		headers = make(chan *block.Header)
		txs     = make(chan *transaction.Transaction)
		notes   = make(chan *core.ContainedNotificationEvent)
		execs   = make(chan *state.AppExecResult)
		mp      = make(chan mempoolevent.Event, 64)
		out     = make(chan chainrpc.ChainEvent, 64)
		quit    = make(chan struct{})
		done    = make(chan struct{})
	)
	bc.SubscribeForExecutions(execs)
	bc.SubscribeForNotifications(notes)
	bc.SubscribeForTransactions(txs)
	bc.SubscribeForHeadersOfAddedBlocks(headers)
	bc.SubscribeForBlocks(blocks)
	if mempool {
		bc.Mempool().SubscribeForTransactions(mp)
	}
	send := func(ev chainrpc.ChainEvent) bool {
		select {
		case out <- ev:
			return true
		case <-quit:
			return false
		}
	}
	go func() {
		defer close(done)
		for {
			var ev chainrpc.ChainEvent
			select {
			case <-quit:
				return
			case b := <-blocks:
				ev.Block = b
			case h := <-headers:
				ev.Header = h
			case t := <-txs:
				ev.Tx = t
			case n := <-notes:
				ev.Notification = &result.ContainedNotificationEvent{Container: n.Container, NotificationEvent: n.NotificationEvent}
			case e := <-execs:
				ev.Execution = e
			case m := <-mp:
				ev.Mempool = &m
			}
			if !send(ev) {
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
				case <-blocks:
				case <-headers:
				case <-txs:
				case <-notes:
				case <-execs:
				case <-mp:
				case <-drained:
					return
				}
			}
		}()
		bc.UnsubscribeFromExecutions(execs)
		bc.UnsubscribeFromNotifications(notes)
		bc.UnsubscribeFromTransactions(txs)
		bc.UnsubscribeFromHeadersOfAddedBlocks(headers)
		bc.UnsubscribeFromBlocks(blocks)
		if mempool {
			bc.Mempool().UnsubscribeFromTransactions(mp)
		}
		close(drained)
		close(out)
	}
	return out, stop
}

package node

import (
	"github.com/n3node/n3node/pkg/core/mempool"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/rpcserver"
)

// notaryFeed publishes the notary request pool's events to WebSocket
// subscribers of notary_request_event.
type notaryFeed struct {
	pool *mempool.Pool
	ch   chan mempoolevent.Event
	quit chan struct{}
	done chan struct{}
}

func startNotaryFeed(srv *rpcserver.Server, pool *mempool.Pool) *notaryFeed {
	f := &notaryFeed{pool: pool, ch: make(chan mempoolevent.Event, 64), quit: make(chan struct{}), done: make(chan struct{})}
	pool.SubscribeForTransactions(f.ch)
	go func() {
		defer close(f.done)
		for {
			select {
			case <-f.quit:
				return
			case ev := <-f.ch:
				publishNotaryEvent(srv, ev)
			}
		}
	}()
	return f
}

// stop unsubscribes (the reader still drains a send in progress), then
// stops the reader.
func (f *notaryFeed) stop() {
	f.pool.UnsubscribeFromTransactions(f.ch)
	close(f.quit)
	<-f.done
}

// notaryRequestEvent is neo-go's notary_request_event payload
// (result.NotaryRequestEvent).
type notaryRequestEvent struct {
	Type          mempoolevent.Type `json:"type"`
	NotaryRequest notaryRequestJSON `json:"notaryrequest"`
}

// notaryRequestJSON is neo-go's JSON form of a P2PNotaryRequest (its
// struct tags: the witness has none).
type notaryRequestJSON struct {
	Main     *transaction.Transaction `json:"maintx"`
	Fallback *transaction.Transaction `json:"fallbacktx"`
	Witness  transaction.Witness      `json:"Witness"`
}

// publishNotaryEvent sends a pool event to the matching subscribers. The
// filter fields are the event type, the fallback's payer (its second
// signer) and the main transaction's signers.
func publishNotaryEvent(srv *rpcserver.Server, ev mempoolevent.Event) {
	if !srv.HasSubscribers(neorpc.NotaryRequestEventID) {
		return
	}
	r, ok := ev.Data.(*payload.P2PNotaryRequest)
	if !ok {
		return
	}
	fields := neorpc.EventFields{Type: neorpc.MempoolEventType(ev.Type)}
	if fb := r.FallbackTransaction.Signers; len(fb) > 1 {
		fields.Sender = fb[1].Account
	}
	for _, s := range r.MainTransaction.Signers {
		fields.Signers = append(fields.Signers, s.Account)
	}
	srv.Publish(&rpcserver.Event{
		ID: neorpc.NotaryRequestEventID,
		Payload: notaryRequestEvent{Type: ev.Type, NotaryRequest: notaryRequestJSON{
			Main: r.MainTransaction, Fallback: r.FallbackTransaction, Witness: r.Witness,
		}},
		Fields: fields,
	})
}

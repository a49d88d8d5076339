package oracle

import (
	"context"
	"encoding/base64"
	"log/slog"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/rpcclient"
)

// broadcastQueue is how many responses wait per node (neo-go
// defaultChanCapacity); beyond it responses to that node are dropped.
const broadcastQueue = 16

// RPCBroadcaster sends response signatures to the other Oracle nodes with
// the submitoracleresponse RPC (neo-go OracleBroadcaster): one goroutine
// and queue per node, each call bounded by ResponseTimeout.
type RPCBroadcaster struct {
	log     *slog.Logger
	timeout time.Duration
	nodes   []*rpcNode

	stop     chan struct{}
	stopOnce sync.Once
	wg       sync.WaitGroup
}

type rpcNode struct {
	addr  string
	queue chan []any
}

// NewRPCBroadcaster returns a broadcaster to cfg.Nodes (RPC endpoints).
func NewRPCBroadcaster(cfg config.OracleConfiguration, log *slog.Logger) *RPCBroadcaster {
	if log == nil {
		log = slog.Default()
	}
	t := cfg.ResponseTimeout
	if t == 0 {
		t = DefaultResponseTimeout
	}
	b := &RPCBroadcaster{log: log, timeout: t, stop: make(chan struct{})}
	for _, a := range cfg.Nodes {
		b.nodes = append(b.nodes, &rpcNode{addr: a, queue: make(chan []any, broadcastQueue)})
	}
	return b
}

// SendResponse implements Broadcaster.
func (b *RPCBroadcaster) SendResponse(priv *keys.PrivateKey, resp *transaction.OracleResponse, txSig []byte) {
	pub := priv.PublicKey().Bytes()
	msgSig := priv.Sign(ResponseMessage(pub, resp.ID, txSig))
	params := []any{
		base64.StdEncoding.EncodeToString(pub),
		resp.ID,
		base64.StdEncoding.EncodeToString(txSig),
		base64.StdEncoding.EncodeToString(msgSig),
	}
	for _, n := range b.nodes {
		select {
		case n.queue <- params:
		default:
			b.log.Error("can't send oracle response, queue is full", "address", n.addr)
		}
	}
}

// Run implements Broadcaster: it starts the per-node senders.
func (b *RPCBroadcaster) Run() {
	for _, n := range b.nodes {
		b.wg.Go(func() { b.send(n) })
	}
	<-b.stop
	b.wg.Wait()
}

// Shutdown implements Broadcaster.
func (b *RPCBroadcaster) Shutdown() {
	b.stopOnce.Do(func() { close(b.stop) })
}

func (b *RPCBroadcaster) send(n *rpcNode) {
	var c *rpcclient.Client
	defer func() {
		if c != nil {
			c.Close()
		}
	}()
	for {
		select {
		case <-b.stop:
			return
		case ps := <-n.queue:
			if c == nil {
				var err error
				c, err = rpcclient.New(n.addr, rpcclient.Options{DialTimeout: b.timeout, RequestTimeout: b.timeout})
				if err != nil {
					b.log.Error("can't make an RPC client to submit oracle responses", "address", n.addr, "err", err)
					continue
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
			err := c.Call(ctx, "submitoracleresponse", ps, nil)
			cancel()
			if err != nil {
				b.log.Error("error while submitting oracle response", "address", n.addr, "err", err)
			}
		}
	}
}

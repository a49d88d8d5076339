package chainrpc_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/mempoolevent"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc/result"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/rpcserver/chainrpc"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
	"github.com/stretchr/testify/require"
)

func TestFeeder(t *testing.T) {
	srv := rpcserver.New(rpcserver.Config{MempoolSubscriptionsEnabled: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+ln.Addr().String()+"/ws", nil)
	require.NoError(t, err)
	defer c.CloseNow()
	read := func() string {
		_, b, err := c.Read(ctx)
		require.NoError(t, err)
		return strings.TrimSpace(string(b))
	}
	for i, sub := range []string{
		`["transaction_executed"]`,
		`["notification_from_execution",{"name":"Transfer","parameters":[{"type":"Integer","value":"5"}]}]`,
		`["block_added",{"since":3}]`,
		`["mempool_event",{"type":"removed"}]`,
	} {
		require.NoError(t, c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"subscribe","params":`+sub+`}`)))
		require.Contains(t, read(), `"result":"`+string(rune('0'+i))+`"`)
	}
	feed := make(chan chainrpc.ChainEvent, 16)
	go chainrpc.NewFeeder(srv).Run(ctx, feed)

	aer := &state.AppExecResult{Container: hash.Uint256{1}, Execution: state.Execution{Trigger: trigger.Application, VMState: vmstate.Fault, GasConsumed: 5}}
	note := func(v int64) *result.ContainedNotificationEvent {
		return &result.ContainedNotificationEvent{Container: hash.Uint256{2}, NotificationEvent: state.NotificationEvent{
			ScriptHash: hash.Uint160{3}, Name: "Transfer", Item: stackitem.NewArray([]stackitem.Item{stackitem.NewInt(v)})}}
	}
	tx := transaction.New([]byte{0x11}, 1, 0, 0, 10)
	tx.Signers = []transaction.Signer{{Account: hash.Uint160{4}}}
	tx.Witnesses = []transaction.Witness{{}}
	feed <- chainrpc.ChainEvent{Execution: aer}
	feed <- chainrpc.ChainEvent{Notification: note(4)}
	feed <- chainrpc.ChainEvent{Notification: note(5)}
	feed <- chainrpc.ChainEvent{Block: &block.Block{Header: block.Header{Index: 2}}}
	feed <- chainrpc.ChainEvent{Block: &block.Block{Header: block.Header{Index: 3}}}
	feed <- chainrpc.MempoolEvent(&mempoolevent.Event{Type: mempoolevent.TransactionAdded, Tx: tx})
	feed <- chainrpc.MempoolEvent(&mempoolevent.Event{Type: mempoolevent.TransactionRemoved, Tx: tx})

	// Execution without notifications: "notifications": null, as neo-go.
	require.Equal(t, `{"jsonrpc":"2.0","method":"transaction_executed","params":[{"container":"0x`+hash.Uint256{1}.StringLE()+
		`","trigger":"Application","vmstate":"FAULT","gasconsumed":"5","stack":[],"notifications":null,"exception":null,"invocations":null}]}`, read())
	require.Equal(t, `{"jsonrpc":"2.0","method":"notification_from_execution","params":[{"container":"0x`+hash.Uint256{2}.StringLE()+
		`","contract":"0x`+hash.Uint160{3}.StringLE()+`","eventname":"Transfer","state":{"type":"Array","value":[{"type":"Integer","value":"5"}]}}]}`, read())
	require.Contains(t, read(), `"method":"block_added","params":[{"hash":`)
	m := read()
	require.True(t, strings.HasPrefix(m, `{"jsonrpc":"2.0","method":"mempool_event","params":[{"type":"removed","transaction":{"hash":"0x`+tx.Hash().StringLE()), m)
}

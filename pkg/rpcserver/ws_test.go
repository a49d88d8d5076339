package rpcserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
)

// startServer serves s on a loopback port and stops it at the end of the
// test.
func startServer(t testing.TB, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	return ln.Addr().String()
}

type wsTestClient struct {
	t  testing.TB
	c  *websocket.Conn
	id int
}

func dialWS(t testing.TB, addr string) *wsTestClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Body != nil {
		resp.Body.Close()
	}
	c.SetReadLimit(1 << 24)
	t.Cleanup(func() { c.CloseNow() })
	return &wsTestClient{t: t, c: c}
}

func (w *wsTestClient) send(msg string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wsTestClient) read() string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := w.c.Read(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// call sends a request and returns the response, skipping nothing: the
// caller must not have events pending.
func (w *wsTestClient) call(method string, params string) string {
	w.t.Helper()
	w.id++
	w.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s,"id":%d}`, method, params, w.id))
	return w.read()
}

func TestWSCallsAndSubscriptionErrors(t *testing.T) {
	s := testServer(t, Config{MaxWebSocketFeeds: 2})
	addr := startServer(t, s)
	w := dialWS(t, addr)
	if got := w.call("getblockcount", "[]"); got != `{"id":1,"jsonrpc":"2.0","result":42}` {
		t.Fatal(got)
	}
	invalid := `{"code":-32602,"message":"Invalid params","data":"Invalid params"}`
	cases := []struct{ method, params, want string }{
		{"subscribe", `[]`, invalid},
		{"subscribe", `["foo"]`, invalid},
		{"subscribe", `["event_missed"]`, invalid},
		{"subscribe", `["notary_request_event"]`, `{"code":-32602,"message":"Invalid params","data":"P2PSigExtensions are disabled"}`},
		{"subscribe", `["mempool_event", {}]`, `{"code":-32603,"message":"Internal error","data":"mempool subscriptions are disabled"}`},
		{"subscribe", `["block_added", {"foo":1}]`, `{"code":-32602,"message":"Invalid params","data":"json: unknown field \"foo\""}`},
		{"subscribe", `["transaction_executed", {"state":"X"}]`, `{"code":-32602,"message":"Invalid params","data":"invalid subscription filter: ExecutionFilter state parameter must be either HALT or FAULT"}`},
		{"unsubscribe", `[0]`, invalid},
		{"unsubscribe", `[-1]`, invalid},
		{"unsubscribe", `["x"]`, invalid},
	}
	for _, c := range cases {
		id := w.id + 1
		if got, want := w.call(c.method, c.params), fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","error":%s}`, id, c.want); got != want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.method, c.params, got, want)
		}
	}
	// Mempool subscriptions without a filter pass (neo-go checks the
	// setting only with a filter).
	for i, want := range []string{`"0"`, `"1"`} {
		if got := w.call("subscribe", `["mempool_event"]`); got != fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","result":%s}`, w.id, want) {
			t.Fatalf("subscription %d: %s", i, got)
		}
	}
	if got := w.call("subscribe", `["block_added"]`); !strings.Contains(got, `"data":"maximum number of subscriptions is reached"`) {
		t.Fatal(got)
	}
	if got := w.call("unsubscribe", `["0"]`); !strings.HasSuffix(got, `"result":true}`) {
		t.Fatal(got)
	}
	if got := w.call("subscribe", `["block_added"]`); !strings.HasSuffix(got, `"result":"0"}`) {
		t.Fatal(got)
	}
	if !s.HasSubscribers(neorpc.BlockEventID) || !s.HasSubscribers(neorpc.MempoolEventID) || s.HasSubscribers(neorpc.TransactionEventID) {
		t.Fatal("subscriber counts")
	}
	// A batch over WebSocket.
	w.send(`[{"jsonrpc":"2.0","method":"getblockcount","id":7},{"jsonrpc":"2.0","method":"unsubscribe","params":[1],"id":8}]`)
	if got := w.read(); got != `[{"id":7,"jsonrpc":"2.0","result":42},{"id":8,"jsonrpc":"2.0","result":true}]` {
		t.Fatal(got)
	}
	// Undecodable input closes the connection without an answer.
	w.send(`{"jsonrpc":`)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := w.c.Read(ctx); err == nil {
		t.Fatal("connection still open")
	}
	waitFor(t, func() bool { return !s.HasSubscribers(neorpc.BlockEventID) })
}

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not reached")
}

func blockEvent(index uint32, primary byte) *Event {
	return &Event{
		ID:      neorpc.BlockEventID,
		Payload: json.RawMessage(fmt.Sprintf(`{"index":%d,"primary":%d}`, index, primary)),
		Fields:  neorpc.EventFields{Index: index, Primary: primary},
	}
}

func TestWSEventsAndFilters(t *testing.T) {
	s := testServer(t, Config{})
	addr := startServer(t, s)
	w := dialWS(t, addr)
	other := dialWS(t, addr)
	if got := w.call("subscribe", `["block_added", {"since": 5, "till": 6}]`); !strings.HasSuffix(got, `"result":"0"}`) {
		t.Fatal(got)
	}
	if got := w.call("subscribe", `["block_added", {"primary": 1}]`); !strings.HasSuffix(got, `"result":"1"}`) {
		t.Fatal(got)
	}
	signer := hash.Uint160{7}
	if got := w.call("subscribe", fmt.Sprintf(`["transaction_added", {"signer": %q}]`, signer.String())); !strings.HasSuffix(got, `"result":"2"}`) {
		t.Fatal(got)
	}
	if got := other.call("subscribe", `["transaction_added"]`); !strings.HasSuffix(got, `"result":"0"}`) {
		t.Fatal(got)
	}
	s.Publish(blockEvent(4, 0)) // matches nothing
	s.Publish(blockEvent(5, 1)) // matches both block feeds: sent once
	s.Publish(blockEvent(7, 1))
	s.Publish(blockEvent(8, 0))
	s.Publish(&Event{ID: neorpc.TransactionEventID, Payload: map[string]string{"hash": "a"},
		Fields: neorpc.EventFields{Signers: []hash.Uint160{{1}}}})
	s.Publish(&Event{ID: neorpc.TransactionEventID, Payload: map[string]string{"hash": "b"},
		Fields: neorpc.EventFields{Signers: []hash.Uint160{{1}, signer}}})
	for _, want := range []string{
		`{"jsonrpc":"2.0","method":"block_added","params":[{"index":5,"primary":1}]}`,
		`{"jsonrpc":"2.0","method":"block_added","params":[{"index":7,"primary":1}]}`,
		`{"jsonrpc":"2.0","method":"transaction_added","params":[{"hash":"b"}]}`,
	} {
		if got := w.read(); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	}
	for _, want := range []string{
		`{"jsonrpc":"2.0","method":"transaction_added","params":[{"hash":"a"}]}`,
		`{"jsonrpc":"2.0","method":"transaction_added","params":[{"hash":"b"}]}`,
	} {
		if got := other.read(); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	}
	// Responses still work after events.
	if got := w.call("getblockcount", `[]`); got != fmt.Sprintf(`{"id":%d,"jsonrpc":"2.0","result":42}`, w.id) {
		t.Fatal(got)
	}
}

func TestWSClientLimit(t *testing.T) {
	s := testServer(t, Config{MaxWebSocketClients: 1})
	addr := startServer(t, s)
	dialWS(t, addr)
	waitFor(t, func() bool {
		s.subsMu.RLock()
		defer s.subsMu.RUnlock()
		return len(s.conns) == 1
	})
	resp, err := http.Get("http://" + addr + "/ws")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body strings.Builder
	_, _ = fmt.Fprint(&body)
	b := make([]byte, 512)
	n, _ := resp.Body.Read(b)
	if got := string(b[:n]); got != `{"id":null,"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error","data":"websocket users limit reached"}}`+"\n" {
		t.Fatal(got)
	}
	http.DefaultClient.CloseIdleConnections()
}

func TestWSOriginCheck(t *testing.T) {
	for _, cors := range []bool{false, true} {
		s := testServer(t, Config{EnableCORSWorkaround: cors})
		addr := startServer(t, s)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, resp, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{
			HTTPHeader: http.Header{"Origin": []string{"http://evil.example"}}})
		cancel()
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		if cors != (err == nil) {
			t.Fatalf("cors %v: err %v", cors, err)
		}
		if c != nil {
			c.CloseNow()
		}
	}
}

// TestEventQueueOverflow checks the overflow rule with a fake writer: a
// full queue drops events, the first slot freed takes event_missed (which
// fills the queue again, as in neo-go's channel), and events are accepted
// again once there is room.
func TestEventQueueOverflow(t *testing.T) {
	var written []string
	c := &wsConn{signal: make(chan struct{}, 1)}
	c.write = func(msg []byte) bool {
		written = append(written, string(msg))
		return true
	}
	for i := range notificationBufSize + 10 {
		c.enqueue([]byte(fmt.Sprint(i)))
	}
	if !c.overflown || len(c.queue) != notificationBufSize {
		t.Fatalf("overflown %v, queued %d", c.overflown, len(c.queue))
	}
	// The writer takes the queue; while it writes, new events are dropped
	// until event_missed is queued after the first write.
	dropped := false
	c.write = func(msg []byte) bool {
		written = append(written, string(msg))
		if !dropped {
			dropped = true
			c.enqueue([]byte("dropped")) // still overflown: dropped
			c.qmu.Lock()
			ov := c.overflown
			c.qmu.Unlock()
			if !ov {
				t.Error("not overflown during the first write")
			}
		}
		if len(written) == notificationBufSize+1 {
			c.enqueue([]byte("after")) // room again: queued after event_missed
		}
		return true
	}
	if !c.writeQueued() {
		t.Fatal("write failed")
	}
	if len(written) != notificationBufSize+2 {
		t.Fatalf("%d messages written", len(written))
	}
	for i := range notificationBufSize {
		if written[i] != fmt.Sprint(i) {
			t.Fatalf("message %d is %s", i, written[i])
		}
	}
	if written[notificationBufSize] != string(missedMessage) || written[notificationBufSize+1] != "after" {
		t.Fatalf("tail %v", written[notificationBufSize:])
	}
	if string(missedMessage) != `{"jsonrpc":"2.0","method":"event_missed","params":[]}` {
		t.Fatal(string(missedMessage))
	}
}

// TestWSSlowClientMissesEvents overflows a real connection whose client
// does not read, and checks that Publish never blocks and the client gets
// event_missed.
func TestWSSlowClientMissesEvents(t *testing.T) {
	s := testServer(t, Config{})
	addr := startServer(t, s)
	w := dialWS(t, addr)
	if got := w.call("subscribe", `["block_added"]`); !strings.HasSuffix(got, `"result":"0"}`) {
		t.Fatal(got)
	}
	payload := json.RawMessage(`"` + strings.Repeat("x", 16<<10) + `"`)
	start := time.Now()
	const n = 3000
	for i := range n {
		s.Publish(&Event{ID: neorpc.BlockEventID, Payload: payload, Fields: neorpc.EventFields{Index: uint32(i)}})
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Publish took %v", d)
	}
	events, missed := 0, 0
	for events+missed < n {
		msg := w.read()
		if strings.Contains(msg, "event_missed") {
			missed++
			break
		}
		events++
	}
	if missed == 0 || events >= n {
		t.Fatalf("%d events, %d missed", events, missed)
	}
	// The subscription stays: new events arrive after event_missed.
	s.Publish(blockEvent(1, 0))
	for {
		msg := w.read()
		if strings.Contains(msg, `"index":1,`) {
			break
		}
	}
}

func TestShutdownClosesWebSockets(t *testing.T) {
	s := testServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Serve(ln)
	w := dialWS(t, ln.Addr().String())
	w.call("subscribe", `["block_added"]`)
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := w.c.Read(ctx); err == nil {
		t.Fatal("still open")
	}
	if s.HasSubscribers(neorpc.BlockEventID) {
		t.Fatal("subscription left")
	}
	s.Publish(blockEvent(1, 0)) // no-op after shutdown
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestWSHandshakeErrors(t *testing.T) {
	s := testServer(t, Config{})
	cases := []struct {
		hdr    map[string]string
		status int
	}{
		{nil, http.StatusBadRequest},
		{map[string]string{"Connection": "keep-alive, Upgrade"}, http.StatusBadRequest},
		{map[string]string{"Connection": "Upgrade", "Upgrade": "websocket"}, http.StatusBadRequest},
		{map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-Websocket-Version": "13",
			"Origin": "http://evil.example"}, http.StatusForbidden},
		{map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-Websocket-Version": "13",
			"Sec-Websocket-Key": "short"}, http.StatusBadRequest},
	}
	for i, c := range cases {
		req := httptest.NewRequest(http.MethodGet, "/ws", nil)
		for k, v := range c.hdr {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != c.status || rec.Body.String() != http.StatusText(c.status)+"\n" || rec.Header().Get("Sec-Websocket-Version") != "13" {
			t.Errorf("case %d: %d %q %v", i, rec.Code, rec.Body, rec.Header())
		}
	}
}

// TestSubscriptionChangeHook: the hook runs before a subscribe is answered
// and after unsubscribes and closed connections, and HasAnySubscribers
// follows the subscriptions of all streams.
func TestSubscriptionChangeHook(t *testing.T) {
	s := testServer(t, Config{})
	var calls atomic.Int32
	var activeAtCall atomic.Bool
	s.OnSubscriptionChange(func() {
		calls.Add(1)
		activeAtCall.Store(s.HasAnySubscribers())
	})
	addr := startServer(t, s)
	w := dialWS(t, addr)
	if s.HasAnySubscribers() {
		t.Fatal("subscribers before any subscribe")
	}
	if got := w.call("subscribe", `["block_added"]`); !strings.HasSuffix(got, `"result":"0"}`) {
		t.Fatal(got)
	}
	if calls.Load() != 1 || !activeAtCall.Load() || !s.HasAnySubscribers() {
		t.Fatalf("after subscribe: %d calls, active %v", calls.Load(), activeAtCall.Load())
	}
	if got := w.call("subscribe", `["transaction_added"]`); !strings.HasSuffix(got, `"result":"1"}`) {
		t.Fatal(got)
	}
	if got := w.call("subscribe", `["foo"]`); !strings.Contains(got, `"error"`) {
		t.Fatal(got)
	}
	if got := w.call("unsubscribe", `[0]`); !strings.HasSuffix(got, `"result":true}`) {
		t.Fatal(got)
	}
	if calls.Load() != 3 || !s.HasAnySubscribers() {
		t.Fatalf("after a failed subscribe and an unsubscribe: %d calls", calls.Load())
	}
	w.c.CloseNow()
	waitFor(t, func() bool { return calls.Load() == 4 })
	if s.HasAnySubscribers() || activeAtCall.Load() {
		t.Fatal("subscribers left after the connection closed")
	}
}

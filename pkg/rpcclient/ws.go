package rpcclient

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
)

// wsReadLimit bounds one incoming message (a notification can carry a
// whole block).
const wsReadLimit = 64 << 20

// ErrWSClosed is returned for calls on a closed or broken connection.
var ErrWSClosed = errors.New("rpcclient: websocket connection closed")

// Notification is one event received from the server. Payload is the
// event's JSON (block, transaction, ...); it is nil for event_missed.
type Notification struct {
	Event   neorpc.EventID
	Payload json.RawMessage
}

// WSOptions tune a WSClient.
type WSOptions struct {
	// DialTimeout bounds the handshake (default 4s).
	DialTimeout time.Duration
	// RequestTimeout bounds a call when ctx has no deadline (default 4s;
	// negative means none).
	RequestTimeout time.Duration
	// HTTPHeader is sent with the handshake (e.g. Origin).
	HTTPHeader http.Header
}

// WSClient is a JSON-RPC client over one WebSocket connection. It is safe
// for concurrent use.
type WSClient struct {
	ws      *websocket.Conn
	timeout time.Duration
	nextID  atomic.Uint64
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}

	mu      sync.Mutex
	pending map[uint64]chan *neorpc.Response
	subs    map[string]*subscription
	closed  bool
	err     error

	subOrder sync.Mutex // serializes subscribe/unsubscribe, as ids are slots
}

type subscription struct {
	event  neorpc.EventID
	filter neorpc.SubscriptionFilter
	ch     chan<- Notification
	open   bool // the channel is still open
}

// DialWS connects to a ws:// or wss:// endpoint (usually ending in /ws).
func DialWS(ctx context.Context, endpoint string, opts WSOptions) (*WSClient, error) {
	dial := opts.DialTimeout
	if dial <= 0 {
		dial = DefaultDialTimeout
	}
	dctx, cancel := context.WithTimeout(ctx, dial)
	defer cancel()
	ws, resp, err := websocket.Dial(dctx, endpoint, &websocket.DialOptions{HTTPHeader: opts.HTTPHeader})
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(wsReadLimit)
	c := &WSClient{
		ws:      ws,
		timeout: opts.RequestTimeout,
		done:    make(chan struct{}),
		pending: make(map[uint64]chan *neorpc.Response),
		subs:    make(map[string]*subscription),
	}
	if c.timeout == 0 {
		c.timeout = DefaultRequestTimeout
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	go c.readLoop()
	return c, nil
}

// Close closes the connection and waits for the reader to stop.
func (c *WSClient) Close() error {
	err := c.ws.Close(websocket.StatusNormalClosure, "")
	c.cancel()
	<-c.done
	var ce websocket.CloseError
	if err != nil && !errors.As(err, &ce) {
		return err
	}
	return nil
}

// Done is closed when the connection ends.
func (c *WSClient) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended (nil while it is open or after
// Close).
func (c *WSClient) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *WSClient) readLoop() {
	var err error
	defer func() {
		c.mu.Lock()
		c.closed = true
		if c.ctx.Err() == nil {
			c.err = err
		}
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.closeChannelsLocked()
		c.mu.Unlock()
		c.cancel()
		c.ws.CloseNow()
		close(c.done)
	}()
	for {
		var msg []byte
		_, msg, err = c.ws.Read(c.ctx)
		if err != nil {
			return
		}
		if err = c.dispatch(msg); err != nil {
			return
		}
	}
}

// dispatch routes one message: a response to its caller, an event to the
// subscribers.
func (c *WSClient) dispatch(msg []byte) error {
	var (
		method, id, params []byte
		isBatch            bool
	)
	if !neorpc.ForEachField(msg, func(k, v []byte) bool {
		switch string(k) {
		case "method":
			method = v
		case "id":
			id = v
		case "params":
			params = v
		}
		return true
	}) {
		var probe struct {
			Method json.RawMessage `json:"method"`
			ID     json.RawMessage `json:"id"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(msg, &probe); err != nil {
			var arr []json.RawMessage
			if json.Unmarshal(msg, &arr) != nil {
				return fmt.Errorf("malformed message: %w", err)
			}
			isBatch = true
		}
		method, id, params = probe.Method, probe.ID, probe.Params
	}
	if isBatch {
		return errors.New("unexpected batch response")
	}
	if method != nil && (id == nil || string(id) == "null") {
		var name string
		if err := json.Unmarshal(method, &name); err != nil {
			return fmt.Errorf("bad event name: %w", err)
		}
		ev, err := neorpc.GetEventIDFromString(name)
		if err != nil {
			return fmt.Errorf("unknown event %q", name)
		}
		return c.notify(ev, params)
	}
	var resp neorpc.Response
	if err := neorpc.DecodeResponse(msg, &resp); err != nil {
		return fmt.Errorf("malformed response: %w", err)
	}
	n, err := strconv.ParseUint(string(resp.ID), 10, 64)
	if err != nil {
		return fmt.Errorf("bad response id %s", resp.ID)
	}
	c.mu.Lock()
	ch, ok := c.pending[n]
	delete(c.pending, n)
	c.mu.Unlock()
	if ok {
		ch <- &resp // buffered; resp aliases msg, which is not reused
	}
	return nil
}

// notify delivers an event to each matching subscription's channel once.
func (c *WSClient) notify(ev neorpc.EventID, params []byte) error {
	if ev == neorpc.MissedEventID {
		c.mu.Lock()
		c.closeChannelsLocked()
		c.mu.Unlock()
		return nil
	}
	var payloads []json.RawMessage
	if err := json.Unmarshal(params, &payloads); err != nil || len(payloads) != 1 {
		return fmt.Errorf("bad %s event parameters", ev)
	}
	n := Notification{Event: ev, Payload: payloads[0]}
	var (
		fields  *neorpc.EventFields
		targets []chan<- Notification
	)
	c.mu.Lock()
	for _, id := range slices.Sorted(maps.Keys(c.subs)) {
		s := c.subs[id]
		if !s.open || s.event != ev || slices.Contains(targets, s.ch) {
			continue
		}
		if s.filter != nil {
			if fields == nil {
				f, err := FieldsFromJSON(ev, n.Payload)
				if err != nil {
					c.mu.Unlock()
					return fmt.Errorf("bad %s event: %w", ev, err)
				}
				fields = &f
			}
			if !neorpc.Matches(ev, s.filter, fields) {
				continue
			}
		}
		targets = append(targets, s.ch)
	}
	c.mu.Unlock()
	for _, ch := range targets {
		select {
		case ch <- n:
		case <-c.ctx.Done():
			return nil
		}
	}
	return nil
}

// closeChannelsLocked closes every subscriber channel once.
func (c *WSClient) closeChannelsLocked() {
	var closed []chan<- Notification
	for _, s := range c.subs {
		if s.open {
			s.open = false
			if !slices.Contains(closed, s.ch) {
				close(s.ch)
				closed = append(closed, s.ch)
			}
		}
	}
}

// Call invokes method over the connection; see Client.Call.
func (c *WSClient) Call(ctx context.Context, method string, params []any, result any) error {
	resp, id, err := c.roundTrip(ctx, method, params)
	if err != nil {
		return err
	}
	return finishCall(resp, id, result)
}

func (c *WSClient) roundTrip(ctx context.Context, method string, params []any) (*neorpc.Response, uint64, error) {
	if _, ok := ctx.Deadline(); !ok && c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	id := c.nextID.Add(1)
	req, err := appendCall(nil, method, params, id)
	if err != nil {
		return nil, 0, err
	}
	ch := make(chan *neorpc.Response, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, 0, ErrWSClosed
	}
	c.pending[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}
	if err := c.ws.Write(ctx, websocket.MessageText, req); err != nil {
		forget()
		return nil, 0, err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return nil, 0, ErrWSClosed
		}
		return resp, id, nil
	case <-ctx.Done():
		forget()
		return nil, 0, ctx.Err()
	}
}

// Subscribe subscribes to a stream with an optional filter (nil, or one of
// the neorpc filter values matching the stream) and returns the
// subscription id. Events go to ch, which the caller must keep reading; it
// is closed on event_missed or disconnection. Several subscriptions may
// share a channel.
func (c *WSClient) Subscribe(ctx context.Context, event neorpc.EventID, filter neorpc.SubscriptionFilter, ch chan<- Notification) (string, error) {
	params := []any{event.String()}
	if filter != nil {
		params = append(params, filter)
	}
	c.subOrder.Lock()
	defer c.subOrder.Unlock()
	var id string
	if err := c.Call(ctx, "subscribe", params, &id); err != nil {
		return "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "", ErrWSClosed
	}
	open := true
	for _, s := range c.subs {
		if s.ch == ch && !s.open {
			open = false // the channel was already closed
		}
	}
	c.subs[id] = &subscription{event: event, filter: filter, ch: ch, open: open}
	return id, nil
}

// Unsubscribe ends a subscription. Its channel is not closed (it may be
// shared); stop reading it once this returns.
func (c *WSClient) Unsubscribe(ctx context.Context, id string) error {
	c.subOrder.Lock()
	defer c.subOrder.Unlock()
	n, err := strconv.Atoi(id)
	if err != nil {
		return fmt.Errorf("bad subscription id %q", id)
	}
	var ok bool
	if err := c.Call(ctx, "unsubscribe", []any{n}, &ok); err != nil {
		return err
	}
	c.mu.Lock()
	delete(c.subs, id)
	c.mu.Unlock()
	return nil
}

// FieldsFromJSON extracts the fields filters look at from an event payload
// in neo-go's JSON forms (block, header, transaction, notification,
// application execution, mempool and notary events).
func FieldsFromJSON(ev neorpc.EventID, payload []byte) (neorpc.EventFields, error) {
	var f neorpc.EventFields
	type signer struct {
		Account hash.Uint160 `json:"account"`
	}
	type tx struct {
		Signers []signer `json:"signers"`
	}
	txFields := func(t *tx) {
		for i, s := range t.Signers {
			if i == 0 {
				f.Sender = s.Account
			}
			f.Signers = append(f.Signers, s.Account)
		}
	}
	switch ev {
	case neorpc.BlockEventID, neorpc.HeaderOfAddedBlockEventID:
		var b struct {
			Index   uint32 `json:"index"`
			Primary byte   `json:"primary"`
		}
		if err := json.Unmarshal(payload, &b); err != nil {
			return f, err
		}
		f.Index, f.Primary = b.Index, b.Primary
	case neorpc.TransactionEventID:
		var t tx
		if err := json.Unmarshal(payload, &t); err != nil {
			return f, err
		}
		txFields(&t)
	case neorpc.MempoolEventID:
		var m struct {
			Type neorpc.MempoolEventType `json:"type"`
			Tx   tx                      `json:"transaction"`
		}
		if err := json.Unmarshal(payload, &m); err != nil {
			return f, err
		}
		f.Type = m.Type
		txFields(&m.Tx)
	case neorpc.NotaryRequestEventID:
		var m struct {
			Type neorpc.MempoolEventType `json:"type"`
			Req  struct {
				Main     tx `json:"maintx"`
				Fallback tx `json:"fallbacktx"`
			} `json:"notaryrequest"`
		}
		if err := json.Unmarshal(payload, &m); err != nil {
			return f, err
		}
		f.Type = m.Type
		for _, s := range m.Req.Main.Signers {
			f.Signers = append(f.Signers, s.Account)
		}
		if len(m.Req.Fallback.Signers) > 1 {
			f.Sender = m.Req.Fallback.Signers[1].Account
		}
	case neorpc.ExecutionEventID:
		var e struct {
			Container hash.Uint256 `json:"container"`
			VMState   string       `json:"vmstate"`
		}
		if err := json.Unmarshal(payload, &e); err != nil {
			return f, err
		}
		f.Container, f.VMState = e.Container, e.VMState
	case neorpc.NotificationEventID:
		var n struct {
			Contract hash.Uint160 `json:"contract"`
			Name     string       `json:"eventname"`
			State    struct {
				Value []struct {
					Type  string          `json:"type"`
					Value json.RawMessage `json:"value"`
				} `json:"value"`
			} `json:"state"`
		}
		if err := json.Unmarshal(payload, &n); err != nil {
			return f, err
		}
		f.Contract, f.Name = n.Contract, n.Name
		for _, it := range n.State.Value {
			f.Items = append(f.Items, stackValue(it.Type, it.Value))
		}
	default:
		return f, fmt.Errorf("no filter fields for %s", ev)
	}
	return f, nil
}

// stackValue converts a typed stack item JSON value.
func stackValue(typ string, val json.RawMessage) neorpc.StackValue {
	switch typ {
	case "Boolean":
		var b bool
		if json.Unmarshal(val, &b) == nil {
			return neorpc.StackValue{Kind: neorpc.StackBool, Bool: b}
		}
	case "Integer":
		var s string
		if json.Unmarshal(val, &s) == nil {
			if i, ok := new(big.Int).SetString(s, 10); ok {
				return neorpc.StackValue{Kind: neorpc.StackInteger, Int: i}
			}
		}
	case "ByteString":
		var s string
		if json.Unmarshal(val, &s) == nil {
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				return neorpc.StackValue{Kind: neorpc.StackByteString, Bytes: b}
			}
		}
	}
	return neorpc.StackValue{Kind: neorpc.StackOther}
}

package rpcserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/n3node/n3node/pkg/neorpc"
)

// WebSocket timing, as in neo-go: the server pings every wsPingPeriod and
// drops a client that does not answer within wsPongLimit; a write may take
// wsWriteLimit.
const (
	wsPongLimit  = 60 * time.Second
	wsPingPeriod = wsPongLimit / 2
	wsWriteLimit = wsPingPeriod / 2
)

// notificationBufSize is the per-connection event queue depth (neo-go's).
// A connection whose queue is full misses events until a slot frees; it
// then gets one event_missed message and events resume.
const notificationBufSize = 1024

// missedMessage is the event_missed notification.
var missedMessage = neorpc.AppendNotification(nil, neorpc.MissedEventID, nil)

// wsConn is one WebSocket client.
type wsConn struct {
	srv    *Server
	ws     *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc

	// feeds are subscription slots, guarded by srv.subsMu. A slot is free
	// when its event is InvalidEventID.
	feeds []feed

	// write sends one message; it is wsWrite except in tests.
	write func(msg []byte) bool

	responses chan []byte   // from the reader, unbuffered as in neo-go
	signal    chan struct{} // wakes the writer for queued events

	qmu       sync.Mutex
	queue     [][]byte
	spare     [][]byte
	inflight  int  // events taken by the writer, not yet written
	overflown bool // dropping events until event_missed is queued
}

type feed struct {
	event  neorpc.EventID
	filter neorpc.SubscriptionFilter
}

// WSClients returns the number of open WebSocket connections.
func (s *Server) WSClients() int {
	s.subsMu.RLock()
	defer s.subsMu.RUnlock()
	return len(s.conns)
}

// serveWS upgrades a GET /ws request and serves the connection until it
// ends. It runs in the HTTP handler goroutine, like neo-go's reader.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	s.subsMu.RLock()
	n := len(s.conns)
	s.subsMu.RUnlock()
	if n >= s.cfg.MaxWebSocketClients || s.stopping.Load() {
		st := reqPool.Get().(*reqState)
		s.writeHTTPError(w, st, neorpc.NewInternalServerError("websocket users limit reached"))
		putReqState(st)
		return
	}
	if status, reason := checkHandshake(r, s.cfg.EnableCORSWorkaround); status != 0 {
		// gorilla/websocket's answer, which neo-go uses.
		s.log.Info("websocket connection upgrade failed", "err", reason)
		w.Header().Set("Sec-Websocket-Version", "13")
		http.Error(w, http.StatusText(status), status)
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.log.Info("websocket connection upgrade failed", "err", err)
		return
	}
	ws.SetReadLimit(s.wsReadLimit)
	ctx, cancel := context.WithCancel(context.Background())
	c := &wsConn{
		srv:       s,
		ws:        ws,
		ctx:       ctx,
		cancel:    cancel,
		feeds:     make([]feed, s.cfg.MaxWebSocketFeeds),
		responses: make(chan []byte),
		signal:    make(chan struct{}, 1),
	}
	c.write = c.wsWrite
	s.subsMu.Lock()
	if s.stopping.Load() {
		s.subsMu.Unlock()
		cancel()
		ws.CloseNow()
		return
	}
	s.conns[c] = struct{}{}
	n = len(s.conns)
	s.wg.Add(1)
	s.subsMu.Unlock()
	s.log.Info("websocket client connected", "remoteAddr", r.RemoteAddr, "numOfSubs", n)

	var writers sync.WaitGroup
	writers.Go(c.writeLoop)
	writers.Go(c.pingLoop)
	c.readLoop()
	c.close()
	writers.Wait()
	n = s.dropConn(c)
	s.log.Info("websocket client disconnected", "remoteAddr", r.RemoteAddr, "numOfSubs", n)
	s.wg.Done()
}

// checkHandshake applies gorilla/websocket's handshake checks in its order
// and returns its status code and reason for a bad request (0 if fine).
func checkHandshake(r *http.Request, anyOrigin bool) (int, string) {
	const bad = "websocket: the client is not using the websocket protocol: "
	switch {
	case !headerHasToken(r.Header, "Connection", "upgrade"):
		return http.StatusBadRequest, bad + "'upgrade' token not found in 'Connection' header"
	case !headerHasToken(r.Header, "Upgrade", "websocket"):
		return http.StatusBadRequest, bad + "'websocket' token not found in 'Upgrade' header"
	case !headerHasToken(r.Header, "Sec-Websocket-Version", "13"):
		return http.StatusBadRequest, "websocket: unsupported version: 13 not found in 'Sec-Websocket-Version' header"
	case !anyOrigin && !sameOrigin(r):
		return http.StatusForbidden, "websocket: request origin not allowed by Upgrader.CheckOrigin"
	}
	key, err := base64.StdEncoding.DecodeString(r.Header.Get("Sec-Websocket-Key"))
	if err != nil || len(key) != 16 {
		return http.StatusBadRequest, "websocket: not a websocket handshake: 'Sec-WebSocket-Key' header must be Base64 encoded value of 16-byte in length"
	}
	return 0, ""
}

// headerHasToken reports whether a comma-separated header lists token
// (case-insensitively).
func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h[name] {
		for t := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.Trim(t, " \t"), token) {
				return true
			}
		}
	}
	return false
}

// sameOrigin allows a missing Origin or one whose host is the request's.
func sameOrigin(r *http.Request) bool {
	origin := r.Header["Origin"]
	if len(origin) == 0 {
		return true
	}
	u, err := url.Parse(origin[0])
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

// close ends the connection; the loops notice and exit.
func (c *wsConn) close() {
	c.cancel()
	c.ws.CloseNow()
}

// dropConn removes c and its subscriptions.
func (s *Server) dropConn(c *wsConn) int {
	s.subsMu.Lock()
	changed := false
	defer s.unlockFeeds(&changed)
	delete(s.conns, c)
	for i := range c.feeds {
		if c.feeds[i].event != neorpc.InvalidEventID {
			s.dropFeed(c, i)
			changed = true
		}
	}
	return len(s.conns)
}

// OnSubscriptionChange makes the server call fn after every subscribe,
// unsubscribe or closed connection that changed the set of WebSocket
// subscriptions, outside the server's locks (a subscribe is answered
// after fn returns). A node uses it to take the chain's events only while
// somebody listens (HasAnySubscribers), as neo-go does.
func (s *Server) OnSubscriptionChange(fn func()) { s.subHook.Store(&fn) }

func (s *Server) subscriptionsChanged() {
	if fn := s.subHook.Load(); fn != nil {
		(*fn)()
	}
}

// HasAnySubscribers reports whether any client subscribes to any stream.
func (s *Server) HasAnySubscribers() bool { return s.subTotal.Load() > 0 }

// readLoop reads and answers requests. A message that does not decode ends
// the connection without an answer, as in neo-go.
func (c *wsConn) readLoop() {
	var (
		in  neorpc.Incoming
		msg bytes.Buffer
		res []byte
	)
	for {
		_, rd, err := c.ws.Reader(c.ctx)
		if err != nil {
			return
		}
		msg.Reset()
		if _, err := msg.ReadFrom(rd); err != nil {
			return
		}
		if err := in.DecodeMessage(msg.Bytes()); err != nil {
			c.srv.log.Debug("websocket request decoding failed", "err", err)
			return
		}
		out := c.srv.handleIncoming(c.ctx, &in, c, nil, &res)
		out = append(out, '\n')
		select {
		case c.responses <- out:
		case <-c.ctx.Done():
			return
		case <-c.srv.shutdown:
			return
		}
	}
}

// writeLoop writes responses and queued events until the connection ends.
func (c *wsConn) writeLoop() {
	defer c.close()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-c.srv.shutdown:
			return
		case out := <-c.responses:
			if !c.write(out) {
				return
			}
		case <-c.signal:
			if !c.writeQueued() {
				return
			}
		}
	}
}

func (c *wsConn) wsWrite(msg []byte) bool {
	ctx, cancel := context.WithTimeout(c.ctx, wsWriteLimit)
	defer cancel()
	return c.ws.Write(ctx, websocket.MessageText, msg) == nil
}

// writeQueued writes every queued event. Each write frees a slot; the first
// freed slot after an overflow takes the event_missed message.
func (c *wsConn) writeQueued() bool {
	for {
		c.qmu.Lock()
		batch := c.queue
		c.queue, c.spare = c.spare[:0], nil
		c.inflight = len(batch)
		c.qmu.Unlock()
		if len(batch) == 0 {
			return true
		}
		for i, msg := range batch {
			ok := c.write(msg)
			batch[i] = nil
			c.qmu.Lock()
			c.inflight--
			if c.overflown {
				c.queue = append(c.queue, missedMessage)
				c.overflown = false
			}
			c.qmu.Unlock()
			if !ok {
				return false
			}
		}
		c.qmu.Lock()
		c.spare = batch[:0]
		c.qmu.Unlock()
	}
}

// enqueue queues an event without blocking.
func (c *wsConn) enqueue(msg []byte) {
	c.qmu.Lock()
	if c.overflown {
		c.qmu.Unlock()
		return
	}
	if len(c.queue)+c.inflight >= notificationBufSize {
		c.overflown = true
		c.qmu.Unlock()
		return
	}
	c.queue = append(c.queue, msg)
	c.qmu.Unlock()
	select {
	case c.signal <- struct{}{}:
	default:
	}
}

// pingLoop pings the client and ends the connection if a pong does not
// come back in time.
func (c *wsConn) pingLoop() {
	t := time.NewTicker(wsPingPeriod)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(c.ctx, wsPongLimit-wsPingPeriod)
			err := c.ws.Ping(ctx)
			cancel()
			if err != nil {
				c.close()
				return
			}
		}
	}
}

// subscribe implements the WebSocket "subscribe" method.
func (s *Server) subscribe(_ context.Context, p neorpc.Params, c *wsConn) (any, *neorpc.Error) {
	name, err := p.Value(0).GetString()
	if err != nil {
		return nil, neorpc.ErrInvalidParams
	}
	event, err := neorpc.GetEventIDFromString(name)
	if err != nil || event == neorpc.MissedEventID {
		return nil, neorpc.ErrInvalidParams
	}
	if event == neorpc.NotaryRequestEventID && !s.cfg.P2PSigExtensions {
		return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, "P2PSigExtensions are disabled")
	}
	var filter neorpc.SubscriptionFilter
	if fp := p.Value(1); fp != nil {
		if event == neorpc.MempoolEventID && !s.cfg.MempoolSubscriptionsEnabled {
			return nil, neorpc.NewInternalServerError("mempool subscriptions are disabled")
		}
		filter, err = neorpc.DecodeFilter(event, fp.RawMessage)
		if err != nil {
			return nil, neorpc.WrapErrorWithData(neorpc.ErrInvalidParams, err.Error())
		}
	}
	s.subsMu.Lock()
	changed := false
	defer s.unlockFeeds(&changed)
	id := 0
	for ; id < len(c.feeds); id++ {
		if c.feeds[id].event == neorpc.InvalidEventID {
			break
		}
	}
	if id == len(c.feeds) {
		return nil, neorpc.NewInternalServerError("maximum number of subscriptions is reached")
	}
	if s.stopping.Load() {
		return nil, neorpc.NewInternalServerError("server is shutting down")
	}
	c.feeds[id] = feed{event: event, filter: filter}
	s.subCounts[event].Add(1)
	s.subTotal.Add(1)
	changed = true
	return strconv.Itoa(id), nil
}

// unsubscribe implements the WebSocket "unsubscribe" method.
func (s *Server) unsubscribe(_ context.Context, p neorpc.Params, c *wsConn) (any, *neorpc.Error) {
	id, err := p.Value(0).GetInt()
	if err != nil || id < 0 {
		return nil, neorpc.ErrInvalidParams
	}
	s.subsMu.Lock()
	changed := false
	defer s.unlockFeeds(&changed)
	if id >= len(c.feeds) || c.feeds[id].event == neorpc.InvalidEventID {
		return nil, neorpc.ErrInvalidParams
	}
	s.dropFeed(c, int(id))
	changed = true
	return true, nil
}

// unlockFeeds releases subsMu and then, if *changed, calls the
// subscription hook (outside the lock, see OnSubscriptionChange). The
// subscription edits take subsMu and defer it.
func (s *Server) unlockFeeds(changed *bool) {
	s.subsMu.Unlock()
	if *changed {
		s.subscriptionsChanged()
	}
}

// dropFeed ends the subscription c.feeds[i] (subsMu held).
func (s *Server) dropFeed(c *wsConn, i int) {
	s.subCounts[c.feeds[i].event].Add(-1)
	s.subTotal.Add(-1)
	c.feeds[i] = feed{}
}

// Event is one chain event for WebSocket subscribers.
type Event struct {
	// ID is the stream (not MissedEventID).
	ID neorpc.EventID
	// Payload is the event body (the notification's only parameter): a
	// json.RawMessage is used verbatim (it must be valid compact JSON), any
	// other value is marshalled with encoding/json. It is encoded at most
	// once per Publish, and only if some subscriber matches.
	Payload any
	// Fields are what filters match against (see neorpc.EventFields).
	Fields neorpc.EventFields
}

// HasSubscribers reports whether any client subscribes to stream id; the
// node can skip building events nobody listens to.
func (s *Server) HasSubscribers(id neorpc.EventID) bool {
	return s.subCounts[id].Load() > 0
}

// Publish sends ev to every WebSocket client with a matching subscription
// (once per client, whatever the number of matching subscriptions). It never
// blocks on the network: each client has a bounded queue, and a client that
// falls behind misses events and is told so with event_missed, as in
// neo-go. Calls from a single goroutine keep their order for every client.
func (s *Server) Publish(ev *Event) {
	if s.subCounts[ev.ID].Load() == 0 {
		return
	}
	var msg []byte
	s.subsMu.RLock()
	defer s.subsMu.RUnlock()
	for c := range s.conns {
		for i := range c.feeds {
			f := &c.feeds[i]
			if f.event != ev.ID || !neorpc.Matches(ev.ID, f.filter, &ev.Fields) {
				continue
			}
			if msg == nil {
				payload, err := neorpc.AppendValue(nil, ev.Payload)
				if err != nil {
					s.log.Error("failed to marshal notification", "type", ev.ID.String(), "err", err)
					return
				}
				msg = neorpc.AppendNotification(make([]byte, 0, len(payload)+64), ev.ID, payload)
			}
			c.enqueue(msg)
			break
		}
	}
}

// registerBuiltins adds the methods that need no ledger.
func (s *Server) registerBuiltins() {
	s.methods["validateaddress"] = s.validateAddress
	s.methods["traverseiterator"] = s.traverseIterator
	s.methods["terminatesession"] = s.terminateSession
	s.wsMethod["subscribe"] = s.subscribe
	s.wsMethod["unsubscribe"] = s.unsubscribe
}

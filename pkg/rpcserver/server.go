package rpcserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/neorpc"
)

// Handler implements one RPC method. It returns a result (marshalled with
// encoding/json; a json.RawMessage is written verbatim and must be compact
// valid JSON as json.Marshal produces; a nil result omits the "result"
// field as neo-go does) or an error. params alias the request buffer and are
// valid only during the call. ctx is cancelled when the client goes away or
// the server shuts down.
type Handler func(ctx context.Context, params neorpc.Params) (any, *neorpc.Error)

// wsHandler implements a WebSocket-only method.
type wsHandler func(ctx context.Context, params neorpc.Params, c *wsConn) (any, *neorpc.Error)

// ErrServerStarted is returned by Register after Start.
var ErrServerStarted = errors.New("rpcserver: server already started")

// Server is the JSON-RPC 2.0 server: HTTP POST at any path, WebSocket at
// /ws. Methods are added with Register before Start; events are sent to
// WebSocket subscribers with Publish.
type Server struct {
	cfg      Config
	log      *slog.Logger
	methods  map[string]Handler
	wsMethod map[string]wsHandler
	sessions *SessionStore // nil unless SessionEnabled

	wsReadLimit int64

	started  atomic.Bool
	stopping atomic.Bool
	shutdown chan struct{}
	wg       sync.WaitGroup // background goroutines and WebSocket connections

	httpMu  sync.Mutex
	servers []*http.Server
	addrs   []string

	subsMu    sync.RWMutex
	conns     map[*wsConn]struct{}
	subCounts [256]atomic.Int32      // live subscriptions per stream
	subTotal  atomic.Int32           // live subscriptions of all streams
	subHook   atomic.Pointer[func()] // OnSubscriptionChange's
}

// New makes a server with cfg (zero fields get neo-go's defaults) and the
// built-in methods: validateaddress, traverseiterator, terminatesession and,
// over WebSocket, subscribe and unsubscribe.
func New(cfg Config) *Server {
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:         cfg,
		log:         cfg.Logger,
		methods:     make(map[string]Handler),
		wsMethod:    make(map[string]wsHandler),
		wsReadLimit: int64(cfg.MaxBlockSize)*4/3 + 1024,
		shutdown:    make(chan struct{}),
		conns:       make(map[*wsConn]struct{}),
	}
	if cfg.SessionEnabled {
		s.sessions = NewSessionStore(cfg.SessionLifetime, cfg.SessionPoolSize, cfg.Clock, cfg.Rand)
	}
	s.registerBuiltins()
	return s
}

// Config returns the effective settings (defaults applied).
func (s *Server) Config() Config { return s.cfg }

// Sessions returns the iterator session store, or nil if sessions are
// disabled.
func (s *Server) Sessions() *SessionStore { return s.sessions }

// Register adds or replaces a method. It must be called before Start.
// Methods not registered answer -32601 "Method not found".
func (s *Server) Register(method string, h Handler) error {
	if s.started.Load() {
		return ErrServerStarted
	}
	s.methods[method] = h
	return nil
}

// Start listens on every configured address and serves in the background.
// A listen failure closes what was opened and is returned.
func (s *Server) Start() error {
	if !s.started.CompareAndSwap(false, true) {
		return ErrServerStarted
	}
	var lns []net.Listener
	var tls []bool
	listen := func(addr string, isTLS bool) error {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("rpcserver: listen on %s: %w", addr, err)
		}
		lns = append(lns, ln)
		tls = append(tls, isTLS)
		return nil
	}
	var err error
	for _, a := range s.cfg.Addresses {
		if err = listen(a, false); err != nil {
			break
		}
	}
	if err == nil && s.cfg.TLSConfig.Enabled {
		for _, a := range s.cfg.TLSConfig.Addresses {
			if err = listen(a, true); err != nil {
				break
			}
		}
	}
	if err != nil {
		for _, ln := range lns {
			ln.Close()
		}
		return err
	}
	for i, ln := range lns {
		s.serve(ln, tls[i])
	}
	if s.sessions != nil {
		s.wg.Go(s.sweepSessions)
	}
	return nil
}

// Serve serves on an existing listener (plain HTTP) in the background; it
// is Start for callers that open their own listener (tests, systemd).
func (s *Server) Serve(ln net.Listener) {
	if s.started.CompareAndSwap(false, true) && s.sessions != nil {
		s.wg.Go(s.sweepSessions)
	}
	s.serve(ln, false)
}

func (s *Server) serve(ln net.Listener, isTLS bool) {
	srv := &http.Server{
		Handler:        s,
		MaxHeaderBytes: s.cfg.MaxRequestHeaderBytes,
		ErrorLog:       slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	s.httpMu.Lock()
	s.servers = append(s.servers, srv)
	s.addrs = append(s.addrs, ln.Addr().String())
	s.httpMu.Unlock()
	s.log.Info("starting rpc-server", "endpoint", ln.Addr().String(), "tls", isTLS)
	s.wg.Go(func() {
		var err error
		if isTLS {
			err = srv.ServeTLS(ln, s.cfg.TLSConfig.CertFile, s.cfg.TLSConfig.KeyFile)
		} else {
			err = srv.Serve(ln)
		}
		if !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("rpc server stopped", "endpoint", ln.Addr().String(), "err", err)
		}
	})
}

// Addresses returns the actual listen addresses (with resolved ports).
func (s *Server) Addresses() []string {
	s.httpMu.Lock()
	defer s.httpMu.Unlock()
	return append([]string(nil), s.addrs...)
}

// sweepSessions expires idle sessions until shutdown.
func (s *Server) sweepSessions() {
	period := min(time.Second, s.cfg.SessionLifetime/4)
	if period <= 0 {
		period = time.Second
	}
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-s.shutdown:
			return
		case <-t.C:
			s.sessions.Sweep()
		}
	}
}

// Shutdown stops accepting requests, waits for HTTP requests in flight
// (until ctx ends), closes WebSocket connections, ends all sessions and
// waits for every server goroutine. It may be called once; later calls
// return nil at once.
func (s *Server) Shutdown(ctx context.Context) error {
	if !s.stopping.CompareAndSwap(false, true) {
		return nil
	}
	close(s.shutdown)
	s.httpMu.Lock()
	servers := s.servers
	s.httpMu.Unlock()
	var errs []error
	for _, srv := range servers {
		if err := srv.Shutdown(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	// Hijacked WebSocket connections are not tracked by http.Server.
	s.subsMu.RLock()
	for c := range s.conns {
		c.close()
	}
	s.subsMu.RUnlock()
	if s.sessions != nil {
		s.sessions.Close()
	}
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		errs = append(errs, ctx.Err())
	}
	return errors.Join(errs...)
}

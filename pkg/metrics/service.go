package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// readHeaderTimeout bounds how long a client may take to send request
// headers (the endpoints are for monitoring, not for slow clients).
const readHeaderTimeout = 10 * time.Second

// ErrStarted is returned by a second Start.
var ErrStarted = errors.New("metrics: service already started")

// Service is an HTTP endpoint (Prometheus or pprof) on a set of addresses.
type Service struct {
	name    string
	enabled bool
	addrs   []string
	handler http.Handler
	log     *slog.Logger

	mu      sync.Mutex
	started bool
	servers []*http.Server
	bound   []string
	done    sync.WaitGroup
}

// NewPrometheus returns the Prometheus service: GET /metrics (and any
// other path, as neo-go) answers with the metrics of g.
func NewPrometheus(cfg config.BasicService, g prometheus.Gatherer, log *slog.Logger) *Service {
	h := promhttp.HandlerFor(g, promhttp.HandlerOpts{})
	return newService("Prometheus", cfg, h, log)
}

// NewPprof returns the pprof service (net/http/pprof under /debug/pprof/).
// EnableBlock and EnableMutex turn on the block and mutex profiles (rate
// 1), process-wide, when the service starts.
func NewPprof(cfg config.Pprof, log *slog.Logger) *Service {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	s := newService("Pprof", cfg.BasicService, mux, log)
	if s.enabled {
		block, mutex := 0, 0
		if cfg.EnableBlock {
			block = 1
		}
		if cfg.EnableMutex {
			mutex = 1
		}
		runtime.SetBlockProfileRate(block)
		runtime.SetMutexProfileFraction(mutex)
	}
	return s
}

func newService(name string, cfg config.BasicService, h http.Handler, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{
		name:    name,
		enabled: cfg.Enabled && len(cfg.Addresses) > 0,
		addrs:   append([]string(nil), cfg.Addresses...),
		handler: h,
		log:     log.With("service", name),
	}
}

// Name is "Prometheus" or "Pprof".
func (s *Service) Name() string { return s.name }

// Enabled reports whether the configuration turns the service on.
func (s *Service) Enabled() bool { return s.enabled }

// Start listens on every configured address and serves; a disabled
// service does nothing. If any address cannot be bound, none is served.
func (s *Service) Start() error {
	if !s.enabled {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return ErrStarted
	}
	lns := make([]net.Listener, 0, len(s.addrs))
	for _, a := range s.addrs {
		ln, err := net.Listen("tcp", a)
		if err != nil {
			for _, l := range lns {
				_ = l.Close()
			}
			return fmt.Errorf("metrics: %s: listen on %s: %w", s.name, a, err)
		}
		lns = append(lns, ln)
	}
	s.started = true
	for _, ln := range lns {
		srv := &http.Server{Handler: s.handler, ReadHeaderTimeout: readHeaderTimeout}
		s.servers = append(s.servers, srv)
		s.bound = append(s.bound, ln.Addr().String())
		s.done.Add(1)
		go func() {
			defer s.done.Done()
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				s.log.Error("service stopped", "addr", ln.Addr().String(), "err", err)
			}
		}()
	}
	return nil
}

// Addresses returns the bound listen addresses (empty before Start or
// when disabled).
func (s *Service) Addresses() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bound...)
}

// Shutdown stops the listeners and waits for requests in flight until ctx
// ends. It is safe to call on a service that never started.
func (s *Service) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	servers := s.servers
	s.servers = nil
	s.mu.Unlock()
	var errs []error
	for _, srv := range servers {
		if err := srv.Shutdown(ctx); err != nil {
			errs = append(errs, err)
			_ = srv.Close()
		}
	}
	s.done.Wait()
	return errors.Join(errs...)
}

package bench

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3node/n3node/pkg/neorpc"
)

// LoadConfig describes how the workload is sent.
type LoadConfig struct {
	Endpoints []string      // workers are spread over them round robin
	Workers   int           // concurrent senders, each with its own connection
	Rate      float64       // total transactions per second; 0: as fast as accepted
	TimeLimit time.Duration // sending stops after this (0: when the workload is used up)
	Backoff   time.Duration // pause of a worker after a mempool-full answer
	Timeout   time.Duration // per request
}

// SendStats counts the outcome of sending.
type SendStats struct {
	Accepted    int64            `json:"accepted"`     // sendrawtransaction answered with a result
	MempoolFull int64            `json:"mempool_full"` // -502 answers; the transaction was queued again
	Errors      int64            `json:"errors"`       // every other failure, transport included
	ErrorKinds  map[string]int64 `json:"error_kinds,omitempty"`
	Unsent      int              `json:"unsent"` // transactions of the workload never accepted
	StartMS     int64            `json:"start_ms"`
	EndMS       int64            `json:"end_ms"`
	DurationMS  float64          `json:"duration_ms"`
	RPS         float64          `json:"rps"`     // Accepted per second of sending time
	Stopped     string           `json:"stopped"` // "time limit", "workload used up" or "cancelled"
}

// maxErrorKinds bounds the distinct error messages kept.
const maxErrorKinds = 32

// outcome classifies a sendrawtransaction answer.
type outcome uint8

const (
	outAccepted outcome = iota
	outMempoolFull
	outError
)

// classify decodes a response body. A -502 error, or an error whose text
// mentions OutOfMemory (the C# node's wording), is a full mempool, as
// neo-bench treats them.
func classify(body []byte) (outcome, string) {
	var r neorpc.Response
	if err := neorpc.DecodeResponse(body, &r); err != nil {
		return outError, "undecodable response: " + err.Error()
	}
	if r.Error != nil {
		if r.Error.Code == neorpc.ErrMempoolCapReachedCode ||
			strings.Contains(r.Error.Message, "OutOfMemory") || strings.Contains(r.Error.Data, "OutOfMemory") {
			return outMempoolFull, ""
		}
		return outError, r.Error.Error()
	}
	if len(r.Result) == 0 || string(r.Result) == "null" {
		return outError, "empty result"
	}
	return outAccepted, ""
}

// queue hands out workload indexes: first those put back after a
// mempool-full answer, then fresh ones.
type queue struct {
	next    atomic.Int64
	n       int64
	mu      sync.Mutex
	back    []int
	backLen atomic.Int32
}

func (q *queue) take() (int, bool) {
	if q.backLen.Load() > 0 {
		q.mu.Lock()
		if l := len(q.back); l > 0 {
			i := q.back[l-1]
			q.back = q.back[:l-1]
			q.backLen.Store(int32(len(q.back)))
			q.mu.Unlock()
			return i, true
		}
		q.mu.Unlock()
	}
	i := q.next.Add(1) - 1
	if i >= q.n {
		q.next.Store(q.n) // keep it from growing
		return 0, false
	}
	return int(i), true
}

func (q *queue) put(i int) {
	q.mu.Lock()
	q.back = append(q.back, i)
	q.backLen.Store(int32(len(q.back)))
	q.mu.Unlock()
}

// Sender sends a workload's bodies. Counters are safe to read while it runs.
type Sender struct {
	cfg    LoadConfig
	bodies *Bodies

	accepted, full, errs atomic.Int64
	mu                   sync.Mutex
	kinds                map[string]int64
}

// NewSender prepares sending bodies with cfg.
func NewSender(bodies *Bodies, cfg LoadConfig) *Sender {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	return &Sender{cfg: cfg, bodies: bodies, kinds: make(map[string]int64)}
}

// Accepted returns the number of accepted transactions so far.
func (s *Sender) Accepted() int64 { return s.accepted.Load() }

func (s *Sender) fail(msg string) {
	s.errs.Add(1)
	s.mu.Lock()
	if _, ok := s.kinds[msg]; ok || len(s.kinds) < maxErrorKinds {
		s.kinds[msg]++
	}
	s.mu.Unlock()
}

// Run sends until the workload is used up, the time limit passes or ctx is
// cancelled, and returns the counts. Requests in flight when the limit
// passes complete.
func (s *Sender) Run(ctx context.Context) (SendStats, error) {
	if len(s.cfg.Endpoints) == 0 {
		return SendStats{}, errors.New("bench: no endpoint to send to")
	}
	posters := make([]poster, s.cfg.Workers)
	for i := range posters {
		p, err := newPoster(s.cfg.Endpoints[i%len(s.cfg.Endpoints)], s.cfg.Timeout)
		if err != nil {
			return SendStats{}, err
		}
		posters[i] = p
	}
	q := &queue{n: int64(s.bodies.Len())}
	start := time.Now()
	var stop time.Time
	if s.cfg.TimeLimit > 0 {
		stop = start.Add(s.cfg.TimeLimit)
	}
	var interval time.Duration
	if s.cfg.Rate > 0 {
		interval = time.Duration(float64(time.Second) * float64(s.cfg.Workers) / s.cfg.Rate)
	}
	var limitHit atomic.Bool
	var wg sync.WaitGroup
	for w := range s.cfg.Workers {
		p := posters[w]
		wg.Go(func() {
			defer p.close()
			var sent int64
			for ctx.Err() == nil {
				if !stop.IsZero() && !time.Now().Before(stop) {
					limitHit.Store(true)
					return
				}
				i, ok := q.take()
				if !ok {
					return
				}
				resp, err := p.post(ctx, s.bodies.Body(i))
				if err != nil {
					s.fail("transport: " + err.Error())
					continue
				}
				switch out, msg := classify(resp); out {
				case outAccepted:
					s.accepted.Add(1)
					sent++
					if interval > 0 {
						if d := time.Until(start.Add(interval * time.Duration(sent+1))); d > 0 {
							sleep(ctx, d)
						}
					}
				case outMempoolFull:
					s.full.Add(1)
					q.put(i)
					sleep(ctx, s.cfg.Backoff)
				default:
					s.fail(msg)
				}
			}
		})
	}
	wg.Wait()
	end := time.Now()
	st := SendStats{
		Accepted:    s.accepted.Load(),
		MempoolFull: s.full.Load(),
		Errors:      s.errs.Load(),
		StartMS:     start.UnixMilli(),
		EndMS:       end.UnixMilli(),
		DurationMS:  float64(end.Sub(start).Microseconds()) / 1000,
	}
	st.Unsent = s.bodies.Len() - int(st.Accepted)
	st.RPS = RPS(st.Accepted, st.DurationMS)
	switch {
	case ctx.Err() != nil:
		st.Stopped = "cancelled"
	case limitHit.Load():
		st.Stopped = "time limit"
	default:
		st.Stopped = "workload used up"
	}
	s.mu.Lock()
	if len(s.kinds) > 0 {
		st.ErrorKinds = make(map[string]int64, len(s.kinds))
		for k, v := range s.kinds {
			st.ErrorKinds[k] = v
		}
	}
	s.mu.Unlock()
	return st, nil
}

func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/bench/procstat"
)

// ExternalConfig is a measurement of a node loaded by another benchmark
// client, neo-bench's `bench` (the reference client). Zero values take
// the defaults noted.
type ExternalConfig struct {
	Endpoint string   // JSON-RPC URL of the node ("host:port" means http://host:port)
	Command  []string // the client and its arguments; run as a child process
	// Report is the file the client writes its own figures to (neo-bench's
	// -o); read after it exits. "" skips it.
	Report string
	// Start matches the client's log line that names the reference block
	// (its first submatch), after which the load starts. Default:
	// neo-bench's "Started test from block = N".
	Start *regexp.Regexp

	OutDir      string
	Description string

	Pid          int           // node process to sample (0: none)
	Proc         procstat.FS   // default procstat.Proc
	SamplePeriod time.Duration // default 1 s
	PollPeriod   time.Duration // block polling, default 500 ms
	Log          io.Writer     // the client's output and progress messages (default: discarded)
}

// ClientReport holds the figures a client reports about its own run
// (neo-bench's report: "TXs ≈", "RPS ≈", "RPC Errors ≈", "TPS ≈").
type ClientReport struct {
	Name   string  `json:"name"`
	TPS    float64 `json:"tps"`
	RPS    float64 `json:"rps"`
	Txs    int64   `json:"txs"`
	Errors int64   `json:"errors"`
}

// neoBenchStart is neo-bench's log line naming its reference block.
var neoBenchStart = regexp.MustCompile(`Started test from block = (\d+)`)

// ErrNoStart is returned when the client exits without naming its
// reference block.
var ErrNoStart = errors.New("bench: the client never said which block its load starts after")

// ParseNeoBenchReport reads the summary figures of a neo-bench report. A
// figure the report lacks is an error; the per-block and resource series
// after the summary are ignored (they are measured here).
func ParseNeoBenchReport(data []byte) (ClientReport, error) {
	rep := ClientReport{Name: "neo-bench"}
	figures := []struct {
		prefix string
		set    func(string) error
		seen   bool
	}{
		{prefix: "TXs ≈", set: func(v string) (err error) { rep.Txs, err = strconv.ParseInt(v, 10, 64); return }},
		{prefix: "RPS ≈", set: func(v string) (err error) { rep.RPS, err = strconv.ParseFloat(v, 64); return }},
		{prefix: "RPC Errors", set: func(v string) (err error) {
			v = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), "≈"))
			n, _, _ := strings.Cut(v, "/")
			rep.Errors, err = strconv.ParseInt(strings.TrimSpace(n), 10, 64)
			return
		}},
		{prefix: "TPS ≈", set: func(v string) (err error) { rep.TPS, err = strconv.ParseFloat(v, 64); return }},
	}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSpace(line)
		for i := range figures {
			f := &figures[i]
			if f.seen || !strings.HasPrefix(line, f.prefix) {
				continue
			}
			if err := f.set(strings.TrimSpace(strings.TrimPrefix(line, f.prefix))); err != nil {
				return ClientReport{}, fmt.Errorf("bench: neo-bench report line %q: %w", line, err)
			}
			f.seen = true
		}
	}
	for _, f := range figures {
		if !f.seen {
			return ClientReport{}, fmt.Errorf("bench: neo-bench report has no %q line", f.prefix)
		}
	}
	return rep, nil
}

// RunExternal runs the client, follows the chain from the block the client
// starts after, samples the node (and the client, as "bench client CPU")
// while the client runs, and computes the same figures Run does from the
// blocks: so the TPS of both clients comes from one formula, and the
// client's own figures are kept beside it (Result.Client).
func RunExternal(ctx context.Context, cfg ExternalConfig) (*Result, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("bench: no client command")
	}
	if cfg.Start == nil {
		cfg.Start = neoBenchStart
	}
	observeDefaults(&cfg.Proc, &cfg.SamplePeriod, &cfg.PollPeriod)
	logw := cfg.Log
	if logw == nil {
		logw = io.Discard
	}
	logf := func(format string, args ...any) { fmt.Fprintf(logw, "bench: "+format+"\n", args...) }
	endpoint := endpointURL(cfg.Endpoint)
	cli, info, err := dialNode(ctx, endpoint, 2)
	if err != nil {
		return nil, err
	}
	defer cli.Close()
	res := &Result{Description: cfg.Description, Started: time.Now().UTC().Truncate(time.Second)}
	res.Node.NodeInfo, res.Node.Endpoints, res.Node.Pid = info, []string{endpoint}, cfg.Pid
	res.Load.Mode = "external"

	cmd := exec.CommandContext(ctx, cfg.Command[0], cfg.Command[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout // one stream, in order
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: starting the client: %w", err)
	}
	logf("client %s started (pid %d)", cfg.Command[0], cmd.Process.Pid)

	// The client's output goes to the log; its start line starts the measurement.
	started := make(chan uint32, 1)
	var outWG sync.WaitGroup
	outWG.Go(func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		sent := false
		for sc.Scan() {
			line := sc.Bytes()
			logw.Write(append(bytes.Clone(line), '\n'))
			if m := cfg.Start.FindSubmatch(line); m != nil && !sent {
				if n, err := strconv.ParseUint(string(m[1]), 10, 32); err == nil {
					started <- uint32(n)
					sent = true
				}
			}
		}
		io.Copy(io.Discard, out)
	})
	exited := make(chan error, 1)
	go func() {
		outWG.Wait()
		exited <- cmd.Wait()
	}()

	var ref uint32
	select {
	case ref = <-started:
	case err := <-exited:
		return nil, fmt.Errorf("%w (client exit: %v)", ErrNoStart, err)
	}
	watch := newWatcher(cli, ref)
	if _, _, err := watch.poll(ctx); err != nil {
		cmd.Process.Kill()
		<-exited
		return nil, err
	}
	logf("load: from block %d", ref)

	bg, stopBG := context.WithCancel(ctx)
	var wg sync.WaitGroup
	if cfg.Pid > 0 {
		s := &procstat.Sampler{FS: cfg.Proc, Pid: cfg.Pid, Self: cmd.Process.Pid}
		if _, _, err := s.Sample(time.Now()); err != nil {
			logf("sampling node pid %d: %v", cfg.Pid, err)
		} else {
			wg.Go(func() {
				Tick(bg, cfg.SamplePeriod, func(now time.Time) error {
					smp, ok, err := s.Sample(now)
					if ok {
						res.Samples = append(res.Samples, smp)
					}
					return err // the client has exited
				})
			})
		}
	}
	wg.Go(func() {
		Tick(bg, cfg.PollPeriod, func(time.Time) error {
			if _, _, err := watch.poll(bg); err != nil && bg.Err() == nil {
				logf("block polling: %v", err)
			}
			return nil
		})
	})
	clientErr := <-exited
	stopBG()
	wg.Wait()
	if _, _, err := watch.poll(ctx); err != nil {
		return nil, err
	}
	if clientErr != nil {
		return nil, fmt.Errorf("bench: the client failed: %w", clientErr)
	}
	if cfg.Report != "" {
		data, err := os.ReadFile(cfg.Report)
		if err != nil {
			return nil, fmt.Errorf("bench: the client's report: %w", err)
		}
		rep, err := ParseNeoBenchReport(data)
		if err != nil {
			return nil, err
		}
		res.Client = &rep
		res.RPS = rep.RPS
		res.Send.Accepted, res.Send.Errors = rep.Txs, rep.Errors
	}
	res.InBlocks = watch.inBlocks()
	res.Blocks = watch.snapshot()
	if err := res.Compute(); err != nil {
		return res, err
	}
	logf("TPS %.1f (%d txs in %.1f s, blocks %d..%d)", res.TPS.TPS, res.TPS.Txs, float64(res.TPS.WindowMS)/1000, res.TPS.FirstBlock, res.TPS.LastBlock)
	if res.Client != nil {
		logf("the client's own figures: TPS %.1f, RPS %.1f, %d txs, %d errors", res.Client.TPS, res.Client.RPS, res.Client.Txs, res.Client.Errors)
	}
	if res.Resources.Samples > 0 {
		logf("node CPU %.1f %% of the host, RSS %.1f MiB mean / %.1f max; client CPU %.1f %%",
			res.Resources.CPUMean, res.Resources.RSSMeanMiB, res.Resources.RSSMaxMiB, res.Resources.ClientCPU)
	}
	if cfg.OutDir != "" {
		if err := WriteOutputs(cfg.OutDir, res); err != nil {
			return res, err
		}
		logf("results in %s", cfg.OutDir)
	}
	return res, nil
}

// Tick calls f every period until ctx is done or f returns an error (which
// it returns).
func Tick(ctx context.Context, period time.Duration, f func(now time.Time) error) error {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-t.C:
			if err := f(now); err != nil {
				return err
			}
		}
	}
}

package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/n3node/n3node/pkg/bench/procstat"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/rpcclient"
)

// Config is one benchmark run. Zero values take the defaults noted.
type Config struct {
	Endpoints []string // JSON-RPC URLs ("host:port" means http://host:port); the first also serves preparation and block polling
	Workers   int      // default 10
	Rate      float64  // total tx/s; 0: as fast as accepted (neo-bench's wrk mode)
	Count     int      // workload size, default 1,000,000
	TimeLimit time.Duration

	Token           string   // "NEO" (default), "GAS" or a contract hash
	SenderWIF       string   // default DefaultSenderWIF
	CommitteeWIFs   []string // default: CommitteeWIFs(validators count)
	ValidUntilBlock uint32   // default DefaultValidUntilBlock
	SystemFee       int64    // default DefaultSystemFee
	NetworkFee      int64    // default DefaultNetworkFee
	SkipPrepare     bool     // do not fund the sender

	CacheDir    string // workload cache; "" disables it
	OutDir      string // result.json, summary.md and plots; "" writes nothing
	Description string

	Pid          int           // node process to sample (0: none)
	Proc         procstat.FS   // default procstat.Proc
	SamplePeriod time.Duration // default 1 s
	PollPeriod   time.Duration // block polling, default 500 ms
	DrainTimeout time.Duration // wait for blocks after sending, default max(30 s, 60 blocks)
	Backoff      time.Duration // after a -502, default msPerBlock/10 (msPerBlock/50 above 1 s blocks)

	Log      io.Writer // progress messages (default: discarded)
	Progress bool      // draw progress bars on Log
}

// Errors of Run.
var (
	ErrChainHeight = errors.New("bench: chain too high for the workload's ValidUntilBlock")
	ErrNetworkFee  = errors.New("bench: network fee too low for the node's fee policy")
)

// Result is everything a run measured; it is written as result.json.
type Result struct {
	Description string    `json:"description,omitempty"`
	Started     time.Time `json:"started"`
	Node        struct {
		NodeInfo
		Endpoints []string  `json:"endpoints"`
		Pid       int       `json:"pid,omitempty"`
		Fees      FeePolicy `json:"fees"`
	} `json:"node"`
	Workload struct {
		Token          string  `json:"token"`
		Sender         string  `json:"sender"`
		Count          int     `json:"count"`
		TxSize         int     `json:"tx_size"`
		VUB            uint32  `json:"valid_until_block"`
		SystemFee      int64   `json:"system_fee"`
		NetworkFee     int64   `json:"network_fee"`
		RequiredNetFee int64   `json:"required_network_fee"`
		CacheFile      string  `json:"cache_file,omitempty"`
		Cached         bool    `json:"cached"`
		Seconds        float64 `json:"seconds"` // generation or loading
	} `json:"workload"`
	Load struct {
		Mode      string  `json:"mode"` // "wrk" or "rate"
		Workers   int     `json:"workers"`
		Rate      float64 `json:"rate,omitempty"`
		TimeLimit string  `json:"time_limit"`
		BackoffMS float64 `json:"backoff_ms"`
	} `json:"load"`
	Funding   Funding           `json:"funding"`
	Send      SendStats         `json:"send"`
	TPS       TPS               `json:"tps"`
	RPS       float64           `json:"rps"`
	InBlocks  int64             `json:"in_blocks"` // workload-period transactions seen in blocks
	Drain     DrainStats        `json:"drain"`
	Resources Resources         `json:"resources"`
	Blocks    []BlockStat       `json:"blocks"`
	PerBlock  []BlockTPS        `json:"per_block"`
	Samples   []procstat.Sample `json:"samples,omitempty"`
	// Client holds another client's own figures when that client sent the
	// load (RunExternal); the other figures are measured here either way.
	Client *ClientReport `json:"client,omitempty"`
}

// DrainStats describe the wait for blocks after sending stopped.
type DrainStats struct {
	Seconds  float64 `json:"seconds"`
	Complete bool    `json:"complete"` // every accepted transaction was seen in a block
	Reason   string  `json:"reason"`
}

func (c *Config) defaults() {
	if c.Workers <= 0 {
		c.Workers = 10
	}
	if c.Count <= 0 {
		c.Count = 1_000_000
	}
	c.SenderWIF = cmp.Or(c.SenderWIF, DefaultSenderWIF)
	c.ValidUntilBlock = cmp.Or(c.ValidUntilBlock, DefaultValidUntilBlock)
	c.SystemFee = cmp.Or(c.SystemFee, DefaultSystemFee)
	c.NetworkFee = cmp.Or(c.NetworkFee, DefaultNetworkFee)
	observeDefaults(&c.Proc, &c.SamplePeriod, &c.PollPeriod)
	if c.Log == nil {
		c.Log = io.Discard
	}
	eps := make([]string, len(c.Endpoints))
	for i, e := range c.Endpoints {
		eps[i] = endpointURL(e)
	}
	c.Endpoints = eps
}

// observeDefaults fills the zero values of how a node is watched: /proc,
// a sample every second, blocks polled every 500 ms.
func observeDefaults(proc *procstat.FS, samplePeriod, pollPeriod *time.Duration) {
	if proc.Root == "" {
		*proc = procstat.Proc
	}
	if *samplePeriod <= 0 {
		*samplePeriod = time.Second
	}
	if *pollPeriod <= 0 {
		*pollPeriod = 500 * time.Millisecond
	}
}

// endpointURL makes "host:port" an http:// URL.
func endpointURL(e string) string {
	if !strings.Contains(e, "://") {
		return "http://" + e
	}
	return e
}

func (c *Config) logf(format string, args ...any) {
	fmt.Fprintf(c.Log, "bench: "+format+"\n", args...)
}

func (c *Config) bar(total int64, desc string) *progressbar.ProgressBar {
	if !c.Progress {
		return nil
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(c.Log),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("tx"),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionSetWidth(30),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(c.Log) }),
	)
}

// Run prepares the node, sends the workload and measures. On success the
// outputs are written to cfg.OutDir (if set).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cfg.defaults()
	if len(cfg.Endpoints) == 0 {
		return nil, errors.New("bench: no RPC endpoint")
	}
	res := &Result{Description: cfg.Description, Started: time.Now().UTC().Truncate(time.Second)}
	cli, info, err := dialNode(ctx, cfg.Endpoints[0], 4)
	if err != nil {
		return nil, err
	}
	defer cli.Close()

	natives, err := GetNatives(ctx, cli)
	if err != nil {
		return nil, err
	}
	fees, err := GetFeePolicy(ctx, cli, natives)
	if err != nil {
		return nil, err
	}
	res.Node.NodeInfo, res.Node.Endpoints, res.Node.Pid, res.Node.Fees = info, cfg.Endpoints, cfg.Pid, fees
	cfg.logf("node %s: network %d, %d ms blocks, %d validators, mempool %d", info.UserAgent, info.Magic, info.MSPerBlock, info.Validators, info.MemPool)
	token, err := ResolveToken(natives, cfg.Token)
	if err != nil {
		return nil, err
	}
	height, err := cli.GetBlockCount(ctx)
	if err != nil {
		return nil, err
	}
	if height+20 >= cfg.ValidUntilBlock {
		return nil, fmt.Errorf("%w: %d blocks, ValidUntilBlock %d: start a fresh chain or raise it", ErrChainHeight, height, cfg.ValidUntilBlock)
	}

	// The workload.
	p := Params{
		Magic: info.Magic, Token: token, SenderWIF: cfg.SenderWIF, Amount: 1, Count: cfg.Count,
		ValidUntilBlock: cfg.ValidUntilBlock, SystemFee: cfg.SystemFee, NetworkFee: cfg.NetworkFee,
	}
	t0 := time.Now()
	var genDone atomic.Int64
	stopBar := cfg.follow(cfg.bar(int64(cfg.Count), "workload"), genDone.Load)
	w, cached, cachePath, err := LoadOrGenerate(ctx, cfg.CacheDir, p, func(d int) {
		for {
			old := genDone.Load()
			if int64(d) <= old || genDone.CompareAndSwap(old, int64(d)) {
				return
			}
		}
	})
	genDone.Store(int64(cfg.Count))
	stopBar()
	if err != nil {
		return nil, err
	}
	wr := &res.Workload
	wr.Token, wr.Sender, wr.Count, wr.TxSize = "0x"+token.StringLE(), address.FromUint160(w.Sender), w.Len(), w.TxSize
	wr.VUB, wr.SystemFee, wr.NetworkFee = p.ValidUntilBlock, p.SystemFee, p.NetworkFee
	wr.CacheFile, wr.Cached, wr.Seconds = cachePath, cached, time.Since(t0).Seconds()
	verb := "generated"
	if cached {
		verb = "loaded"
	}
	cfg.logf("workload: %s %d transactions of %d bytes in %.1f s (%s)", verb, w.Len(), w.TxSize, wr.Seconds, cachePath)
	tx0, err := transaction.NewTransactionFromBytes(w.Tx(0))
	if err != nil {
		return nil, fmt.Errorf("bench: workload transaction 0: %w", err)
	}
	wr.RequiredNetFee = RequiredNetworkFee(tx0, fees.FeePerByte, fees.ExecFeeFactor)
	if wr.RequiredNetFee > p.NetworkFee {
		return nil, fmt.Errorf("%w: %d < %d datoshi", ErrNetworkFee, p.NetworkFee, wr.RequiredNetFee)
	}
	bodies := EncodeBodies(w)

	// Preparation.
	if !cfg.SkipPrepare {
		wifs := cfg.CommitteeWIFs
		if len(wifs) == 0 {
			wifs = CommitteeWIFs(info.Validators)
		}
		if len(wifs) == 0 {
			return nil, fmt.Errorf("bench: no default committee keys for %d validators: give them", info.Validators)
		}
		committee, err := NewMultisig(wifs)
		if err != nil {
			return nil, err
		}
		if res.Funding, err = Fund(ctx, cli, info, natives, fees, committee, &p, w.Sender, cfg.logf); err != nil {
			return nil, err
		}
		cfg.logf("funding: done (skipped: %v), sender holds %s NEO, %s datoshi GAS", res.Funding.Skipped, res.Funding.NEO, res.Funding.GAS)
	}
	w = nil // the bodies are all that is sent

	// Wait for a new block: the reference the TPS window starts after.
	msPerBlock := time.Duration(info.MSPerBlock) * time.Millisecond
	ref, err := waitNewBlock(ctx, cli, msPerBlock)
	if err != nil {
		return nil, err
	}
	watch := newWatcher(cli, ref)
	if _, _, err := watch.poll(ctx); err != nil {
		return nil, err
	}
	cfg.logf("load: from block %d, %d workers, rate %s, time limit %s", ref, cfg.Workers, rateString(cfg.Rate), limitString(cfg.TimeLimit))

	// Load, with block polling and resource sampling beside it.
	backoff := cfg.Backoff
	if backoff <= 0 {
		backoff = msPerBlock / 10
		if msPerBlock > time.Second {
			backoff = msPerBlock / 50
		}
	}
	res.Load.Mode, res.Load.Workers, res.Load.Rate = "wrk", cfg.Workers, cfg.Rate
	if cfg.Rate > 0 {
		res.Load.Mode = "rate"
	}
	res.Load.TimeLimit, res.Load.BackoffMS = limitString(cfg.TimeLimit), float64(backoff.Microseconds())/1000

	bg, stopBG := context.WithCancel(ctx)
	defer stopBG()
	var wg sync.WaitGroup
	var samplesMu sync.Mutex
	if cfg.Pid > 0 {
		s := &procstat.Sampler{FS: cfg.Proc, Pid: cfg.Pid, Self: os.Getpid()}
		if _, _, err := s.Sample(time.Now()); err != nil {
			return nil, fmt.Errorf("bench: sampling node pid %d: %w", cfg.Pid, err)
		}
		wg.Go(func() {
			t := time.NewTicker(cfg.SamplePeriod)
			defer t.Stop()
			for done := false; !done; {
				var now time.Time
				select {
				case <-bg.Done():
					// A last sample covers the tail since the previous tick,
					// so a run shorter than one period still has one.
					now, done = time.Now(), true
				case now = <-t.C:
				}
				smp, ok, err := s.Sample(now)
				if err != nil {
					cfg.logf("sampling stopped: %v", err)
					return
				}
				if ok {
					samplesMu.Lock()
					res.Samples = append(res.Samples, smp)
					samplesMu.Unlock()
				}
			}
		})
	}
	pollCtx, stopPoll := context.WithCancel(bg)
	var pollWG sync.WaitGroup
	pollWG.Go(func() {
		Tick(pollCtx, cfg.PollPeriod, func(time.Time) error {
			if _, _, err := watch.poll(pollCtx); err != nil && pollCtx.Err() == nil {
				cfg.logf("block polling: %v", err)
			}
			return nil
		})
	})
	sender := NewSender(bodies, LoadConfig{
		Endpoints: cfg.Endpoints, Workers: cfg.Workers, Rate: cfg.Rate,
		TimeLimit: cfg.TimeLimit, Backoff: backoff,
	})
	total := int64(bodies.Len())
	if cfg.TimeLimit > 0 && cfg.Rate > 0 {
		total = min(total, int64(cfg.Rate*cfg.TimeLimit.Seconds()))
	}
	stopBar = cfg.follow(cfg.bar(total, "sending"), sender.Accepted)
	res.Send, err = sender.Run(ctx)
	stopBar()
	stopPoll()
	pollWG.Wait()
	if err != nil {
		return nil, err
	}
	res.RPS = res.Send.RPS
	cfg.logf("sent: %d accepted in %.1f s (%.0f RPS), %d mempool-full answers, %d errors; stopped: %s",
		res.Send.Accepted, res.Send.DurationMS/1000, res.Send.RPS, res.Send.MempoolFull, res.Send.Errors, res.Send.Stopped)

	// Drain: wait until every accepted transaction is in a block, blocks
	// come empty, or the timeout passes.
	res.Drain, err = cfg.drain(ctx, watch, res.Send.Accepted, msPerBlock)
	stopBG()
	wg.Wait()
	if err != nil {
		return nil, err
	}
	res.InBlocks = watch.inBlocks()
	res.Blocks = watch.snapshot()
	if err := res.Compute(); err != nil {
		return res, err
	}
	tps := res.TPS
	cfg.logf("TPS %.1f (%d txs in %.1f s, blocks %d..%d), RPS %.1f", tps.TPS, tps.Txs, float64(tps.WindowMS)/1000, tps.FirstBlock, tps.LastBlock, res.RPS)
	if res.Resources.Samples > 0 {
		cfg.logf("node CPU %.1f %% of the host, RSS %.1f MiB mean / %.1f max; bench client CPU %.1f %%",
			res.Resources.CPUMean, res.Resources.RSSMeanMiB, res.Resources.RSSMaxMiB, res.Resources.ClientCPU)
	}
	if cfg.OutDir != "" {
		if err := WriteOutputs(cfg.OutDir, res); err != nil {
			return res, err
		}
		cfg.logf("results in %s", cfg.OutDir)
	}
	return res, nil
}

// Compute derives the TPS window, its phases, the per-block series and the
// resource summary from the recorded blocks and samples. Run calls it;
// `n3node bench report` calls it again on a result file, so a report can be
// redrawn from the raw records.
func (r *Result) Compute() error {
	tps, ok := ComputeTPS(r.Blocks)
	if !ok {
		return errors.New("bench: no transactions reached a block")
	}
	tps.Early, _ = PhaseTPS(r.Blocks, tps, 0, 20)
	tps.Late, _ = PhaseTPS(r.Blocks, tps, 60, 120)
	r.TPS = tps
	r.PerBlock = PerBlockTPS(r.Blocks, tps)
	r.Resources = SummarizeSamples(r.Samples, int64(tps.StartMS), int64(tps.EndMS))
	return nil
}

func (c *Config) drain(ctx context.Context, watch *watcher, accepted int64, msPerBlock time.Duration) (DrainStats, error) {
	start := time.Now()
	timeout := c.DrainTimeout
	if timeout <= 0 {
		timeout = max(30*time.Second, 60*msPerBlock)
	}
	const emptyStreak = 3
	done := func(complete bool, reason string) (DrainStats, error) {
		return DrainStats{Seconds: time.Since(start).Seconds(), Complete: complete, Reason: reason}, nil
	}
	for {
		if watch.inBlocks() >= accepted {
			return done(true, "all accepted transactions in blocks")
		}
		if _, _, err := watch.poll(ctx); err != nil {
			if ctx.Err() != nil {
				return DrainStats{}, ctx.Err()
			}
			c.logf("block polling: %v", err)
		}
		if watch.inBlocks() >= accepted {
			return done(true, "all accepted transactions in blocks")
		}
		if watch.trailingEmpty() >= emptyStreak {
			return done(false, fmt.Sprintf("%d empty blocks in a row", emptyStreak))
		}
		if time.Since(start) > timeout {
			return done(false, "timeout "+timeout.String())
		}
		sleep(ctx, c.PollPeriod)
		if ctx.Err() != nil {
			return DrainStats{}, ctx.Err()
		}
	}
}

// follow redraws bar from get every 200 ms until the returned stop is called.
func (c *Config) follow(bar *progressbar.ProgressBar, get func() int64) (stop func()) {
	if bar == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				_ = bar.Set64(get())
				_ = bar.Exit()
				fmt.Fprintln(c.Log)
				return
			case <-t.C:
				_ = bar.Set64(get())
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// waitNewBlock waits (up to 10 block times) for a block newer than the
// current height and returns the newest index.
func waitNewBlock(ctx context.Context, c *rpcclient.Client, msPerBlock time.Duration) (uint32, error) {
	count, err := c.GetBlockCount(ctx)
	if err != nil {
		return 0, err
	}
	for range 40 {
		sleep(ctx, msPerBlock/4)
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		n, err := c.GetBlockCount(ctx)
		if err != nil {
			return 0, err
		}
		if n > count {
			return n - 1, nil
		}
	}
	return 0, fmt.Errorf("bench: no new block in %s", 10*msPerBlock)
}

func rateString(r float64) string {
	if r <= 0 {
		return "unlimited"
	}
	return fmt.Sprintf("%g tx/s", r)
}

func limitString(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return d.String()
}

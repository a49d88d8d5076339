package multinode

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/n3node/n3node/pkg/bench"
	"github.com/n3node/n3node/pkg/bench/procstat"
)

// BenchProtocol is neo-bench's 4-node network (.docker/ir/
// go.protocol.template.yml, the nodes other than "single"): 5-second
// blocks, a 50,000-transaction mempool, 65,535 transactions and 16 MiB per
// block, a 16,000 GAS block system fee limit, Aspidochelone..Faun from
// genesis (Gorgon off), MinPeers 3 and a 2-second protocol tick.
var BenchProtocol = Protocol{
	TimePerBlock:            5 * time.Second,
	MemPoolSize:             50000,
	MaxTransactionsPerBlock: 65535,
	MaxBlockSize:            16777216,
	MaxBlockSystemFee:       1600000000000,
	Hardforks:               AllHardforks[:6],
	MinPeers:                3,
	ProtoTickInterval:       2 * time.Second,
	PingInterval:            10 * time.Second,
	PingTimeout:             30 * time.Second,
}

// BenchSpecs returns the nodes of a benchmark network of one
// implementation: validators 1..4, then the RPC node without consensus
// that receives the load (neo-bench's "rpc" node).
func BenchSpecs(k Kind) []NodeSpec {
	out := make([]NodeSpec, 0, Validators+1)
	for v := 1; v <= Validators; v++ {
		out = append(out, NodeSpec{Kind: k, Validator: v})
	}
	return append(out, NodeSpec{Kind: k})
}

// NodeResources are the CPU and memory of one node over a run's TPS window.
type NodeResources struct {
	Name      string          `json:"name"`
	Resources bench.Resources `json:"resources"`
}

// NetworkBenchResult is one benchmark run against a network's RPC node:
// bench.Run's result (its resources are the RPC node's), the resources of
// every node, and their sum (CPU summed per sample, RSS summed per sample).
type NetworkBenchResult struct {
	Kind  Kind            `json:"kind"`
	Bench *bench.Result   `json:"bench"`
	Nodes []NodeResources `json:"nodes"`
	Sum   bench.Resources `json:"sum"`
	// Cores is the host's CPU count: the resources' CPU figures are
	// shares of all of them.
	Cores int `json:"cores"`
}

// TxsPerCoreSecond returns the TPS divided by the cores a CPU share (% of
// the host) stands for: the throughput per unit of CPU, a figure that
// other load on the host disturbs less than TPS itself.
func (r *NetworkBenchResult) TxsPerCoreSecond(cpu float64) float64 {
	if cpu <= 0 || r.Cores <= 0 {
		return 0
	}
	return r.Bench.TPS.TPS / (cpu / 100 * float64(r.Cores))
}

// RunBench runs bench.Run against the last node of the network (the RPC
// node of BenchSpecs) and samples the CPU and RSS of every node once a
// second meanwhile. cfg.Endpoints and cfg.Pid are set here.
func (nw *Network) RunBench(ctx context.Context, cfg bench.Config) (*NetworkBenchResult, error) {
	rpc := nw.Nodes[len(nw.Nodes)-1]
	cfg.Endpoints = []string{rpc.RPCURL()}
	cfg.Pid = rpc.Pid()
	if cfg.Pid == 0 {
		return nil, fmt.Errorf("multinode: bench: %s: %w", rpc.Name, ErrNotRunning)
	}
	samplers := make([]*procstat.Sampler, len(nw.Nodes))
	for i, n := range nw.Nodes {
		pid := n.Pid()
		if pid == 0 {
			return nil, fmt.Errorf("multinode: bench: %s: %w", n.Name, ErrNotRunning)
		}
		samplers[i] = &procstat.Sampler{FS: procstat.Proc, Pid: pid}
	}
	per := make([][]procstat.Sample, len(nw.Nodes))
	var sum []procstat.Sample
	sample := func(now time.Time) error {
		var s procstat.Sample
		got := 0
		for i, sm := range samplers {
			smp, ok, err := sm.Sample(now)
			if err != nil {
				return err
			}
			if ok {
				per[i] = append(per[i], smp)
				s.UnixMilli, s.HostBusy = smp.UnixMilli, smp.HostBusy
				s.CPU += smp.CPU
				s.RSS += smp.RSS
				got++
			}
		}
		if got == len(samplers) {
			sum = append(sum, s)
		}
		return nil
	}
	if err := sample(time.Now()); err != nil {
		return nil, fmt.Errorf("multinode: bench sampling: %w", err)
	}
	bg, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := bench.Tick(bg, time.Second, sample); err != nil {
			fmt.Fprintf(logOf(cfg), "multinode: bench sampling stopped: %v\n", err)
		}
	})
	res, err := bench.Run(ctx, cfg)
	stop()
	wg.Wait()
	if err != nil {
		return nil, err
	}
	out := &NetworkBenchResult{Kind: rpc.Spec.Kind, Bench: res, Cores: runtime.NumCPU()}
	from, to := int64(res.TPS.StartMS), int64(res.TPS.EndMS)
	for i, n := range nw.Nodes {
		out.Nodes = append(out.Nodes, NodeResources{Name: n.Name, Resources: bench.SummarizeSamples(per[i], from, to)})
	}
	out.Sum = bench.SummarizeSamples(sum, from, to)
	return out, nil
}

func logOf(cfg bench.Config) io.Writer {
	if cfg.Log == nil {
		return io.Discard
	}
	return cfg.Log
}

// WriteNetworkComparison writes a Markdown table of the medians (min …
// max) of the network-wide figures of each kind's runs and the ratio of
// the second kind to the first: the RPC node's figures come from
// bench.WriteComparison; this adds the validators and the sum.
func WriteNetworkComparison(w io.Writer, a, b []*NetworkBenchResult) {
	if len(a) == 0 || len(b) == 0 {
		return
	}
	name := func(rs []*NetworkBenchResult) string { return string(rs[0].Kind) }
	fmt.Fprintf(w, "| all five processes (median of runs, min … max) | %s | %s | %s / %s |\n|---|---|---|---|\n",
		name(a), name(b), name(b), name(a))
	type row struct {
		label string
		get   func(*NetworkBenchResult) float64
		f     string
	}
	rows := []row{
		{"TPS (bench, RPC node)", func(r *NetworkBenchResult) float64 { return r.Bench.TPS.TPS }, "%.0f"},
		{"TPS per core-second of all five", func(r *NetworkBenchResult) float64 { return r.TxsPerCoreSecond(r.Sum.CPUMean) }, "%.0f"},
		{"TPS per core-second of the RPC node", func(r *NetworkBenchResult) float64 {
			return r.TxsPerCoreSecond(r.Bench.Resources.CPUMean)
		}, "%.0f"},
		{"host busy, %", func(r *NetworkBenchResult) float64 { return r.Bench.Resources.HostBusyMean }, "%.1f"},
		{"other processes (not the five, not the client), % of the host", func(r *NetworkBenchResult) float64 {
			return r.Bench.Resources.HostBusyMean - r.Sum.CPUMean - r.Bench.Resources.ClientCPU
		}, "%.1f"},
		{"CPU, sum, % of the host", func(r *NetworkBenchResult) float64 { return r.Sum.CPUMean }, "%.1f"},
		{"RSS, sum of the five, mean MiB", func(r *NetworkBenchResult) float64 { return r.Sum.RSSMeanMiB }, "%.0f"},
		{"RSS, sum of the five, max MiB", func(r *NetworkBenchResult) float64 { return r.Sum.RSSMaxMiB }, "%.0f"},
	}
	for i := range a[0].Nodes {
		rows = append(rows,
			row{fmt.Sprintf("node %d CPU, %%", i+1), func(r *NetworkBenchResult) float64 { return r.Nodes[i].Resources.CPUMean }, "%.1f"},
			row{fmt.Sprintf("node %d RSS mean, MiB", i+1), func(r *NetworkBenchResult) float64 { return r.Nodes[i].Resources.RSSMeanMiB }, "%.0f"})
	}
	for _, r := range rows {
		sa, sb := stat(a, r.get), stat(b, r.get)
		ratio := "—"
		if sa.Median != 0 {
			ratio = fmt.Sprintf("%.2f", sb.Median/sa.Median)
		}
		f := r.f
		fmt.Fprintf(w, "| %s | "+f+" ("+f+" … "+f+") | "+f+" ("+f+" … "+f+") | %s |\n",
			r.label, sa.Median, sa.Min, sa.Max, sb.Median, sb.Min, sb.Max, ratio)
	}
	fmt.Fprintf(w, "\nNodes 1–%d are the validators, node %d the RPC node that takes the load.\n",
		len(a[0].Nodes)-1, len(a[0].Nodes))
}

func stat(rs []*NetworkBenchResult, get func(*NetworkBenchResult) float64) bench.Stat {
	v := make([]float64, 0, len(rs))
	for _, r := range rs {
		if len(r.Nodes) > 0 {
			v = append(v, get(r))
		}
	}
	return bench.NewStat(v)
}

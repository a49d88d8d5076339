package bench

import (
	"math"
	"slices"

	"github.com/n3node/n3node/pkg/bench/procstat"
)

// BlockStat is what the benchmark keeps of one block.
type BlockStat struct {
	Index     uint32 `json:"index"`
	Timestamp uint64 `json:"timestamp"` // milliseconds since the Unix epoch
	Txs       int    `json:"txs"`
	Size      int    `json:"size"` // bytes
}

// TPS is the throughput measured over a run's blocks.
type TPS struct {
	// TPS = Txs × 1000 / WindowMS.
	TPS float64 `json:"tps"`
	// Txs counts the transactions of the blocks FirstBlock..LastBlock.
	Txs int `json:"txs"`
	// WindowMS is Timestamp(LastBlock) − Timestamp(StartBlock).
	WindowMS uint64 `json:"window_ms"`
	// StartBlock is the block before FirstBlock, the first non-empty block;
	// LastBlock is the last non-empty one.
	StartBlock uint32 `json:"start_block"`
	FirstBlock uint32 `json:"first_block"`
	LastBlock  uint32 `json:"last_block"`
	// StartMS and EndMS are the timestamps of StartBlock and LastBlock.
	StartMS uint64 `json:"start_ms"`
	EndMS   uint64 `json:"end_ms"`
	// MaxBlockTxs is the largest transaction count of a block in the window.
	MaxBlockTxs int `json:"max_block_txs"`
	// Early and Late are PhaseTPS over the first 20 s and over 60..120 s of
	// the window (0 when the window is shorter), the phases the neo-go
	// anchor measurements quote.
	Early float64 `json:"tps_0_20s,omitempty"`
	Late  float64 `json:"tps_60_120s,omitempty"`
}

// ComputeTPS applies neo-bench's formula to consecutive blocks, of which
// blocks[0] is the reference block seen before the load began (its own
// transactions are not counted). Empty blocks before the first non-empty
// one and after the last are left out; empty blocks in between count.
// The window runs from the block before the first non-empty one to the last
// non-empty one:
//
//	TPS = Σ txs(first..last) × 1000 / (timestamp(last) − timestamp(first−1))
//
// which is neo-bench's Σ txs / Σ (per-block timestamp deltas). ok is false
// if no block after blocks[0] has transactions or the window is empty.
func ComputeTPS(blocks []BlockStat) (t TPS, ok bool) {
	first, last := -1, -1
	for i := 1; i < len(blocks); i++ {
		if blocks[i].Txs > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return TPS{}, false
	}
	start, end := blocks[first-1], blocks[last]
	if end.Timestamp <= start.Timestamp {
		return TPS{}, false
	}
	t = TPS{
		StartBlock: start.Index, FirstBlock: blocks[first].Index, LastBlock: end.Index,
		StartMS: start.Timestamp, EndMS: end.Timestamp,
		WindowMS: end.Timestamp - start.Timestamp,
	}
	for _, b := range blocks[first : last+1] {
		t.Txs += b.Txs
		t.MaxBlockTxs = max(t.MaxBlockTxs, b.Txs)
	}
	t.TPS = float64(t.Txs) * 1000 / float64(t.WindowMS)
	return t, true
}

// BlockTPS is one point of the per-block throughput series.
type BlockTPS struct {
	Index   uint32  `json:"index"`
	Seconds float64 `json:"s"`   // block timestamp − window start
	TPS     float64 `json:"tps"` // txs × 1000 / (timestamp − previous timestamp)
}

// PerBlockTPS returns the per-block throughput of the window t describes.
func PerBlockTPS(blocks []BlockStat, t TPS) []BlockTPS {
	var out []BlockTPS
	for i := 1; i < len(blocks); i++ {
		b, prev := blocks[i], blocks[i-1]
		if b.Index < t.FirstBlock || b.Index > t.LastBlock {
			continue
		}
		p := BlockTPS{Index: b.Index, Seconds: float64(b.Timestamp-t.StartMS) / 1000}
		if b.Timestamp > prev.Timestamp {
			p.TPS = float64(b.Txs) * 1000 / float64(b.Timestamp-prev.Timestamp)
		}
		out = append(out, p)
	}
	return out
}

// PhaseTPS is the throughput over part of the TPS window: the transactions
// of the blocks whose timestamps lie in (start+fromS, start+toS], divided by
// the time from the last block at or before start+fromS to the last block
// at or before start+toS. It tells the early phase of a run from its steady
// state. ok is false when the window does not reach start+toS.
func PhaseTPS(blocks []BlockStat, t TPS, fromS, toS float64) (tps float64, ok bool) {
	if t.WindowMS == 0 || float64(t.WindowMS) < toS*1000 {
		return 0, false
	}
	i0, i1 := -1, -1
	for i, b := range blocks {
		if b.Timestamp < t.StartMS {
			continue
		}
		rel := float64(b.Timestamp - t.StartMS)
		if rel <= fromS*1000 {
			i0 = i
		}
		if rel <= toS*1000 {
			i1 = i
		}
	}
	if i0 < 0 || i1 <= i0 || blocks[i1].Timestamp <= blocks[i0].Timestamp {
		return 0, false
	}
	txs := 0
	for _, b := range blocks[i0+1 : i1+1] {
		txs += b.Txs
	}
	return float64(txs) * 1000 / float64(blocks[i1].Timestamp-blocks[i0].Timestamp), true
}

// RPS is accepted sends per second of sending time.
func RPS(accepted int64, sendingMS float64) float64 {
	if sendingMS <= 0 {
		return 0
	}
	return float64(accepted) * 1000 / sendingMS
}

// Resources summarizes resource samples.
type Resources struct {
	Samples      int     `json:"samples"`
	CPUMean      float64 `json:"cpu_mean"` // node, % of the whole host
	CPUMax       float64 `json:"cpu_max"`
	RSSMeanMiB   float64 `json:"rss_mean_mib"`
	RSSMaxMiB    float64 `json:"rss_max_mib"`
	ClientCPU    float64 `json:"client_cpu_mean"` // the bench process, % of the host
	HostBusyMean float64 `json:"host_busy_mean"`
	// OtherCPU is host busy time used by neither the node nor the bench
	// client: other load that makes a run less comparable.
	OtherCPU float64 `json:"other_cpu_mean"`
	// Window tells which samples were used: "tps" (those inside the TPS
	// window) or "all" (the window held none).
	Window string `json:"window"`
}

const mib = 1 << 20

// SummarizeSamples averages the samples whose time lies within
// [fromMS, toMS] (Unix milliseconds), or all samples if none does.
func SummarizeSamples(samples []procstat.Sample, fromMS, toMS int64) Resources {
	in := slices.DeleteFunc(slices.Clone(samples), func(s procstat.Sample) bool {
		return s.UnixMilli < fromMS || s.UnixMilli > toMS
	})
	r := Resources{Window: "tps"}
	if len(in) == 0 {
		in, r.Window = samples, "all"
	}
	if len(in) == 0 {
		return Resources{}
	}
	r.Samples = len(in)
	for _, s := range in {
		r.CPUMean += s.CPU
		r.CPUMax = math.Max(r.CPUMax, s.CPU)
		rss := float64(s.RSS) / mib
		r.RSSMeanMiB += rss
		r.RSSMaxMiB = math.Max(r.RSSMaxMiB, rss)
		r.ClientCPU += s.SelfCPU
		r.HostBusyMean += s.HostBusy
	}
	n := float64(len(in))
	r.CPUMean /= n
	r.RSSMeanMiB /= n
	r.ClientCPU /= n
	r.HostBusyMean /= n
	r.OtherCPU = max(0, r.HostBusyMean-r.CPUMean-r.ClientCPU)
	return r
}

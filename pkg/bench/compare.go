package bench

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Stat is the median and range of one figure over several runs.
type Stat struct {
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Values []float64 `json:"values"`
}

// NewStat summarizes values (the median of an even count is the mean of
// the middle two).
func NewStat(values []float64) Stat {
	if len(values) == 0 {
		return Stat{}
	}
	v := slices.Clone(values)
	slices.Sort(v)
	s := Stat{Min: v[0], Max: v[len(v)-1], Values: values}
	if n := len(v); n%2 == 1 {
		s.Median = v[n/2]
	} else {
		s.Median = (v[n/2-1] + v[n/2]) / 2
	}
	return s
}

// Summary holds the medians of one node's runs.
type Summary struct {
	Name      string `json:"name"`
	UserAgent string `json:"useragent"`
	Runs      int    `json:"runs"`
	TPS       Stat   `json:"tps"`
	RPS       Stat   `json:"rps"`
	CPU       Stat   `json:"cpu"`      // node, % of the host (mean per run)
	RSSMean   Stat   `json:"rss_mean"` // MiB
	RSSMax    Stat   `json:"rss_max"`  // MiB
	ClientCPU Stat   `json:"client_cpu"`
	OtherCPU  Stat   `json:"other_cpu"` // host load of other processes
	Txs       Stat   `json:"txs"`       // transactions in the TPS window
	Early     Stat   `json:"tps_0_20s"`
	Late      Stat   `json:"tps_60_120s"`
	// TPSPerCPU is TPS / node CPU % of each run: the work done per share
	// of the host, less sensitive than TPS to how much of the host other
	// processes took during the run.
	TPSPerCPU Stat `json:"tps_per_cpu"`
	// ClientTPS is the TPS another client reported for its own runs
	// (Result.Client), beside the TPS computed here from the same blocks.
	ClientTPS Stat `json:"client_tps"`
}

// Summarize collects the figures of a node's runs.
func Summarize(name string, runs []*Result) Summary {
	s := Summary{Name: name, Runs: len(runs)}
	var tps, rps, cpu, rssMean, rssMax, client, other, txs, early, late, perCPU, clientTPS []float64
	for _, r := range runs {
		if s.UserAgent == "" {
			s.UserAgent = r.Node.UserAgent
		}
		tps = append(tps, r.TPS.TPS)
		if r.Client != nil {
			clientTPS = append(clientTPS, r.Client.TPS)
		}
		rps = append(rps, r.RPS)
		txs = append(txs, float64(r.TPS.Txs))
		if r.TPS.Early > 0 {
			early = append(early, r.TPS.Early)
		}
		if r.TPS.Late > 0 {
			late = append(late, r.TPS.Late)
		}
		if r.Resources.Samples > 0 {
			cpu = append(cpu, r.Resources.CPUMean)
			rssMean = append(rssMean, r.Resources.RSSMeanMiB)
			rssMax = append(rssMax, r.Resources.RSSMaxMiB)
			client = append(client, r.Resources.ClientCPU)
			other = append(other, r.Resources.OtherCPU)
			if r.Resources.CPUMean > 0 {
				perCPU = append(perCPU, r.TPS.TPS/r.Resources.CPUMean)
			}
		}
	}
	s.TPS, s.RPS, s.Txs = NewStat(tps), NewStat(rps), NewStat(txs)
	s.CPU, s.RSSMean, s.RSSMax, s.ClientCPU = NewStat(cpu), NewStat(rssMean), NewStat(rssMax), NewStat(client)
	s.OtherCPU = NewStat(other)
	s.Early, s.Late = NewStat(early), NewStat(late)
	s.TPSPerCPU = NewStat(perCPU)
	s.ClientTPS = NewStat(clientTPS)
	return s
}

// WriteComparison writes a Markdown table of the summaries' medians (with
// ranges) and, for every summary after the first, its ratio to the first.
func WriteComparison(w io.Writer, sums ...Summary) {
	if len(sums) == 0 {
		return
	}
	fmt.Fprintf(w, "| figure (median of runs, min … max) |")
	for _, s := range sums {
		fmt.Fprintf(w, " %s (%d runs) |", s.Name, s.Runs)
	}
	for _, s := range sums[1:] {
		fmt.Fprintf(w, " %s / %s |", s.Name, sums[0].Name)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", 2*len(sums)-1))
	rows := []struct {
		name     string
		get      func(Summary) Stat
		format   string
		optional bool // left out when no summary has it
	}{
		{"TPS", func(s Summary) Stat { return s.TPS }, "%.0f", false},
		{"TPS, the client's own report", func(s Summary) Stat { return s.ClientTPS }, "%.0f", true},
		{"TPS, first 20 s", func(s Summary) Stat { return s.Early }, "%.0f", false},
		{"TPS, 60–120 s", func(s Summary) Stat { return s.Late }, "%.0f", false},
		{"RPS", func(s Summary) Stat { return s.RPS }, "%.0f", false},
		{"node CPU, % of the host", func(s Summary) Stat { return s.CPU }, "%.1f", false},
		{"TPS per % of node CPU", func(s Summary) Stat { return s.TPSPerCPU }, "%.0f", false},
		{"node RSS mean, MiB", func(s Summary) Stat { return s.RSSMean }, "%.1f", false},
		{"node RSS max, MiB", func(s Summary) Stat { return s.RSSMax }, "%.1f", false},
		{"bench client CPU, %", func(s Summary) Stat { return s.ClientCPU }, "%.1f", false},
		{"other load on the host, %", func(s Summary) Stat { return s.OtherCPU }, "%.1f", false},
		{"txs in the TPS window", func(s Summary) Stat { return s.Txs }, "%.0f", false},
	}
	for _, row := range rows {
		if row.optional && !slices.ContainsFunc(sums, func(s Summary) bool { return len(row.get(s).Values) > 0 }) {
			continue
		}
		fmt.Fprintf(w, "| %s |", row.name)
		for _, s := range sums {
			st := row.get(s)
			if len(st.Values) == 0 {
				fmt.Fprintf(w, " — |")
				continue
			}
			f := row.format
			fmt.Fprintf(w, " "+f+" ("+f+" … "+f+") |", st.Median, st.Min, st.Max)
		}
		base := row.get(sums[0])
		for _, s := range sums[1:] {
			st := row.get(s)
			if len(st.Values) == 0 || len(base.Values) == 0 || base.Median == 0 {
				fmt.Fprintf(w, " — |")
				continue
			}
			fmt.Fprintf(w, " %.2f |", st.Median/base.Median)
		}
		fmt.Fprintln(w)
	}
}

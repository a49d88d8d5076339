package bench

import (
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Output file names in Config.OutDir.
const (
	ResultFile    = "result.json"
	SummaryFile   = "summary.md"
	TPSPlotFile   = "tps.png"
	ResourcesFile = "resources.png"
)

// WriteOutputs writes result.json, summary.md, tps.png and (when the node
// was sampled) resources.png into dir.
func WriteOutputs(dir string, r *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ResultFile), append(js, '\n'), 0o644); err != nil {
		return err
	}
	var md strings.Builder
	WriteMarkdown(&md, r)
	if err := os.WriteFile(filepath.Join(dir, SummaryFile), []byte(md.String()), 0o644); err != nil {
		return err
	}
	if err := savePNG(filepath.Join(dir, TPSPlotFile), 8*vg.Inch, 4*vg.Inch, tpsPlot(r)); err != nil {
		return fmt.Errorf("bench: TPS plot: %w", err)
	}
	if len(r.Samples) > 0 {
		if err := savePNG(filepath.Join(dir, ResourcesFile), 8*vg.Inch, 6*vg.Inch, resourcePlots(r)...); err != nil {
			return fmt.Errorf("bench: resource plot: %w", err)
		}
	}
	return nil
}

// ReadResult reads a result.json.
func ReadResult(path string) (*Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := new(Result)
	if err := json.Unmarshal(data, r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// thousands formats n with thin separators: 1234567 → "1,234,567".
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func gas(datoshi int64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.8f", float64(datoshi)/GASFactor), "0"), ".")
}

// WriteMarkdown writes the human summary of a run.
func WriteMarkdown(w io.Writer, r *Result) {
	title := "n3node bench"
	if r.Description != "" {
		title += ": " + r.Description
	}
	fmt.Fprintf(w, "# %s\n\n", title)
	fmt.Fprintf(w, "Started %s.\n\n| | |\n|---|---|\n", r.Started.Format("2006-01-02 15:04:05 MST"))
	row := func(k, format string, args ...any) { fmt.Fprintf(w, "| %s | %s |\n", k, fmt.Sprintf(format, args...)) }
	n := &r.Node
	pid := ""
	if n.Pid > 0 {
		pid = fmt.Sprintf(", pid %d", n.Pid)
	}
	row("Node", "%s at %s%s", n.UserAgent, strings.Join(n.Endpoints, ", "), pid)
	row("Network", "magic %d, %d ms blocks, %d validator(s), mempool %s, fee/byte %d, exec fee factor %d",
		n.Magic, n.MSPerBlock, n.Validators, thousands(int64(n.MemPool)), n.Fees.FeePerByte, n.Fees.ExecFeeFactor)
	wl := &r.Workload
	src := "generated"
	if wl.Cached {
		src = "cached"
	}
	row("Workload", "%s transfers of token %s by %s, %d bytes each, VUB %d, fees %s / %s GAS (needed %s), %s",
		thousands(int64(wl.Count)), wl.Token, wl.Sender, wl.TxSize, wl.VUB, gas(wl.SystemFee), gas(wl.NetworkFee), gas(wl.RequiredNetFee), src)
	ld := &r.Load
	rate := ""
	if ld.Rate > 0 {
		rate = fmt.Sprintf(", %g tx/s", ld.Rate)
	}
	if r.Client != nil {
		row("Load", "sent by %s (its own report: TPS %.1f, RPS %.1f, %s txs, %s errors)",
			r.Client.Name, r.Client.TPS, r.Client.RPS, thousands(r.Client.Txs), thousands(r.Client.Errors))
	} else {
		row("Load", "%s mode, %d workers%s, time limit %s, -502 backoff %g ms", ld.Mode, ld.Workers, rate, ld.TimeLimit, ld.BackoffMS)
	}
	t := &r.TPS
	row("**TPS**", "**%.1f** (%s txs in %.3f s, blocks %d..%d, largest block %s txs)",
		t.TPS, thousands(int64(t.Txs)), float64(t.WindowMS)/1000, t.FirstBlock, t.LastBlock, thousands(int64(t.MaxBlockTxs)))
	if t.Early > 0 {
		late := "window under 120 s"
		if t.Late > 0 {
			late = fmt.Sprintf("%.1f", t.Late)
		}
		row("TPS in phases", "first 20 s: %.1f; 60–120 s: %s", t.Early, late)
	}
	s := &r.Send
	if r.Client != nil {
		row("**RPS**", "**%.1f** (the client's figure)", r.RPS)
	} else {
		row("**RPS**", "**%.1f** (%s accepted in %.3f s, stopped: %s)", s.RPS, thousands(s.Accepted), s.DurationMS/1000, s.Stopped)
		row("Mempool-full answers / errors", "%s / %s", thousands(s.MempoolFull), thousands(s.Errors))
	}
	complete := "incomplete"
	if r.Drain.Complete {
		complete = "complete"
	}
	row("After sending", "%s txs in blocks; drain %s in %.1f s (%s)", thousands(r.InBlocks), complete, r.Drain.Seconds, r.Drain.Reason)
	if rs := &r.Resources; rs.Samples > 0 {
		row("Node CPU", "%.1f %% of the host (mean of %d samples, window %s; max %.1f %%)", rs.CPUMean, rs.Samples, rs.Window, rs.CPUMax)
		row("Node RSS", "%.1f MiB mean, %.1f MiB max", rs.RSSMeanMiB, rs.RSSMaxMiB)
		row("Bench client CPU / host busy / other load", "%.1f %% / %.1f %% / %.1f %%", rs.ClientCPU, rs.HostBusyMean, rs.OtherCPU)
	} else {
		row("Node CPU / RSS", "not sampled (no local pid)")
	}
	if len(s.ErrorKinds) > 0 {
		fmt.Fprintf(w, "\n## Errors\n\n| count | error |\n|---|---|\n")
		kinds := make([]string, 0, len(s.ErrorKinds))
		for k := range s.ErrorKinds {
			kinds = append(kinds, k)
		}
		slices.SortFunc(kinds, func(a, b string) int { return int(s.ErrorKinds[b] - s.ErrorKinds[a]) })
		for _, k := range kinds {
			fmt.Fprintf(w, "| %d | %s |\n", s.ErrorKinds[k], strings.ReplaceAll(k, "|", "\\|"))
		}
	}
	fmt.Fprintf(w, "\nTPS = transactions in blocks %d..%d × 1000 / (timestamp(%d) − timestamp(%d)); RPS = accepted / sending time.\n",
		t.FirstBlock, t.LastBlock, t.LastBlock, t.StartBlock)
	if len(r.Samples) > 0 {
		fmt.Fprintf(w, "\n![TPS per block](%s)\n\n![CPU and memory](%s)\n", TPSPlotFile, ResourcesFile)
	} else {
		fmt.Fprintf(w, "\n![TPS per block](%s)\n", TPSPlotFile)
	}
}

var (
	blue   = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	orange = color.RGBA{R: 255, G: 127, B: 14, A: 255}
	grey   = color.RGBA{R: 120, G: 120, B: 120, A: 255}
	red    = color.RGBA{R: 214, G: 39, B: 40, A: 255}
)

func line(xy plotter.XYs, c color.Color, dashed bool) *plotter.Line {
	l, _ := plotter.NewLine(xy) // fails only on NaN/Inf, which we never produce
	if l == nil {
		l = &plotter.Line{XYs: plotter.XYs{}}
	}
	l.Color = c
	l.Width = vg.Points(1.2)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	return l
}

func tpsPlot(r *Result) *plot.Plot {
	p := plot.New()
	p.Title.Text = "Transactions per second, per block"
	if r.Description != "" {
		p.Title.Text += " — " + r.Description
	}
	p.X.Label.Text = "seconds since the window start"
	p.Y.Label.Text = "TPS"
	p.Y.Min = 0
	// Steps: a block's TPS holds over the interval since the block before.
	xy := make(plotter.XYs, 0, 2*len(r.PerBlock))
	prev := 0.0
	for _, b := range r.PerBlock {
		xy = append(xy, plotter.XY{X: prev, Y: b.TPS}, plotter.XY{X: b.Seconds, Y: b.TPS})
		prev = b.Seconds
	}
	top := r.TPS.TPS
	for _, b := range r.PerBlock {
		top = max(top, b.TPS)
	}
	p.Y.Max = top * 1.1
	l := line(xy, blue, false)
	p.Add(l, plotter.NewGrid())
	p.Legend.Add("per block", l)
	if len(r.PerBlock) > 0 {
		end := r.PerBlock[len(r.PerBlock)-1].Seconds
		m := line(plotter.XYs{{X: 0, Y: r.TPS.TPS}, {X: end, Y: r.TPS.TPS}}, orange, true)
		p.Add(m)
		p.Legend.Add(fmt.Sprintf("run: %.0f", r.TPS.TPS), m)
	}
	p.Legend.Top = true
	return p
}

func resourcePlots(r *Result) []*plot.Plot {
	t0 := r.Samples[0].UnixMilli
	if r.TPS.StartMS > 0 && int64(r.TPS.StartMS) > t0 {
		t0 = int64(r.TPS.StartMS)
	}
	var cpu, self, other, rss plotter.XYs
	for _, s := range r.Samples {
		x := float64(s.UnixMilli-t0) / 1000
		cpu = append(cpu, plotter.XY{X: x, Y: s.CPU})
		self = append(self, plotter.XY{X: x, Y: s.SelfCPU})
		other = append(other, plotter.XY{X: x, Y: max(0, s.HostBusy-s.CPU-s.SelfCPU)})
		rss = append(rss, plotter.XY{X: x, Y: float64(s.RSS) / mib})
	}
	pc := plot.New()
	pc.Title.Text = "CPU, % of the whole host"
	pc.Y.Label.Text = "%"
	pc.Y.Min, pc.Y.Max = 0, 100
	lc, ls, lo := line(cpu, blue, false), line(self, grey, true), line(other, red, true)
	lo.Width = vg.Points(0.8)
	pc.Add(lo, lc, ls, plotter.NewGrid())
	pc.Legend.Add("node", lc)
	pc.Legend.Add("bench client", ls)
	pc.Legend.Add("other processes", lo)
	pc.Legend.Top = true
	pm := plot.New()
	pm.Title.Text = "Node memory (VmRSS)"
	pm.X.Label.Text = "seconds since the TPS window start"
	pm.Y.Label.Text = "MiB"
	pm.Y.Min = 0
	pm.Add(line(rss, orange, false), plotter.NewGrid())
	return []*plot.Plot{pc, pm}
}

// savePNG draws the plots stacked vertically into one PNG file.
func savePNG(path string, w, h vg.Length, plots ...*plot.Plot) error {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	rows := make([][]*plot.Plot, len(plots))
	for i, p := range plots {
		rows[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadY: vg.Points(8)}
	canvases := plot.Align(rows, tiles, dc)
	for i, p := range plots {
		p.Draw(canvases[i][0])
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package metrics

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// neoGoNames are the metric names neo-go 0.120.0 exports (its
// pkg/core/prometheus.go, pkg/core/stateroot/prometheus.go,
// pkg/network/prometheus.go, pkg/services/rpcsrv/prometheus.go and
// cli/server/metrics.go), without the per-RPC-method histograms, which
// exist for the methods the node serves.
var neoGoNames = []string{
	"neogo_block_height", "neogo_persisted_height", "neogo_estimated_persist_velocity",
	"neogo_header_height", "neogo_mempool_unsorted_tx", "neogo_verified_state_height",
	"neogo_network_size", "neogo_peers_connected", "neogo_server_id", "neogo_pool_count",
	"neogo_block_queue_length", "neogo_notarypool_unsorted_tx", "neogo_wsconnections_count",
	"neogo_version",
	"neogo_p2p_cmdversion_time", "neogo_p2p_cmdverack_time", "neogo_p2p_cmdgetaddr_time",
	"neogo_p2p_cmdaddr_time", "neogo_p2p_cmdping_time", "neogo_p2p_cmdpong_time",
	"neogo_p2p_cmdgetheaders_time", "neogo_p2p_cmdheaders_time", "neogo_p2p_cmdgetblocks_time",
	"neogo_p2p_cmdmempool_time", "neogo_p2p_cmdinv_time", "neogo_p2p_cmdgetdata_time",
	"neogo_p2p_cmdgetblockbyindex_time", "neogo_p2p_cmdnotfound_time", "neogo_p2p_cmdtx_time",
	"neogo_p2p_cmdblock_time", "neogo_p2p_cmdextensible_time", "neogo_p2p_cmdp2pnotaryrequest_time",
	"neogo_p2p_cmdgetmptdata_time", "neogo_p2p_cmdmptdata_time", "neogo_p2p_cmdreject_time",
	"neogo_p2p_cmdfilterload_time", "neogo_p2p_cmdfilteradd_time", "neogo_p2p_cmdfilterclear_time",
	"neogo_p2p_cmdmerkleblock_time", "neogo_p2p_cmdalert_time",
}

// TestNeoGoNames: every metric name neo-go 0.120.0 exports is exported,
// with the Source's values for the gauges (server_id and version as
// labels), P2P and RPC handling times observed under neo-go's names, and
// n3node's own metrics beside them.
func TestNeoGoNames(t *testing.T) {
	reg := NewRegistry()
	m := NewNode(reg, fakeSource{})
	m.AddRPCMethod("getblockcount")
	m.AddRPCMethod("getblockcount") // once
	m.ObserveRPC("getblockcount", time.Millisecond, true)
	m.ObserveP2P("transaction", time.Millisecond)
	m.ObserveP2P("block", time.Millisecond)
	m.ObserveP2P("command(0x99)", time.Millisecond) // not timed by neo-go: ignored
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	names := exportedNames(body)
	for _, n := range append(slices.Clone(neoGoNames), "neogo_rpc_getblockcount_time", "n3node_block_height") {
		if !slices.Contains(names, n) {
			t.Errorf("%s is not exported", n)
		}
	}
	for _, want := range []string{
		"neogo_block_height 42", "neogo_persisted_height 41", "neogo_header_height 50",
		"neogo_mempool_unsorted_tx 7", "neogo_peers_connected 3", "neogo_pool_count 9",
		"neogo_network_size 12", "neogo_block_queue_length 8", "neogo_notarypool_unsorted_tx 2",
		"neogo_verified_state_height 40", "neogo_wsconnections_count 4",
		"neogo_estimated_persist_velocity 500", `neogo_server_id{server_id="777"} 1`,
		`neogo_version{version="0.1.0-dev"} 1`, "neogo_rpc_getblockcount_time_count 1",
		"neogo_p2p_cmdtx_time_count 1", "neogo_p2p_cmdblock_time_count 1",
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("no %q", want)
		}
	}
}

var metricName = regexp.MustCompile(`(?m)^# TYPE (\S+) `)

func exportedNames(body string) []string {
	var out []string
	for _, m := range metricName.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestGrafanaDashboard: docs/grafana/n3node.json is a Grafana dashboard
// whose every query uses metrics the node exports.
func TestGrafanaDashboard(t *testing.T) {
	data, err := os.ReadFile("../../docs/grafana/n3node.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry()
	m := NewNode(reg, fakeSource{})
	m.AddRPCMethod("getblockcount")
	m.ObserveRPC("getblockcount", time.Millisecond, true)
	m.ObserveBlock("network", time.Millisecond, 1)
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	names := exportedNames(rec.Body.String())
	used := regexp.MustCompile(`\b(neogo|n3node|go|process)_[a-z0-9_]+`)
	n := 0
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			for _, name := range used.FindAllString(tg.Expr, -1) {
				base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_count"), "_sum")
				if !slices.Contains(names, name) && !slices.Contains(names, base) && !strings.HasPrefix(base, "neogo_rpc_") {
					t.Errorf("panel %q: %s is not exported", p.Title, name)
				}
				n++
			}
		}
	}
	if n < 10 {
		t.Fatalf("%d metric references in %d panels", n, len(dash.Panels))
	}
}

package metrics

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// NeoGoNamespace prefixes the metrics exported under neo-go 0.120.0's
// names, so that its dashboards and alerts work unchanged. They are
// exported beside n3node's own (Namespace) whenever metrics are on.
const NeoGoNamespace = "neogo"

// neoGoP2PCommands are the P2P commands neo-go times, by n3node's command
// name (message.Command.String). neo-go names each histogram
// neogo_p2p_cmd<name>_time after its Go constant (CMDTX for transaction).
var neoGoP2PCommands = []string{
	"version", "verack", "getaddr", "addr", "ping", "pong", "getheaders", "headers",
	"getblocks", "mempool", "inv", "getdata", "getblockbyindex", "notfound", "transaction",
	"block", "extensible", "p2pnotaryrequest", "getmptdata", "mptdata", "reject",
	"filterload", "filteradd", "filterclear", "merkleblock", "alert",
}

func neoGoP2PName(cmd string) string {
	if cmd == "transaction" {
		cmd = "tx"
	}
	return "p2p_cmd" + cmd + "_time"
}

// neoGo holds the metrics under neo-go's names: scrape-time gauges read
// from the Source and the P2P and RPC handling-time histograms.
type neoGo struct {
	src Source
	reg prometheus.Registerer

	blockHeight, persistedHeight, velocity, headerHeight, mempool *prometheus.Desc
	networkSize, peers, poolCount, queue, notaryPool, stateHeight *prometheus.Desc
	wsConns, serverID, version                                    *prometheus.Desc

	p2p map[string]prometheus.Histogram

	mu  sync.RWMutex
	rpc map[string]prometheus.Histogram
}

func neoGoDesc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(NeoGoNamespace, "", name), help, labels, nil)
}

func newNeoGo(reg prometheus.Registerer, src Source) *neoGo {
	g := &neoGo{
		src:             src,
		reg:             reg,
		blockHeight:     neoGoDesc("block_height", "Index of processed block"),
		persistedHeight: neoGoDesc("persisted_height", "Persisted block count"),
		velocity:        neoGoDesc("estimated_persist_velocity", "Estimation of persist velocity per cycle (1s by default)"),
		headerHeight:    neoGoDesc("header_height", "Header height"),
		mempool:         neoGoDesc("mempool_unsorted_tx", "Mempool unsorted transactions"),
		networkSize:     neoGoDesc("network_size", "Estimated network size"),
		peers:           neoGoDesc("peers_connected", "Number of connected peers"),
		poolCount:       neoGoDesc("pool_count", "Number of available node addresses"),
		queue:           neoGoDesc("block_queue_length", "Block queue length"),
		notaryPool:      neoGoDesc("notarypool_unsorted_tx", "Notary request pool fallback txs"),
		stateHeight:     neoGoDesc("verified_state_height", "Verified state height"),
		wsConns:         neoGoDesc("wsconnections_count", "WS connections count (local and remote clients)"),
		serverID:        neoGoDesc("server_id", "network server ID", "server_id"),
		version:         neoGoDesc("version", "NeoGo version", "version"),
		p2p:             make(map[string]prometheus.Histogram, len(neoGoP2PCommands)),
		rpc:             make(map[string]prometheus.Histogram),
	}
	reg.MustRegister(g)
	for _, cmd := range neoGoP2PCommands {
		h := prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: NeoGoNamespace,
			Name:      neoGoP2PName(cmd),
			Help:      "P2P CMD" + cmd + " handling time",
		})
		reg.MustRegister(h)
		g.p2p[cmd] = h
	}
	return g
}

// Describe implements prometheus.Collector.
func (g *neoGo) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{g.blockHeight, g.persistedHeight, g.velocity, g.headerHeight,
		g.mempool, g.networkSize, g.peers, g.poolCount, g.queue, g.notaryPool, g.stateHeight,
		g.wsConns, g.serverID, g.version} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (g *neoGo) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	s := g.src
	_, _, velocity := s.PersistStats()
	peers, known := s.PeerCount(), s.KnownAddresses()
	gauge(g.blockHeight, float64(s.BlockHeight()))
	gauge(g.persistedHeight, float64(s.PersistedHeight()))
	gauge(g.velocity, float64(velocity))
	gauge(g.headerHeight, float64(s.HeaderHeight()))
	gauge(g.mempool, float64(s.MempoolSize()))
	gauge(g.networkSize, float64(peers+known))
	gauge(g.peers, float64(peers))
	gauge(g.poolCount, float64(known))
	gauge(g.queue, float64(s.BlockQueueLen()))
	gauge(g.notaryPool, float64(s.NotaryPoolSize()))
	gauge(g.stateHeight, float64(s.VerifiedStateHeight()))
	gauge(g.wsConns, float64(s.WSClients()))
	version, id := s.Identity()
	gauge(g.serverID, 1, strconv.FormatUint(uint64(id), 10))
	gauge(g.version, 1, version)
}

// addRPC registers neogo_rpc_<method>_time for method (once).
func (g *neoGo) addRPC(method string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.rpc[method]; ok {
		return
	}
	h := prometheus.NewHistogram(prometheus.HistogramOpts{
		Namespace: NeoGoNamespace,
		Name:      "rpc_" + strings.ToLower(method) + "_time",
		Help:      "RPC " + method + " call handling time",
	})
	if err := g.reg.Register(h); err != nil {
		return // a name prometheus refuses: the n3node_ metrics still count the method
	}
	g.rpc[method] = h
}

func (g *neoGo) observeRPC(method string, d time.Duration) {
	g.mu.RLock()
	h := g.rpc[method]
	g.mu.RUnlock()
	if h != nil {
		h.Observe(d.Seconds())
	}
}

// AddRPCMethod makes the neo-go-named histogram of an RPC method exist
// before its first call (neo-go registers one per method at start).
func (n *Node) AddRPCMethod(method string) {
	if n == nil {
		return
	}
	n.neogo.addRPC(method)
}

// ObserveP2P records the handling time of a P2P message by its command
// name (message.Command.String); commands neo-go does not time are
// ignored.
func (n *Node) ObserveP2P(cmd string, d time.Duration) {
	if n == nil {
		return
	}
	if h := n.neogo.p2p[cmd]; h != nil {
		h.Observe(d.Seconds())
	}
}

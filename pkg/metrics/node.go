package metrics

import (
	"time"

	"github.com/n3node/n3node/pkg/core/storage"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Namespace prefixes n3node's own metrics. The names after it follow
// neo-go's (neogo_block_height is n3node_block_height) where neo-go has
// the metric; the neo-go names themselves are exported too
// (NeoGoNamespace).
const Namespace = "n3node"

// Source is what Node reads at scrape time. Methods must be safe for
// concurrent use and cheap.
type Source interface {
	// BlockHeight is the index of the latest committed block.
	BlockHeight() uint32
	// HeaderHeight is the index of the latest known header.
	HeaderHeight() uint32
	// MempoolSize is the number of pooled transactions.
	MempoolSize() int
	// PeerCount is the number of connected peers.
	PeerCount() int
	// BlockQueueLen is the number of blocks waiting to be added.
	BlockQueueLen() int
	// PersistStats are the keys written to disk, the writes, and the
	// estimated keys per write the disk sustains.
	PersistStats() (keys, persists int64, velocity int)
	// PendingKeys is the number of changed keys not yet on disk.
	PendingKeys() int
	// WritesPaused is nil while the database takes writes, else the error
	// of the write it refused (the node then refuses blocks and
	// transactions until a retry succeeds).
	WritesPaused() error

	// For the neo-go-named metrics (NeoGoNamespace):
	// PersistedHeight is the highest block fully written to disk.
	PersistedHeight() uint32
	// KnownAddresses is the number of peer addresses known but not
	// connected.
	KnownAddresses() int
	// NotaryPoolSize is the number of pooled notary requests (0 without
	// P2PSigExtensions).
	NotaryPoolSize() int
	// VerifiedStateHeight is the height of the latest validated state root.
	VerifiedStateHeight() uint32
	// WSClients is the number of WebSocket RPC clients.
	WSClients() int
	// Identity is the node's version and P2P server id.
	Identity() (version string, serverID uint32)
}

// NewRegistry returns a registry with the Go runtime and process
// collectors.
func NewRegistry() *prometheus.Registry {
	r := prometheus.NewRegistry()
	r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
}

// Node holds the node's metrics. The zero value is not usable; make one
// with NewNode. A nil *Node ignores every observation, so callers need no
// checks when metrics are off.
type Node struct {
	src Source

	blockHeight, headerHeight, mempool, peers, queue *prometheus.Desc
	persistedKeys, persists, velocity, pending       *prometheus.Desc
	writesPaused                                     *prometheus.Desc

	blockTime *prometheus.HistogramVec
	blockTxs  prometheus.Histogram
	rpcCalls  *prometheus.CounterVec
	rpcTime   *prometheus.HistogramVec

	neogo *neoGo
}

func desc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", name), help, nil, nil)
}

// NewNode registers the node metrics in reg and returns them; src feeds
// the gauges.
func NewNode(reg prometheus.Registerer, src Source) *Node {
	n := &Node{
		src:           src,
		blockHeight:   desc("block_height", "Index of the latest committed block"),
		headerHeight:  desc("header_height", "Index of the latest known header"),
		mempool:       desc("mempool_unsorted_tx", "Transactions in the memory pool"),
		peers:         desc("peers_connected", "Connected peers"),
		queue:         desc("block_queue_length", "Blocks waiting in the block queue"),
		persistedKeys: desc("persisted_keys_total", "Keys written to the disk store"),
		persists:      desc("persists_total", "Writes of the in-memory layer to the disk store"),
		velocity:      desc("estimated_persist_velocity", "Estimated keys per write the disk store sustains"),
		pending:       desc("pending_keys", "Changed keys held in memory, not yet on disk"),
		writesPaused: prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", "db_writes_paused"),
			"1 while the database refuses writes and the node refuses blocks and transactions; reason: disk_full, write_error (none when 0)",
			[]string{"reason"}, nil),
		blockTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace,
			Name:      "block_add_seconds",
			Help:      "Time to verify, execute and commit a block, by origin (consensus, network, rpc)",
			Buckets:   prometheus.ExponentialBuckets(0.001, 2, 15),
		}, []string{"origin"}),
		blockTxs: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: Namespace,
			Name:      "block_transactions",
			Help:      "Transactions per added block",
			Buckets:   []float64{0, 1, 10, 100, 500, 1000, 5000, 10000, 50000},
		}),
		rpcCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace,
			Name:      "rpc_requests_total",
			Help:      "JSON-RPC calls by method and outcome (ok, error)",
		}, []string{"method", "result"}),
		rpcTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace,
			Name:      "rpc_request_seconds",
			Help:      "JSON-RPC call handling time by method",
			Buckets:   prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"method"}),
	}
	reg.MustRegister(n, n.blockTime, n.blockTxs, n.rpcCalls, n.rpcTime)
	n.neogo = newNeoGo(reg, src)
	return n
}

// Describe implements prometheus.Collector (the scrape-time gauges).
func (n *Node) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{n.blockHeight, n.headerHeight, n.mempool, n.peers, n.queue,
		n.persistedKeys, n.persists, n.velocity, n.pending, n.writesPaused} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (n *Node) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
	}
	gauge(n.blockHeight, float64(n.src.BlockHeight()))
	gauge(n.headerHeight, float64(n.src.HeaderHeight()))
	gauge(n.mempool, float64(n.src.MempoolSize()))
	gauge(n.peers, float64(n.src.PeerCount()))
	gauge(n.queue, float64(n.src.BlockQueueLen()))
	keys, persists, velocity := n.src.PersistStats()
	ch <- prometheus.MustNewConstMetric(n.persistedKeys, prometheus.CounterValue, float64(keys))
	ch <- prometheus.MustNewConstMetric(n.persists, prometheus.CounterValue, float64(persists))
	gauge(n.velocity, float64(velocity))
	gauge(n.pending, float64(n.src.PendingKeys()))
	paused, reason := 0.0, "none"
	if err := n.src.WritesPaused(); err != nil {
		paused, reason = 1, "write_error"
		if storage.IsDiskFull(err) {
			reason = "disk_full"
		}
	}
	ch <- prometheus.MustNewConstMetric(n.writesPaused, prometheus.GaugeValue, paused, reason)
}

// ObserveBlock records a block added to the chain: where it came from, how
// long adding it took and how many transactions it had.
func (n *Node) ObserveBlock(origin string, d time.Duration, txs int) {
	if n == nil {
		return
	}
	n.blockTime.WithLabelValues(origin).Observe(d.Seconds())
	n.blockTxs.Observe(float64(txs))
}

// ObserveRPC records one JSON-RPC call.
func (n *Node) ObserveRPC(method string, d time.Duration, ok bool) {
	if n == nil {
		return
	}
	res := "ok"
	if !ok {
		res = "error"
	}
	n.rpcCalls.WithLabelValues(method, res).Inc()
	n.rpcTime.WithLabelValues(method).Observe(d.Seconds())
	n.neogo.observeRPC(method, d)
}

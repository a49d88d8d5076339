package network

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/network/message"
)

// Defaults for settings the YAML configuration does not carry, or leaves
// at zero.
const (
	DefaultDialTimeout       = 5 * time.Second
	DefaultProtoTickInterval = 5 * time.Second
	DefaultPingTimeout       = 90 * time.Second
	DefaultHandshakeTimeout  = 10 * time.Second
	DefaultTimePerBlock      = 15 * time.Second
	// DefaultMaxDialAttempts is how many dials in a row may fail before an
	// address is considered gone (neo-go connRetries).
	DefaultMaxDialAttempts = 3
	// DefaultMaxBackoff bounds the wait before an address is tried again.
	DefaultMaxBackoff = 5 * time.Minute
)

// ServerConfig configures a Server. NewServerConfig fills it from a node
// configuration; tests and tools may build it directly. Zero values get
// the defaults listed with each field.
type ServerConfig struct {
	// Magic is the network magic; peers with another one are refused.
	Magic uint32
	// UserAgent is sent in the version message, e.g. "/n3node:0.1.0/".
	UserAgent string
	// Addresses to listen on ("host:port"; port 0 picks one). With none
	// the server only dials out and announces no TcpServer capability.
	Addresses []config.AnnounceableAddress
	// Seeds are dialed first and retried forever (with backoff).
	Seeds []string
	// Relay announces the FullNode capability (with our height) and makes
	// the server relay transactions and blocks.
	Relay bool
	// Archival announces the ArchivalNode capability (set it unless the
	// ledger removes untraceable blocks).
	Archival bool
	// DisableCompression announces DisableCompression and never compresses.
	DisableCompression bool
	// P2PSigExtensions accepts neo-go's P2PNotaryRequest inventory type.
	P2PSigExtensions bool
	// ArchivalNodesSync requests blocks that a light peer (one without the
	// ArchivalNode capability) may have dropped only from archival peers:
	// those more than MaxTraceableBlocks (plus the block queue) below the
	// peer's height (neo-go's ArchivalNodesSync).
	ArchivalNodesSync bool
	// MaxTraceableBlocks is the protocol's value, used by
	// ArchivalNodesSync when the Ledger has no GetMaxTraceableBlocks.
	MaxTraceableBlocks uint32
	// StateRootInHeader decodes block, headers and merkleblock payloads
	// with the previous state root in the header (the network's setting).
	StateRootInHeader bool

	MinPeers         int // default config.DefaultMinPeers when < 0
	MaxPeers         int // default config.DefaultMaxPeers when <= 0
	AttemptConnPeers int // default config.DefaultAttemptConnPeers when <= 0
	// BroadcastFactor (0..100) moves the relay fan-out from two thirds of
	// the peers (0) to all of them (100).
	BroadcastFactor int
	// ExtensiblePoolSize is the extensible pool's per-sender capacity.
	ExtensiblePoolSize int
	// BroadcastTxsBatchDelay batches transaction announcements (default
	// min(50ms, TimePerBlock/20)).
	BroadcastTxsBatchDelay time.Duration

	DialTimeout       time.Duration // default DefaultDialTimeout
	ProtoTickInterval time.Duration // default DefaultProtoTickInterval
	PingInterval      time.Duration // default config.DefaultPingInterval
	PingTimeout       time.Duration // default DefaultPingTimeout
	// HandshakeTimeout bounds the version/verack exchange (n3node's own
	// setting; default DefaultHandshakeTimeout).
	HandshakeTimeout time.Duration
	// TimePerBlock is the block interval; it scales a few timeouts.
	TimePerBlock time.Duration

	// MaxDialAttempts: an address whose dials fail this many times in a
	// row is gone and not dialed again (seeds excepted). Default
	// DefaultMaxDialAttempts.
	MaxDialAttempts int
	// RetryBackoff is the first wait before an address is retried; it
	// doubles with each failure up to MaxBackoff. Default: DialTimeout.
	RetryBackoff time.Duration
	MaxBackoff   time.Duration // default DefaultMaxBackoff

	// SyncTimeout is how long a header or block request may go unanswered
	// before it is asked of another peer (default two block intervals,
	// within [2s, 30s]). A peer that leaves three in a row unanswered is
	// dropped.
	SyncTimeout time.Duration

	// BlockQueueSize is the block queue capacity in heights (default
	// bqueue.DefaultCapacity).
	BlockQueueSize int

	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
	// OnMessage, when set, is told how long each message from a
	// handshaked peer took to handle (metrics).
	OnMessage func(cmd message.Command, took time.Duration)
	// Now is the clock (default time.Now). Every timeout decision reads it.
	Now func() time.Time
	// Rand is the source of the node id, peer choices and dial jitter
	// (default: seeded from crypto/rand). The server locks around it.
	Rand *rand.Rand
	// Listen and Dial replace the TCP transport (tests use them for
	// in-memory networks). Defaults: net.Listen and net.Dialer.
	Listen func(network, address string) (net.Listener, error)
	Dial   func(ctx context.Context, network, address string) (net.Conn, error)
}

// NewServerConfig builds a ServerConfig from a node configuration, as
// neo-go's network.NewServerConfig does.
func NewServerConfig(cfg config.Config, userAgent string) (ServerConfig, error) {
	app := cfg.ApplicationConfiguration
	proto := cfg.ProtocolConfiguration
	addrs, err := app.GetAddresses()
	if err != nil {
		return ServerConfig{}, fmt.Errorf("network: P2P addresses: %w", err)
	}
	tpb := proto.TimePerBlock
	if tpb <= 0 {
		tpb = DefaultTimePerBlock
	}
	p2p := app.P2P.WithDefaults(tpb)
	return ServerConfig{
		Magic:                  uint32(proto.Magic),
		UserAgent:              userAgent,
		Addresses:              addrs,
		Seeds:                  proto.SeedList,
		Relay:                  app.Relay,
		Archival:               !app.RemoveUntraceableBlocks,
		DisableCompression:     p2p.DisableCompression,
		P2PSigExtensions:       proto.P2PSigExtensions,
		StateRootInHeader:      proto.StateRootInHeader,
		ArchivalNodesSync:      app.ArchivalNodesSync,
		MaxTraceableBlocks:     proto.MaxTraceableBlocks,
		MinPeers:               p2p.MinPeers,
		MaxPeers:               p2p.MaxPeers,
		AttemptConnPeers:       p2p.AttemptConnPeers,
		BroadcastFactor:        p2p.BroadcastFactor,
		ExtensiblePoolSize:     p2p.ExtensiblePoolSize,
		BroadcastTxsBatchDelay: p2p.BroadcastTxsBatchDelay,
		DialTimeout:            p2p.DialTimeout,
		ProtoTickInterval:      p2p.ProtoTickInterval,
		PingInterval:           p2p.PingInterval,
		PingTimeout:            p2p.PingTimeout,
		TimePerBlock:           tpb,
	}, nil
}

// withDefaults fills zero settings.
func (c ServerConfig) withDefaults() ServerConfig {
	config.SetIfNonPositive(&c.TimePerBlock, DefaultTimePerBlock)
	if c.MinPeers < 0 {
		c.MinPeers = config.DefaultMinPeers
	}
	config.SetIfNonPositive(&c.MaxPeers, config.DefaultMaxPeers)
	config.SetIfNonPositive(&c.AttemptConnPeers, config.DefaultAttemptConnPeers)
	if c.BroadcastFactor < 0 || c.BroadcastFactor > 100 {
		c.BroadcastFactor = config.DefaultBroadcastFactor
	}
	if c.BroadcastTxsBatchDelay <= 0 {
		c.BroadcastTxsBatchDelay = min(50*time.Millisecond, c.TimePerBlock/20)
	}
	config.SetIfNonPositive(&c.DialTimeout, DefaultDialTimeout)
	config.SetIfNonPositive(&c.ProtoTickInterval, DefaultProtoTickInterval)
	config.SetIfNonPositive(&c.PingInterval, config.DefaultPingInterval)
	config.SetIfNonPositive(&c.PingTimeout, DefaultPingTimeout)
	config.SetIfNonPositive(&c.HandshakeTimeout, DefaultHandshakeTimeout)
	config.SetIfNonPositive(&c.MaxDialAttempts, DefaultMaxDialAttempts)
	config.SetIfNonPositive(&c.RetryBackoff, c.DialTimeout)
	config.SetIfNonPositive(&c.MaxBackoff, DefaultMaxBackoff)
	if c.SyncTimeout <= 0 {
		c.SyncTimeout = min(max(2*c.TimePerBlock, 2*time.Second), 30*time.Second)
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Rand == nil {
		c.Rand = rand.New(rand.NewChaCha8(seed()))
	}
	if c.Listen == nil {
		c.Listen = net.Listen
	}
	if c.Dial == nil {
		var d net.Dialer
		c.Dial = d.DialContext
	}
	return c
}

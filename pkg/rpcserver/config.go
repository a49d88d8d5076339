package rpcserver

import (
	"io"
	"log/slog"
	"time"

	"github.com/n3node/n3node/pkg/config"
)

// minSessionLifetime is the floor of the default session lifetime
// (max(TimePerBlock, 5s)). New applies the defaults of package config
// (neo-go 0.120.0's) to zero or, where neo-go does so, negative settings.
const minSessionLifetime = 5 * time.Second

// Config holds the server settings. The fields mirror neo-go's RPC section
// (ApplicationConfiguration.RPC) plus the few protocol values the server
// needs; the config package maps YAML onto it.
type Config struct {
	// Addresses are "host:port" listen addresses for plain HTTP.
	Addresses []string
	// TLSConfig, if Enabled, adds HTTPS listeners.
	TLSConfig TLSConfig

	// EnableCORSWorkaround answers preflight OPTIONS requests, adds
	// Access-Control-Allow-Origin: * to responses and accepts WebSocket
	// connections from any origin.
	EnableCORSWorkaround bool
	// MaxRequestBodyBytes limits an HTTP request body (default 1 MiB).
	MaxRequestBodyBytes int
	// MaxRequestHeaderBytes limits request headers (net/http semantics).
	MaxRequestHeaderBytes int
	// MaxWebSocketClients limits concurrent WebSocket connections; 0 means
	// the default 64, a negative value refuses every connection.
	MaxWebSocketClients int
	// MaxWebSocketFeeds is the number of subscriptions per connection
	// (0 means the default 16).
	MaxWebSocketFeeds int
	// MempoolSubscriptionsEnabled allows filtered mempool_event
	// subscriptions (neo-go checks it only when a filter is given).
	MempoolSubscriptionsEnabled bool
	// P2PSigExtensions enables notary_request_event subscriptions.
	P2PSigExtensions bool
	// MaxBlockSize (protocol) sizes the WebSocket message limit:
	// MaxBlockSize*4/3 + 1024 bytes, enough for a base64 block.
	MaxBlockSize uint32

	// MaxGasInvoke is the GAS limit (in datoshi, 1e-8 GAS) of invoke*
	// calls; it is read by those handlers.
	MaxGasInvoke int64
	// DirectRelay makes sendrawtransaction relay directly to peers.
	DirectRelay bool

	// SessionEnabled turns on iterator sessions for invoke* results.
	SessionEnabled bool
	// SessionExpansionEnabled also expands iterators in place.
	SessionExpansionEnabled bool
	// SessionLifetime is how long an untouched session lives (default
	// max(TimePerBlock, 5s)).
	SessionLifetime time.Duration
	// SessionBackedByMPT keeps sessions on historic MPT state.
	SessionBackedByMPT bool
	// SessionPoolSize bounds concurrent sessions (default 20).
	SessionPoolSize int
	// TimePerBlock (protocol) is used for the session lifetime default.
	TimePerBlock time.Duration

	MaxIteratorResultItems    int
	MaxFindResultItems        int
	MaxFindStorageResultItems int
	MaxNEP11Tokens            int

	// Logger receives server logs; nil discards them.
	Logger *slog.Logger
	// Clock drives session expiry; nil is the wall clock.
	Clock Clock
	// Rand supplies session and iterator ids; nil is crypto/rand.
	Rand io.Reader
}

// TLSConfig describes the HTTPS listeners.
type TLSConfig struct {
	Enabled   bool
	Addresses []string
	CertFile  string
	KeyFile   string
}

// Clock tells the time; tests inject a fake one.
type Clock interface {
	Now() time.Time
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// withDefaults fills unset fields as neo-go's rpcsrv.New does.
func (c Config) withDefaults() Config {
	if c.SessionEnabled {
		if c.SessionLifetime <= 0 {
			c.SessionLifetime = max(c.TimePerBlock, minSessionLifetime)
		}
		config.SetIfNonPositive(&c.SessionPoolSize, config.DefaultSessionPoolSize)
	}
	config.SetIfNonPositive(&c.MaxIteratorResultItems, config.DefaultMaxIteratorResultItems)
	config.SetIfNonPositive(&c.MaxFindResultItems, config.DefaultMaxFindResultItems)
	config.SetIfNonPositive(&c.MaxFindStorageResultItems, config.DefaultMaxFindStorageResultItems)
	if c.MaxNEP11Tokens <= 0 {
		c.MaxNEP11Tokens = config.DefaultMaxNEP11Tokens
	}
	config.SetIfNonPositive(&c.MaxRequestBodyBytes, config.DefaultMaxRequestBodyBytes)
	config.SetIfNonPositive(&c.MaxRequestHeaderBytes, config.DefaultMaxRequestHeaderBytes)
	if c.MaxWebSocketClients == 0 {
		c.MaxWebSocketClients = config.DefaultMaxWebSocketClients
	}
	config.SetIfNonPositive(&c.MaxWebSocketFeeds, config.DefaultMaxWebSocketFeeds)
	if c.MaxBlockSize == 0 {
		c.MaxBlockSize = config.DefaultMaxBlockSize
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Clock == nil {
		c.Clock = wallClock{}
	}
	return c
}

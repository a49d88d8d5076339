package config

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mr-tron/base58"
)

// ApplicationConfiguration holds node-local settings (neo-go
// config.ApplicationConfiguration, same YAML names and types, plus
// n3node's own keys: DBConfiguration.PebbleDBOptions, the LevelDB sizes
// and MemoryLimitMiB; docs/config.md).
type ApplicationConfiguration struct {
	Ledger `yaml:",inline"`

	DBConfiguration DBConfiguration `yaml:"DBConfiguration"`

	Logger `yaml:",inline"`

	P2P P2P `yaml:"P2P"`

	Pprof      Pprof        `yaml:"Pprof"`
	Prometheus BasicService `yaml:"Prometheus"`

	// Relay makes the node relay transactions and blocks it receives.
	Relay bool `yaml:"Relay"`
	// ArchivalNodesSync makes the node fetch old blocks only from peers that
	// keep them.
	ArchivalNodesSync bool `yaml:"ArchivalNodesSync"`

	Consensus         Consensus           `yaml:"Consensus"`
	RPC               RPC                 `yaml:"RPC"`
	Oracle            OracleConfiguration `yaml:"Oracle"`
	P2PNotary         P2PNotary           `yaml:"P2PNotary"`
	StateRoot         StateRoot           `yaml:"StateRoot"`
	NeoFSBlockFetcher NeoFSBlockFetcher   `yaml:"NeoFSBlockFetcher"`
	NeoFSStateFetcher NeoFSStateFetcher   `yaml:"NeoFSStateFetcher"`

	// MemoryLimitMiB is the Go runtime's soft memory limit of the node
	// (debug.SetMemoryLimit), an n3node key: 0 (unset) derives it from
	// the configuration (package node/memlimit), a positive value is the
	// limit in MiB, a negative one sets none. GOMEMLIMIT or GOGC in the
	// environment win over it.
	MemoryLimitMiB int `yaml:"MemoryLimitMiB,omitempty"`
}

// Ledger holds node-local chain settings that are not part of the protocol.
type Ledger struct {
	// GarbageCollectionPeriod is the number of blocks between MPT garbage
	// collections with RemoveUntraceableBlocks (default 10000).
	GarbageCollectionPeriod uint32 `yaml:"GarbageCollectionPeriod"`
	// KeepOnlyLatestState keeps only the latest MPT state; it must not
	// change for an existing database.
	KeepOnlyLatestState bool `yaml:"KeepOnlyLatestState"`
	// RemoveUntraceableBlocks deletes blocks, transactions, execution
	// results and MPT data older than MaxTraceableBlocks.
	RemoveUntraceableBlocks bool `yaml:"RemoveUntraceableBlocks"`
	// SaveStorageBatch keeps the storage changes of every block.
	SaveStorageBatch bool `yaml:"SaveStorageBatch"`
	// SkipBlockVerification disables the checks of received blocks.
	SkipBlockVerification bool `yaml:"SkipBlockVerification"`
	// SaveInvocations records contract invocation data.
	SaveInvocations bool `yaml:"SaveInvocations"`
	// TrustedHeader is where light-node header sync starts; valid only
	// with RemoveUntraceableBlocks and a state-sync extension.
	TrustedHeader HashIndex `yaml:"TrustedHeader"`
}

// Validate checks the Ledger settings.
func (l Ledger) Validate() error {
	if l.TrustedHeader.Index != 0 && !l.RemoveUntraceableBlocks {
		return fieldErr("ApplicationConfiguration.TrustedHeader", "TrustedHeader is set, but RemoveUntraceableBlocks is disabled")
	}
	return nil
}

// Database types accepted in DBConfiguration.Type.
const (
	DBLevelDB    = "leveldb"
	DBBoltDB     = "boltdb"
	DBInMemory   = "inmemory"
	DBPebbleDB   = "pebble"
	DBDefaultDir = "./data"
)

// DBConfiguration selects and configures the store.
type DBConfiguration struct {
	// Type is one of leveldb, boltdb, inmemory or pebble; empty leaves the
	// choice to the caller.
	Type            string          `yaml:"Type"`
	LevelDBOptions  LevelDBOptions  `yaml:"LevelDBOptions"`
	BoltDBOptions   BoltDBOptions   `yaml:"BoltDBOptions"`
	PebbleDBOptions PebbleDBOptions `yaml:"PebbleDBOptions"`
}

// LevelDBOptions configures LevelDB: neo-go's two keys, and n3node's
// CacheSizeMiB (the block cache) and WriteBufferSizeMiB (the memtable),
// in MiB; 0 keeps the store's defaults (storage.DefaultLevelDBCacheSize
// and DefaultLevelDBWriteBufferSize). Both live on the Go heap.
type LevelDBOptions struct {
	DataDirectoryPath  string `yaml:"DataDirectoryPath"`
	ReadOnly           bool   `yaml:"ReadOnly"`
	CacheSizeMiB       int    `yaml:"CacheSizeMiB,omitempty"`
	WriteBufferSizeMiB int    `yaml:"WriteBufferSizeMiB,omitempty"`
}

// BoltDBOptions configures BoltDB.
type BoltDBOptions struct {
	FilePath string `yaml:"FilePath"`
	ReadOnly bool   `yaml:"ReadOnly"`
}

// PebbleDBOptions configures Pebble (an n3node extension).
type PebbleDBOptions struct {
	DataDirectoryPath string `yaml:"DataDirectoryPath"`
	ReadOnly          bool   `yaml:"ReadOnly"`
	// CacheSizeMiB is the block cache and MemTableSizeMiB the size of one
	// memtable, in MiB; 0 keeps the store's defaults
	// (storage.DefaultPebbleCacheSize and DefaultPebbleMemTableSize,
	// docs/storage.md). Smaller values trade speed for memory.
	CacheSizeMiB    int `yaml:"CacheSizeMiB"`
	MemTableSizeMiB int `yaml:"MemTableSizeMiB"`
}

// MaxMemoryLimitMiB bounds ApplicationConfiguration.MemoryLimitMiB (1 PiB:
// the limit in bytes fits an int64 with room to add to it).
const MaxMemoryLimitMiB = 1 << 30

// maxMemTableMiB bounds the memtable sizes (Pebble's MemTableSize must
// be below 4 GiB; the same bound serves LevelDB's write buffer).
const maxMemTableMiB = 4096

// Validate checks the store type, that the chosen store has a path, and
// the store sizes (of every engine: a --db flag may pick another one).
func (d DBConfiguration) Validate() error {
	if d.LevelDBOptions.CacheSizeMiB < 0 {
		return fieldErr("ApplicationConfiguration.DBConfiguration.LevelDBOptions.CacheSizeMiB", "negative cache size")
	}
	if m := d.LevelDBOptions.WriteBufferSizeMiB; m < 0 || m >= maxMemTableMiB {
		return fieldErr("ApplicationConfiguration.DBConfiguration.LevelDBOptions.WriteBufferSizeMiB", "write buffer size %d MiB out of [0, %d)", m, maxMemTableMiB)
	}
	switch d.Type {
	case "", DBInMemory:
	case DBLevelDB:
		if d.LevelDBOptions.DataDirectoryPath == "" {
			return fieldErr("ApplicationConfiguration.DBConfiguration.LevelDBOptions.DataDirectoryPath", "leveldb needs DataDirectoryPath")
		}
	case DBBoltDB:
		if d.BoltDBOptions.FilePath == "" {
			return fieldErr("ApplicationConfiguration.DBConfiguration.BoltDBOptions.FilePath", "boltdb needs FilePath")
		}
	case DBPebbleDB:
		if d.PebbleDBOptions.DataDirectoryPath == "" {
			return fieldErr("ApplicationConfiguration.DBConfiguration.PebbleDBOptions.DataDirectoryPath", "pebble needs DataDirectoryPath")
		}
		if d.PebbleDBOptions.CacheSizeMiB < 0 {
			return fieldErr("ApplicationConfiguration.DBConfiguration.PebbleDBOptions.CacheSizeMiB", "negative cache size")
		}
		if m := d.PebbleDBOptions.MemTableSizeMiB; m < 0 || m >= maxMemTableMiB {
			return fieldErr("ApplicationConfiguration.DBConfiguration.PebbleDBOptions.MemTableSizeMiB", "memtable size %d MiB out of [0, %d)", m, maxMemTableMiB)
		}
	default:
		return fieldErr("ApplicationConfiguration.DBConfiguration.Type", "unknown storage type %q (want %s, %s, %s or %s)", d.Type, DBLevelDB, DBBoltDB, DBInMemory, DBPebbleDB)
	}
	return nil
}

// Path returns the directory or file of the selected store ("" for
// inmemory).
func (d DBConfiguration) Path() string {
	switch d.Type {
	case DBLevelDB:
		return d.LevelDBOptions.DataDirectoryPath
	case DBBoltDB:
		return d.BoltDBOptions.FilePath
	case DBPebbleDB:
		return d.PebbleDBOptions.DataDirectoryPath
	}
	return ""
}

// ReadOnly tells whether the selected store is opened read-only.
func (d DBConfiguration) ReadOnly() bool {
	switch d.Type {
	case DBLevelDB:
		return d.LevelDBOptions.ReadOnly
	case DBBoltDB:
		return d.BoltDBOptions.ReadOnly
	case DBPebbleDB:
		return d.PebbleDBOptions.ReadOnly
	}
	return false
}

// Logger configures logging.
type Logger struct {
	// LogEncoding is "console" (default) or "json".
	LogEncoding string `yaml:"LogEncoding"`
	// LogLevel is debug, info (default), warn or error.
	LogLevel string `yaml:"LogLevel"`
	// LogPath is a file to log to instead of stderr.
	LogPath string `yaml:"LogPath"`
	// LogTimestamp turns timestamps on or off (default: on unless the
	// output is a terminal, as in neo-go).
	LogTimestamp *bool `yaml:"LogTimestamp,omitempty"`
}

// Validate checks LogEncoding.
func (l Logger) Validate() error {
	if len(l.LogEncoding) > 0 && l.LogEncoding != "console" && l.LogEncoding != "json" {
		return fieldErr("ApplicationConfiguration.LogEncoding", "invalid LogEncoding: %s", l.LogEncoding)
	}
	return nil
}

// P2P configures the peer-to-peer server. Fields are grouped by what they
// tune; the YAML keys are neo-go's.
type P2P struct {
	// Addresses are "[host]:[port][:announcedPort]" to listen on.
	Addresses []string `yaml:"Addresses"`

	// How many peers to keep and to dial (see WithDefaults).
	MinPeers         int `yaml:"MinPeers"`
	MaxPeers         int `yaml:"MaxPeers"`
	AttemptConnPeers int `yaml:"AttemptConnPeers"`

	// Connection timing. PingInterval defaults to 30s and PingTimeout to
	// 90s when absent.
	DialTimeout       time.Duration `yaml:"DialTimeout"`
	PingTimeout       time.Duration `yaml:"PingTimeout"`
	PingInterval      time.Duration `yaml:"PingInterval"`
	ProtoTickInterval time.Duration `yaml:"ProtoTickInterval"`

	// Relay: BroadcastFactor (0-100) tunes gossip fan-out,
	// BroadcastTxsBatchDelay is how long transactions are batched before
	// being announced.
	BroadcastFactor        int           `yaml:"BroadcastFactor"`
	BroadcastTxsBatchDelay time.Duration `yaml:"BroadcastTxsBatchDelay"`
	ExtensiblePoolSize     int           `yaml:"ExtensiblePoolSize"`
	DisableCompression     bool          `yaml:"DisableCompression"`
}

// Defaults neo-go's network server applies to unset or bad P2P values.
const (
	DefaultMinPeers           = 5
	DefaultAttemptConnPeers   = 20
	DefaultMaxPeers           = 100
	DefaultExtensiblePoolSize = 20
	DefaultBroadcastFactor    = 0
	DefaultPingInterval       = 3 * time.Second
)

// WithDefaults returns p with neo-go's network server fixups applied:
// MinPeers < 0, MaxPeers <= 0, AttemptConnPeers <= 0, BroadcastFactor
// outside 0..100, PingInterval <= 0 and ExtensiblePoolSize <= 0 get the
// defaults; an unset BroadcastTxsBatchDelay becomes min(50ms,
// timePerBlock/20).
func (p P2P) WithDefaults(timePerBlock time.Duration) P2P {
	if p.MinPeers < 0 {
		p.MinPeers = DefaultMinPeers
	}
	SetIfNonPositive(&p.MaxPeers, DefaultMaxPeers)
	SetIfNonPositive(&p.AttemptConnPeers, DefaultAttemptConnPeers)
	if p.BroadcastFactor < 0 || p.BroadcastFactor > 100 {
		p.BroadcastFactor = DefaultBroadcastFactor
	}
	SetIfNonPositive(&p.PingInterval, DefaultPingInterval)
	SetIfNonPositive(&p.ExtensiblePoolSize, DefaultExtensiblePoolSize)
	if p.BroadcastTxsBatchDelay == 0 {
		p.BroadcastTxsBatchDelay = min(50*time.Millisecond, timePerBlock/20)
	}
	return p
}

// AnnounceableAddress is a listen address with the port to announce in the
// version message (0: the listening port).
type AnnounceableAddress struct {
	Address       string
	AnnouncedPort uint16
}

// GetAddresses parses P2P.Addresses ("[host]:[port][:announcedPort]", IPv6
// in brackets) as neo-go does; with none configured it returns ":0".
func (a *ApplicationConfiguration) GetAddresses() ([]AnnounceableAddress, error) {
	addrs := make([]AnnounceableAddress, 0, len(a.P2P.Addresses))
	for i, s := range a.P2P.Addresses {
		addr, err := parseAnnounceable(s)
		if err != nil {
			return nil, fmt.Errorf("address #%d: %w", i, err)
		}
		addrs = append(addrs, addr)
	}
	if len(addrs) == 0 {
		addrs = append(addrs, AnnounceableAddress{Address: ":0"})
	}
	return addrs, nil
}

func parseAnnounceable(s string) (AnnounceableAddress, error) {
	plain := AnnounceableAddress{Address: s}
	if s == "" {
		return plain, errors.New("empty address")
	}
	last := strings.LastIndex(s, ":")
	if last == -1 {
		return plain, nil // host without port
	}
	lastPort, err := strconv.ParseUint(s[last+1:], 10, 16)
	if err != nil {
		return plain, nil // "host:" or a bare IPv6 address such as "A:B::"
	}
	pen := strings.LastIndex(s[:last], ":")
	if pen == -1 {
		return plain, nil // "host:port"
	}
	isV6 := strings.Count(s, ":") > 2
	hasBracket := strings.Contains(s, "]")
	if pen == last-1 {
		if isV6 && !hasBracket {
			return plain, nil // bare IPv6 "A:B::123"
		}
		// "host::announced" or "[v6]::announced".
		return AnnounceableAddress{Address: s[:last], AnnouncedPort: uint16(lastPort)}, nil
	}
	if _, err := strconv.ParseUint(s[pen+1:last], 10, 16); err != nil {
		if isV6 {
			return plain, nil // bare IPv6 or "[v6]:port"
		}
		return plain, fmt.Errorf("failed to parse port from %s: %w", s, err)
	}
	if isV6 && !hasBracket {
		return plain, nil // bare IPv6 "A::1:1"
	}
	return AnnounceableAddress{Address: s[:last], AnnouncedPort: uint16(lastPort)}, nil
}

// BasicService is a service that can be enabled and listens on Addresses
// ("address:port").
type BasicService struct {
	Enabled   bool     `yaml:"Enabled"`
	Addresses []string `yaml:"Addresses"`
}

// Pprof configures the profiling HTTP server.
type Pprof struct {
	BasicService `yaml:",inline"`

	EnableBlock bool `yaml:"EnableBlock"`
	EnableMutex bool `yaml:"EnableMutex"`
}

// Wallet locates a NEP-6 wallet and its password. A Path starting with
// EmbeddedWalletPrefix names a wallet built into the binary (see
// ReadWallet).
type Wallet struct {
	Path     string `yaml:"Path"`
	Password string `yaml:"Password"`
}

// InternalService is a service without listeners that uses a wallet.
type InternalService struct {
	Enabled      bool   `yaml:"Enabled"`
	UnlockWallet Wallet `yaml:"UnlockWallet"`
}

// Consensus configures the dBFT service.
type Consensus InternalService

// P2PNotary configures the notary service (P2PSigExtensions).
type P2PNotary InternalService

// StateRoot configures the state root signing service.
type StateRoot InternalService

// RPC configures the JSON-RPC server.
type RPC struct {
	BasicService `yaml:",inline"`
	// DirectRelay sends new transactions to peers at once instead of
	// announcing their hashes.
	DirectRelay          bool `yaml:"DirectRelay"`
	EnableCORSWorkaround bool `yaml:"EnableCORSWorkaround"`
	// MaxGasInvoke is the GAS limit of invoke* calls.
	MaxGasInvoke           Fixed8 `yaml:"MaxGasInvoke"`
	MaxIteratorResultItems int    `yaml:"MaxIteratorResultItems"`
	MaxFindResultItems     int    `yaml:"MaxFindResultItems"`
	// MaxFindStorageResultItems is written MaxFindStoragePageSize in YAML.
	MaxFindStorageResultItems   int           `yaml:"MaxFindStoragePageSize"`
	MaxNEP11Tokens              int           `yaml:"MaxNEP11Tokens"`
	MaxRequestBodyBytes         int           `yaml:"MaxRequestBodyBytes"`
	MaxRequestHeaderBytes       int           `yaml:"MaxRequestHeaderBytes"`
	MaxWebSocketClients         int           `yaml:"MaxWebSocketClients"`
	MaxWebSocketFeeds           int           `yaml:"MaxWebSocketFeeds"`
	MempoolSubscriptionsEnabled bool          `yaml:"MempoolSubscriptionsEnabled"`
	SessionEnabled              bool          `yaml:"SessionEnabled"`
	SessionExpansionEnabled     bool          `yaml:"SessionExpansionEnabled"`
	SessionLifetime             time.Duration `yaml:"SessionLifetime"`
	SessionBackedByMPT          bool          `yaml:"SessionBackedByMPT"`
	SessionPoolSize             int           `yaml:"SessionPoolSize"`
	StartWhenSynchronized       bool          `yaml:"StartWhenSynchronized"`
	TLSConfig                   TLS           `yaml:"TLSConfig"`
}

// TLS configures the RPC server's TLS listeners.
type TLS struct {
	BasicService `yaml:",inline"`
	CertFile     string `yaml:"CertFile"`
	KeyFile      string `yaml:"KeyFile"`
}

// Defaults neo-go's RPC server applies to unset values.
const (
	DefaultMaxIteratorResultItems    = 100
	DefaultMaxFindResultItems        = 100
	DefaultMaxFindStorageResultItems = 50
	DefaultMaxNEP11Tokens            = 100
	DefaultMaxRequestBodyBytes       = 1 << 20
	DefaultMaxRequestHeaderBytes     = 1 << 20 // net/http.DefaultMaxHeaderBytes
	DefaultMaxWebSocketClients       = 64
	DefaultMaxWebSocketFeeds         = 16
	DefaultSessionPoolSize           = 20
)

// Validate checks the RPC settings.
func (r *RPC) Validate() error {
	if r.SessionExpansionEnabled && !r.SessionEnabled {
		return fieldErr("ApplicationConfiguration.RPC.SessionExpansionEnabled", "SessionExpansionEnabled requires SessionEnabled")
	}
	return nil
}

// WithDefaults returns r with neo-go's RPC server fixups: non-positive
// limits get the defaults above, zero websocket limits too, and with
// sessions on an unset SessionLifetime becomes max(timePerBlock, 5s).
func (r RPC) WithDefaults(timePerBlock time.Duration) RPC {
	if r.SessionEnabled {
		if r.SessionLifetime <= 0 {
			r.SessionLifetime = max(timePerBlock, 5*time.Second)
		}
		SetIfNonPositive(&r.SessionPoolSize, DefaultSessionPoolSize)
	}
	SetIfNonPositive(&r.MaxIteratorResultItems, DefaultMaxIteratorResultItems)
	SetIfNonPositive(&r.MaxFindResultItems, DefaultMaxFindResultItems)
	SetIfNonPositive(&r.MaxFindStorageResultItems, DefaultMaxFindStorageResultItems)
	SetIfNonPositive(&r.MaxNEP11Tokens, DefaultMaxNEP11Tokens)
	SetIfNonPositive(&r.MaxRequestBodyBytes, DefaultMaxRequestBodyBytes)
	SetIfNonPositive(&r.MaxRequestHeaderBytes, DefaultMaxRequestHeaderBytes)
	if r.MaxWebSocketClients == 0 {
		r.MaxWebSocketClients = DefaultMaxWebSocketClients
	}
	if r.MaxWebSocketFeeds == 0 {
		r.MaxWebSocketFeeds = DefaultMaxWebSocketFeeds
	}
	return r
}

// SetIfNonPositive sets *v to def when it is zero or negative: the
// defaulting rule of most numeric settings (unset in the file, or a value
// that cannot be meant).
func SetIfNonPositive[T cmp.Ordered](v *T, def T) {
	var zero T
	if *v <= zero {
		*v = def
	}
}

// OracleConfiguration configures the oracle service; the YAML keys are
// neo-go's.
type OracleConfiguration struct {
	Enabled      bool   `yaml:"Enabled"`
	UnlockWallet Wallet `yaml:"UnlockWallet"`
	// Nodes are the RPC endpoints responses are broadcast to.
	Nodes []string `yaml:"Nodes"`

	// What may be fetched.
	AllowPrivateHost    bool               `yaml:"AllowPrivateHost"`
	AllowedContentTypes []string           `yaml:"AllowedContentTypes"`
	NeoFS               NeoFSConfiguration `yaml:"NeoFS"`

	// Limits and timing.
	MaxConcurrentRequests int           `yaml:"MaxConcurrentRequests"`
	RequestTimeout        time.Duration `yaml:"RequestTimeout"`
	MaxTaskTimeout        time.Duration `yaml:"MaxTaskTimeout"`
	ResponseTimeout       time.Duration `yaml:"ResponseTimeout"`
	RefreshInterval       time.Duration `yaml:"RefreshInterval"`
}

// NeoFSConfiguration configures the oracle's NeoFS access.
type NeoFSConfiguration struct {
	Timeout time.Duration `yaml:"Timeout"`
	Nodes   []string      `yaml:"Nodes"`
}

// NeoFSService is the common part of the NeoFS fetchers. n3node parses and
// keeps these sections but does not implement the fetchers.
type NeoFSService struct {
	InternalService `yaml:",inline"`
	Timeout         time.Duration `yaml:"Timeout"`
	ContainerID     string        `yaml:"ContainerID"`
	Addresses       []string      `yaml:"Addresses"`
}

// validate checks an enabled service: a base58 32-byte container ID and
// at least one address.
func (s *NeoFSService) validate(field string) error {
	if !s.Enabled {
		return nil
	}
	if s.ContainerID == "" {
		return fieldErr(field+".ContainerID", "container ID is not set")
	}
	if b, err := base58.Decode(s.ContainerID); err != nil || len(b) != 32 {
		return fieldErr(field+".ContainerID", "invalid container ID %q", s.ContainerID)
	}
	if len(s.Addresses) == 0 {
		return fieldErr(field+".Addresses", "addresses are not set")
	}
	return nil
}

// NeoFSBlockFetcher configures fetching blocks from NeoFS.
type NeoFSBlockFetcher struct {
	NeoFSService           `yaml:",inline"`
	OIDBatchSize           int    `yaml:"OIDBatchSize"`
	BlockAttribute         string `yaml:"BlockAttribute"`
	DownloaderWorkersCount int    `yaml:"DownloaderWorkersCount"`
	BQueueSize             int    `yaml:"BQueueSize"`
}

// Validate checks the block fetcher settings.
func (f *NeoFSBlockFetcher) Validate() error {
	const field = "ApplicationConfiguration.NeoFSBlockFetcher"
	if err := f.validate(field); err != nil {
		return err
	}
	if f.BQueueSize > 0 && f.BQueueSize < f.OIDBatchSize {
		return fieldErr(field+".BQueueSize", "BQueueSize (%d) is lower than OIDBatchSize (%d)", f.BQueueSize, f.OIDBatchSize)
	}
	return nil
}

// NeoFSStateFetcher configures fetching state from NeoFS.
type NeoFSStateFetcher struct {
	NeoFSService      `yaml:",inline"`
	StateAttribute    string `yaml:"StateAttribute"`
	KeyValueBatchSize int    `yaml:"KeyValueBatchSize"`
}

// Validate checks the state fetcher settings.
func (f *NeoFSStateFetcher) Validate() error {
	return f.validate("ApplicationConfiguration.NeoFSStateFetcher")
}

// Validate checks the application configuration as neo-go does, plus the
// store type. As in neo-go, an enabled NeoFSStateFetcher without a
// ContainerID takes the block fetcher's service settings.
func (a *ApplicationConfiguration) Validate() error {
	if err := a.NeoFSBlockFetcher.Validate(); err != nil {
		return err
	}
	if a.NeoFSStateFetcher.Enabled && a.NeoFSBlockFetcher.Enabled && a.NeoFSStateFetcher.ContainerID == "" {
		a.NeoFSStateFetcher.NeoFSService = a.NeoFSBlockFetcher.NeoFSService
	}
	if err := a.NeoFSStateFetcher.Validate(); err != nil {
		return err
	}
	if err := a.RPC.Validate(); err != nil {
		return err
	}
	if err := a.Logger.Validate(); err != nil {
		return err
	}
	if err := a.Ledger.Validate(); err != nil {
		return err
	}
	if a.MemoryLimitMiB > MaxMemoryLimitMiB {
		return fieldErr("ApplicationConfiguration.MemoryLimitMiB", "memory limit %d MiB above %d", a.MemoryLimitMiB, MaxMemoryLimitMiB)
	}
	return a.DBConfiguration.Validate()
}

// EqualsButServices reports whether a and o differ only in services
// (Oracle, P2PNotary, Pprof, Prometheus, RPC, StateRoot) and log level, so
// that a running node can apply o on reload.
func (a *ApplicationConfiguration) EqualsButServices(o *ApplicationConfiguration) bool {
	aa, oa := slices.Clone(a.P2P.Addresses), slices.Clone(o.P2P.Addresses)
	slices.Sort(aa)
	slices.Sort(oa)
	return slices.Equal(aa, oa) &&
		a.P2P.AttemptConnPeers == o.P2P.AttemptConnPeers &&
		a.P2P.BroadcastFactor == o.P2P.BroadcastFactor &&
		a.P2P.BroadcastTxsBatchDelay == o.P2P.BroadcastTxsBatchDelay &&
		a.DBConfiguration == o.DBConfiguration &&
		a.P2P.DialTimeout == o.P2P.DialTimeout &&
		a.P2P.ExtensiblePoolSize == o.P2P.ExtensiblePoolSize &&
		a.LogPath == o.LogPath &&
		a.MemoryLimitMiB == o.MemoryLimitMiB &&
		a.P2P.MaxPeers == o.P2P.MaxPeers &&
		a.P2P.MinPeers == o.P2P.MinPeers &&
		a.P2P.PingInterval == o.P2P.PingInterval &&
		a.P2P.PingTimeout == o.P2P.PingTimeout &&
		a.P2P.ProtoTickInterval == o.P2P.ProtoTickInterval &&
		a.Relay == o.Relay
}
